# KUnit: the state machine, and RCU's mode before and after the report.
# append: user_booted_reported
. /ub/lib.sh
. /ub/kunit-lib.sh
kunit_run user_booted_test user_booted
kunit_run user_booted_rcu_test user_booted_rcu
echo 1 > $sysctl_path
kunit_run user_booted_rcu_test user_booted_rcu
tap_done
