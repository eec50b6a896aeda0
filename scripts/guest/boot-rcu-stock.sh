# Without user_booted_reported RCU is stock: boot mode ended at init launch.
# append:
. /ub/lib.sh
. /ub/kunit-lib.sh
check "boot ended at init launch" [ "$(cat $sysctl_path)" = 1 ]
kunit_run user_booted_rcu_test user_booted_rcu
check "no userspace boot report without user_booted_reported" \
	sh -c "! dmesg | grep -q 'rcu: userspace boot'"
tap_done
