# RCU drops boot mode when the fallback timeout ends boot.
# append: user_booted_reported sysctl.kernel.user_booted_timeout=3
. /ub/lib.sh
. /ub/kunit-lib.sh
kunit_run user_booted_rcu_test user_booted_rcu
i=0
while [ "$(cat $sysctl_path)" = 0 ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
check "timeout ended boot" [ "$(cat $sysctl_path)" = 1 ]
kunit_run user_booted_rcu_test user_booted_rcu
check "rcu boot report names the timeout" sh -c "dmesg | grep -q 'rcu: userspace boot (ended: timeout)'"
tap_done
