# The whole kselftest, as "make run_tests" would run it on this system:
# unfiltered, not strict, cases that cannot run here SKIP.  Boot with
# user_booted_reported for the booting.* cases and one boot_end.* case:
#   qemu-run.sh -a "ub.run=selftests user_booted_reported"
. /ub/selftests-lib.sh
/ub/user_booted_test > /tmp/selftest.out 2>&1
rc=$?
cat /tmp/selftest.out
exit $rc
