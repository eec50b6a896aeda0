# append: user_booted_reported
# 64 threads write 1 at once: all succeed, boot ends once, each of the
# subscribers is told exactly once.
. /ub/selftests-lib.sh
run_selftest -r boot_end.concurrent_reports_end_boot_once
