# append: user_booted_reported sysctl.kernel.user_booted_timeout=600
# Shortening kernel.user_booted_timeout at runtime: to a deadline still ahead
# boot goes on; to one already past it ends at once, reason "timeout".
. /ub/selftests-lib.sh
run_selftest -r boot_end.shortened_timeout_ends_boot_at_once
