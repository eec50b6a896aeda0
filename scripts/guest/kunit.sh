# KUnit: the state machine; RCU's mode
# before and after the report, seen from userspace.
# append: user_booted_reported
. /ub/lib.sh
. /ub/kunit-lib.sh
. /ub/boot-rcu-lib.sh
kunit_run user_booted_test user_booted
rcu_check_mode
echo 1 > $sysctl_path
rcu_check_mode
tap_done
