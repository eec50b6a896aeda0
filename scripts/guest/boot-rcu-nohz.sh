# nohz_full CPUs keep today's behaviour under user_booted_reported: after
# the in-kernel boot, expedited grace periods disturb isolated CPUs, so
# RCU's boot mode ends at init launch unless rcupdate.rcu_user_booted_always=1.
# Only the debug kernel has CONFIG_NO_HZ_FULL (configs/debug.config).
# rcu_check_mode's probe, membarrier(GLOBAL), fails with EINVAL on a
# nohz_full system (kernel/sched/membarrier.c), so this suite checks RCU's
# announcement and rcu_normal (boot-rcu-isolcpus.sh: the same rule with
# the probe).
# flavour: debug
# append: user_booted_reported nohz_full=1
. /ub/lib.sh
. /ub/boot-rcu-lib.sh
check "nohz_full is active on CPU 1" [ "$(cat /sys/devices/system/cpu/nohz_full)" = 1 ]
check "RCU announces that boot mode ends at init launch" rcu_announces "at init launch"
check "rcu_normal while userspace boots: 0" [ "$(cat /sys/kernel/rcu_normal)" = 0 ]
echo 1 > $sysctl_path
check "rcu_normal after userspace boot: 0" [ "$(cat /sys/kernel/rcu_normal)" = 0 ]
tap_done
