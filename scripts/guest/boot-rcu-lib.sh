# RCU's mode, seen from userspace, for the boot-rcu-* suites (source after
# lib.sh).  What the user_booted_rcu KUnit module used to read inside the
# kernel: whether synchronize_rcu() is expedited (the rcu:rcu_synchronize
# tracepoint around one membarrier(GLOBAL), which calls it) and whether
# rcu_normal_after_boot has applied (/sys/kernel/rcu_normal).
tracefs=/sys/kernel/tracing

# rcu_sync_expedited: 1 or 0, as the tracepoint says of one synchronize_rcu().
rcu_sync_expedited() {
	[ -d $tracefs/events ] || mount -t tracefs nodev $tracefs || return
	echo 1 > $tracefs/events/rcu/rcu_synchronize/enable
	/ub/membarrier_lat 1 > /dev/null &
	pid=$!
	wait $pid
	echo 0 > $tracefs/events/rcu/rcu_synchronize/enable
	# Our own call, by PID: kworkers may wait too meanwhile, and the task's
	# name may show as "<...>" (ftrace saves names lazily).
	sed -n "s/.*-$pid *\[[0-9]*\] .* rcu_synchronize: rcu expedited=\([01]\) .*/\1/p" \
		$tracefs/trace | tail -n 1
}

# rcu_check_mode [admin_expedites=1] [follows=0] [normal_after_boot=1]:
# the boot's command line, as the suite knows it (defaults: no
# rcupdate.rcu_expedited=1, RCU follows user_booted, no
# rcu_normal_after_boot).  Checks RCU's mode for the phase the boot is in:
# expedited while userspace boots when RCU follows user_booted; otherwise
# (not following, or booted) expedited only by the admin's rcu_expedited,
# and normal grace periods exactly with rcu_normal_after_boot.  A missed
# drop of the boot-time nesting leaves it expedited after boot, and so
# does a doubled one (the count is then -1, nonzero).
rcu_check_mode() {
	admin_expedites=0 follows=1 normal_after_boot=0
	for a; do eval "$a"; done
	exp=$(rcu_sync_expedited) normal=$(cat /sys/kernel/rcu_normal)
	echo "# rcu:rcu_synchronize expedited=${exp:-(no event)}, rcu_normal=$normal"
	if [ "$(cat $sysctl_path)" = 0 ]; then
		phase="while userspace boots"
	else
		phase="after userspace boot"
	fi
	if [ "$phase" = "while userspace boots" ] && [ $follows = 1 ] &&
	   grep -qw user_booted_reported /proc/cmdline; then
		check "rcu: synchronize_rcu() expedited $phase" [ "$exp" = 1 ]
		return
	fi
	check "rcu: synchronize_rcu() expedited $phase: $admin_expedites (the admin's rcu_expedited)" \
		[ "$exp" = $admin_expedites ]
	check "rcu: rcu_normal $phase: $normal_after_boot (rcu_normal_after_boot)" \
		[ "$normal" = $normal_after_boot ]
}
