# nohz_full CPUs keep today's behaviour under user_booted_reported: after
# the in-kernel boot, expedited grace periods disturb isolated CPUs, so
# RCU's boot mode ends at init launch unless rcupdate.rcu_user_booted=1.
# Only the debug kernel has CONFIG_NO_HZ_FULL (configs/debug.config).
# flavour: debug
# append: user_booted_reported nohz_full=1
. /ub/lib.sh
. /ub/boot-rcu-lib.sh
check "nohz_full is active on CPU 1" [ "$(cat /sys/devices/system/cpu/nohz_full)" = 1 ]
check "RCU announces that boot mode ends at init launch (nohz_full)" \
	sh -c "dmesg | grep -q 'rcu: boot-time expediting ends at init launch (nohz_full)'"
rcu_check_mode follows=0
echo 1 > $sysctl_path
rcu_check_mode follows=0
tap_done
