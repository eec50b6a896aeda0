# append: user_booted_reported sysctl.kernel.user_booted_timeout=10
# Init was to report and does not: the fallback ends boot 10 s after init
# launch, not before, wakes the waiters, tells every subscriber once and
# warns in the kernel log.  10 s: the debug kernel needs 4-5 s from init
# launch to the test's setup, which must see boot still going on.
. /ub/selftests-lib.sh
run_selftest -r boot_end.timeout_ends_boot_with_a_warning -r booted.reads_1_after_boot_end
