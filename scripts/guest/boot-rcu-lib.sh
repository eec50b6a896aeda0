# RCU's mode, seen from userspace, for the boot-rcu-* suites (source after
# lib.sh).  What the user_booted_rcu KUnit module used to read inside the
# kernel: whether synchronize_rcu() is expedited (kprobes on it and on
# synchronize_rcu_expedited() around one membarrier(GLOBAL), which calls it) and whether
# rcu_normal_after_boot has applied (/sys/kernel/rcu_normal).
tracefs=/sys/kernel/tracing

# rcu_sync_expedited: 1 or 0, as the kprobes say of one synchronize_rcu()
# (whether it entered synchronize_rcu_expedited()); nothing if none ran.
rcu_sync_expedited() {
	[ -d $tracefs/events ] || mount -t tracefs nodev $tracefs || return
	# Appended, and never removed: removing an event clears the trace
	# buffer, which holds the boot's own events (boot-rcu-waits.sh).
	if [ ! -d $tracefs/events/rcumode ]; then
		echo 'p:rcumode/sync synchronize_rcu' >> $tracefs/kprobe_events
		echo 'p:rcumode/exp synchronize_rcu_expedited' >> $tracefs/kprobe_events
	fi
	echo 1 > $tracefs/events/rcumode/enable
	/ub/membarrier_lat 1 > /dev/null &
	pid=$!
	wait $pid
	echo 0 > $tracefs/events/rcumode/enable
	# Our own call, by PID: kworkers may wait too meanwhile, and the task's
	# name may show as "<...>" (ftrace saves names lazily).
	awk -v pid="$pid" '$0 ~ "-" pid " +\\[[0-9]+\\] " && / (sync|exp): / {
		if (/ sync: /) { s = 1; r = 0 } else if (s) r = 1 }
		END { if (s) print r }' $tracefs/trace
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
	# The phase read before and after the probe: a boot that ended
	# meanwhile (a short fallback) is probed again.
	local before try
	for try in 1 2 3; do
		before=$(cat $sysctl_path)
		exp=$(rcu_sync_expedited) normal=$(cat /sys/kernel/rcu_normal)
		[ "$(cat $sysctl_path)" != "$before" ] || break
	done
	echo "# synchronize_rcu() expedited=${exp:-(no event)}, rcu_normal=$normal"
	if [ "$before" = 0 ]; then
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

# The line RCU prints among its boot-up oddities when a report is expected:
# rcu_announces "at init launch" or "when userspace has booted".
rcu_announces() {
	dmesg | grep -q "Boot-time expediting ends $1 (rcu_user_booted_always)\.$"
}

# torture_run FLAVOUR PHASE [MIDRUN...]: rcutorture of one torture_type for
# $secs seconds, in one PHASE of the boot: "in boot mode" (loaded and
# unloaded while userspace boots), "mid-run" (MIDRUN, run halfway, ends
# userspace boot) or "after boot".  Checks rcutorture's own verdict, and
# its writer's view of boot mode: it cycles rcu_expedite_gp() only once
# boot-time expediting is over, and says at the end if it never could.
torture_run() {
	f=$1 phase=$2
	shift 2
	booted=1 disabled=0
	[ "$phase" = "after boot" ] || booted=0
	[ "$phase" = "in boot mode" ] && disabled=1
	check "$f: rcutorture loads $phase (kernel.user_booted=$booted)" \
		sh -c "modprobe rcutorture torture_type=$f && [ \$(cat $sysctl_path) = $booted ]"
	sleep $((secs / 2))
	[ $# -eq 0 ] || "$@"
	[ "$phase" = "mid-run" ] && booted=1
	sleep $((secs / 2))
	check "$f: kernel.user_booted=$booted before the unload" [ "$(cat $sysctl_path)" = $booted ]
	rmmod rcutorture
	check "$f: rcutorture's verdict: End of test: SUCCESS" \
		sh -c "dmesg | grep -q '\] $f-torture:--- End of test: SUCCESS'"
	n=$(dmesg | grep -c "\] $f-torture: Dynamic grace-period expediting was disabled")
	check "$f: the writer found expediting disabled throughout: $disabled" [ "$n" = $disabled ]
}
