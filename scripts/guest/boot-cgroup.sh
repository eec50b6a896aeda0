# cgroup migrations wait for no grace period while userspace boots, and do
# again after the report: the hold is released exactly once.
# (favordynmods toggled around it: boot-cgroup-favordynmods.sh.)
# append: user_booted_reported
. /ub/lib.sh
. /ub/cgroup-lib.sh

migrations 10
check "20 migrations while booting: no synchronize_rcu() (saw $n)" [ "$n" -eq 0 ]
controls 5
check "10 controller changes while booting: no synchronize_rcu() (saw $n)" [ "$n" -eq 0 ]
echo 1 > $sysctl_path
migrations 10
check "after boot, migrations wait again (saw $n)" [ "$n" -ge 10 ]
controls 5
check "after boot, controller changes wait again (saw $n)" [ "$n" -ge 5 ]
tap_done
