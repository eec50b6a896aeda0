# append: user_booted_reported
# Reports race the timeout work (fired at once by shortening the timeout to
# 1 s): whichever wins, boot ends once and each subscriber is told once.
. /ub/selftests-lib.sh
run_selftest -r boot_end.report_racing_timeout_ends_boot_once
