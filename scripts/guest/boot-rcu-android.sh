# rcupdate.rcu_expedited=1 (Android's line: kept for good or never cleared)
# keeps expediting after userspace boot.
# append: user_booted_reported rcupdate.rcu_expedited=1
# backports: no (make test: the RCU patch differs on a backport only in its
# housekeeping check, which the isolcpus suites run there)
# flavour: qemu
. /ub/lib.sh
. /ub/boot-rcu-lib.sh
rcu_check_mode admin_expedites=1
echo 1 > $sysctl_path
rcu_check_mode admin_expedites=1
tap_done
