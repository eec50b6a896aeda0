# KUnit: the state machine; RCU's mode
# before and after the report, seen from userspace.
# append: user_booted_reported
. /ub/lib.sh
. /ub/kunit-lib.sh
. /ub/boot-rcu-lib.sh
kunit_run user_booted_test user_booted
# Its instances ended boot many times (the fallback too): none logged.
check "kunit: the test's instances leave no user_booted line in the kernel log" \
	not_in_log 'user_booted: \(userspace boot ended\|init did not report\)'
rcu_check_mode
echo 1 > $sysctl_path
check "the system's report: one line" eval '[ "$(dmesg | grep -c "user_booted: userspace boot ended")" = 1 ]'
rcu_check_mode
tap_done
