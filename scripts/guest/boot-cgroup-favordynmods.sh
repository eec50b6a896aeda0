# favordynmods toggled while userspace boots: the subscriber's hold and
# favordynmods' own are counts of one rcu_sync, so each is honoured and
# neither is dropped twice.  Since 6.18 favordynmods also switches
# cgroup.procs writes to per-threadgroup rwsems for good ("can't be
# disabled"), so the global rwsem's state is read through controller
# changes, which take it on every kernel (controls in cgroup-lib.sh).
# cgroup2 has no "nofavordynmods": a remount without the option clears it
# (with -t, or busybox keeps the options in force).
# append: user_booted_reported
. /ub/lib.sh
. /ub/cgroup-lib.sh

favordynmods on
favordynmods off
favordynmods on
echo 1 > $sysctl_path
controls 5
check "favordynmods set during boot still holds after it (saw $n)" [ "$n" -eq 0 ]
favordynmods off
controls 5
check "after boot, without favordynmods, controller changes wait again (saw $n)" [ "$n" -ge 5 ]
favordynmods on
favordynmods off
controls 5
check "remount toggles after boot stay balanced (saw $n)" [ "$n" -ge 5 ]
tap_done
