# rcupdate.rcu_normal_after_boot=1 (PREEMPT_RT's default) keeps today's
# behaviour under user_booted_reported: boot mode ends at init launch and
# grace periods are normal from there, with no wait for a report.
# append: user_booted_reported rcupdate.rcu_normal_after_boot=1
# flavour: qemu
. /ub/lib.sh
. /ub/boot-rcu-lib.sh
check "RCU announces that boot mode ends at init launch" rcu_announces "at init launch"
rcu_check_mode follows=0 normal_after_boot=1
echo 1 > $sysctl_path
rcu_check_mode follows=0 normal_after_boot=1
tap_done
