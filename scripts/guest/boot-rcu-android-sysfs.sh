# The knob cleared by hand (the script's name is older): boot with
# rcupdate.rcu_expedited=1 and write 0 to /sys/kernel/rcu_expedited once
# booted (Android keeps rcu_expedited=1 for good or never clears it: the
# boot-rcu-android suite).  The knob is the
# admin's expediting only: while userspace boots RCU's boot mode still
# expedites, and the report ends that.
# append: user_booted_reported rcupdate.rcu_expedited=1
# backports: no (make test: the RCU patch differs on a backport only in its
# housekeeping check, which the isolcpus suites run there)
# flavour: qemu
. /ub/lib.sh
. /ub/boot-rcu-lib.sh
echo 0 > /sys/kernel/rcu_expedited
check "/sys/kernel/rcu_expedited reads 0 after the write" [ "$(cat /sys/kernel/rcu_expedited)" = 0 ]
rcu_check_mode
echo 1 > $sysctl_path
rcu_check_mode
tap_done
