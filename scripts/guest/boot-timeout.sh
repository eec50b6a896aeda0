# append: user_booted_reported sysctl.kernel.user_booted_timeout=20
# Init was to report and does not: the fallback ends boot 20 s after init
# launch, not before, wakes the waiters, tells every subscriber once and
# warns in the kernel log.  20 s: the debug kernel needs 4-5 s from init
# launch to the test's setup, which must see boot still going on.
. /ub/selftests-lib.sh
run_selftest -r boot_end.timeout_ends_boot_with_a_warning -r booted.reads_1_after_boot_end
rc=$?
# The kernel's own line says when: never before the timeout.
t=$(dmesg | sed -n 's/.*userspace boot ended (timeout) \([0-9.]*\) s after init launch.*/\1/p')
if [ -n "$t" ] && awk -v t="$t" 'BEGIN { exit !(t >= 20) }'; then
	ok "the fallback ended boot $t s after init launch, not before its 20 s"
else
	not_ok "the fallback ended boot ${t:-(no line)} s after init launch, not before its 20 s"
fi
[ "$rc" = 0 ] && tap_done
