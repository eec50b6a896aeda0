# KUnit: the state machine and RCU's rcu_user_booted policy; RCU's mode
# before and after the report, seen from userspace.
# append: user_booted_reported
. /ub/lib.sh
. /ub/kunit-lib.sh
. /ub/boot-rcu-lib.sh
kunit_run user_booted_test user_booted
kunit_run user_booted_rcu_test user_booted_rcu
rcu_check_mode
echo 1 > $sysctl_path
rcu_check_mode
tap_done
