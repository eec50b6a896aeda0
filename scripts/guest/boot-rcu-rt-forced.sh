# rcupdate.rcu_user_booted_always=1 asks RCU to keep boot mode until userspace has
# booted even with rcu_normal_after_boot=1: expedited while userspace
# boots, normal grace periods only after the report.
# append: user_booted_reported rcupdate.rcu_normal_after_boot=1 rcupdate.rcu_user_booted_always=1
# backports: no (make test: the RCU patch differs on a backport only in its
# housekeeping check, which the isolcpus suites run there)
. /ub/lib.sh
. /ub/boot-rcu-lib.sh
check "RCU announces that boot mode lasts until userspace has booted" \
	rcu_announces "when userspace has booted"
rcu_check_mode normal_after_boot=1
echo 1 > $sysctl_path
rcu_check_mode normal_after_boot=1
tap_done
