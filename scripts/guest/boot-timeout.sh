# append: user_booted_reported user_booted_timeout=5
# Init was to report and does not: the fallback ends boot 5 s after init
# launch, not before, wakes the waiters, tells every subscriber once and
# warns in the kernel log.
. /ub/selftests-lib.sh
run_selftest -r boot_end.timeout_ends_boot_with_a_warning -r booted.reads_1_after_boot_end
