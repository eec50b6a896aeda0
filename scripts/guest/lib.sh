# TAP helpers for the guest scripts: source it.  The host counts every
# top-level "ok N" / "not ok N" line on the console.
tap_n=0
tap_failed=0
ok() { tap_n=$((tap_n + 1)); echo "ok $tap_n - $*"; }
not_ok() { tap_n=$((tap_n + 1)); tap_failed=$((tap_failed + 1)); echo "not ok $tap_n - $*"; }
# check DESCRIPTION COMMAND...: one test case from a command's status.
check() { d=$1; shift; if "$@"; then ok "$d"; else not_ok "$d"; fi; }
tap_done() { [ "$tap_failed" -eq 0 ]; }

sysctl_path=/proc/sys/kernel/user_booted
subscriber_param() { cat "/sys/module/user_booted_subscriber/parameters/$1"; }
not() { ! "$@"; }
# not_in_log PATTERN: no kernel log line matches.
not_in_log() { ! dmesg | grep -q -e "$1"; }
# The kernel's own line for the end of boot.
boot_end_line() { dmesg | grep 'user_booted: userspace boot ended' | tail -n 1; }
