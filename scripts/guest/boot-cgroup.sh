# cgroup migrations wait for no grace period while userspace boots, do again
# after the report, and favordynmods set during boot is still honoured after.
# cgroup2 has no "nofavordynmods": a remount without the option clears it
# (with -t, or busybox keeps the options in force).
# append: user_booted_reported
. /ub/lib.sh
. /ub/cgroup-lib.sh

migrations 10
check "20 migrations while booting: no synchronize_rcu() (saw $n)" [ "$n" -eq 0 ]
favordynmods on
favordynmods off
favordynmods on
echo 1 > $sysctl_path
migrations 10
check "favordynmods set during boot still holds after it (saw $n)" [ "$n" -eq 0 ]
favordynmods off
migrations 10
check "after boot, without favordynmods, migrations wait again (saw $n)" [ "$n" -ge 10 ]
favordynmods on
favordynmods off
migrations 10
check "remount toggles after boot stay balanced (saw $n)" [ "$n" -ge 10 ]
tap_done
