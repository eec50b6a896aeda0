# rcupdate.rcu_user_booted=0: RCU's boot mode ends at init launch although
# init is to report, as on a stock kernel.
# append: user_booted_reported rcupdate.rcu_user_booted=0
# backports: no (make test: the RCU patch differs on a backport only in its
# housekeeping check, which the isolcpus suites run there)
# flavour: qemu
. /ub/lib.sh
. /ub/boot-rcu-lib.sh
check "RCU announces that boot mode ends at init launch" rcu_announces "at init launch"
rcu_check_mode follows=0
echo 1 > $sysctl_path
rcu_check_mode follows=0
tap_done
