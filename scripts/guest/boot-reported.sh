# append: user_booted_reported sysctl.kernel.user_booted_timeout=300
# Init reports: the ABI in the order a boot goes through it.  While booting:
# reads, bad input, privilege, waiters not woken.  Then the report, which
# wakes poll() and epoll waiters and ends boot once.  Then after it: reads,
# idempotent re-writes, "0" and the other bad input refused.
. /ub/selftests-lib.sh
run_selftest -f global -f booting -r boot_end.report_wakes_waiters_and_ends_boot_once -f booted
