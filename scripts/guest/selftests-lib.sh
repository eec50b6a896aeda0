# Run the user_booted kselftest in the guest: source it from a boot-*.sh.
#
#   run_selftest [FILTER...]   kselftest_harness filters (-r fixture.case,
#                              -f fixture, ...) picking the cases this boot is
#                              made for
#
# The boot is made for the cases picked: one that skips counts as a failure
# here (the test itself skips a case that does not fit the boot).  Their TAP
# goes to the console in one piece after the run, so that kernel messages do
# not split its lines, followed by the cases: nothing skipped, and the
# kernel log holds no WARNING, BUG, KASAN or lockdep report.  Returns
# non-zero if anything failed.
. /ub/lib.sh

# What the kernel prints when something is wrong (qemu-run.sh checks the
# console for the same, but the console can interleave lines).
KERNEL_ERRORS='WARNING:|BUG:|UBSAN:|Oops|general protection fault|INFO: task .* blocked|possible recursive locking|circular locking|inconsistent lock state|suspicious RCU usage'

check_kernel_log() {
	if dmesg | grep -E "$KERNEL_ERRORS" > /tmp/kernel-errors; then
		not_ok "kernel log: no WARNING, BUG, KASAN or lockdep report"
		head -n 20 /tmp/kernel-errors | sed 's/^/# /'
	else
		ok "kernel log: no WARNING, BUG, KASAN or lockdep report"
	fi
}

# The initramfs root comes out 0700 (mktemp -d): let nobody reach /proc.
chmod 755 /

run_selftest() {
	local rc start

	start=$(cut -d' ' -f1 /proc/uptime)
	/ub/user_booted_test "$@" > /tmp/selftest.out 2>&1
	rc=$?
	cat /tmp/selftest.out
	echo "# user_booted_test $*: exit $rc after $(awk -v s="$start" '{ printf "%.1f", $1 - s }' /proc/uptime) s"
	# Number the next cases after the kselftest's own.
	tap_n=$((tap_n + $(grep -cE '^(not )?ok [0-9]+' /tmp/selftest.out)))
	check "user_booted_test: no case skipped in a boot made for it" \
		not grep -qE '^ok [0-9]+ .*# SKIP' /tmp/selftest.out
	check_kernel_log
	[ "$rc" -eq 0 ] && tap_done
}
