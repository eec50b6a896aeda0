# rcupdate.rcu_user_booted_always=1 keeps boot mode until userspace has booted
# even with isolated CPUs (isolcpus=1): expedited while userspace boots,
# stock after the report.
# append: user_booted_reported isolcpus=1 rcupdate.rcu_user_booted_always=1
# flavour: qemu
. /ub/lib.sh
. /ub/boot-rcu-lib.sh
check "CPU 1 is isolated (isolcpus=1)" [ "$(cat /sys/devices/system/cpu/isolated)" = 1 ]
check "RCU announces that boot mode lasts until userspace has booted" \
	rcu_announces "when userspace has booted"
rcu_check_mode
echo 1 > $sysctl_path
rcu_check_mode
tap_done
