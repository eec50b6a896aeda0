# isolcpus= without nohz_full keeps today's behaviour under
# user_booted_reported: stock RCU sends isolated CPUs no expedited IPIs
# after init launch, so RCU's boot mode ends there (the automatic rule of
# rcupdate.rcu_user_booted_always; boot-rcu-isolcpus-forced.sh: =1 keeps it).
# append: user_booted_reported isolcpus=1
. /ub/lib.sh
. /ub/boot-rcu-lib.sh
check "CPU 1 is isolated (isolcpus=1)" [ "$(cat /sys/devices/system/cpu/isolated)" = 1 ]
check "no nohz_full CPU" [ -z "$(cat /sys/devices/system/cpu/nohz_full 2>/dev/null)" ]
check "RCU announces that boot mode ends at init launch" rcu_announces "at init launch"
rcu_check_mode follows=0
echo 1 > $sysctl_path
rcu_check_mode follows=0
tap_done
