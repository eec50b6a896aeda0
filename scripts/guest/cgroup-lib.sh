# Helpers for the cgroup migration tests: source after lib.sh.
T=/sys/kernel/tracing
mkdir -p /sys/fs/cgroup && mount -t cgroup2 none /sys/fs/cgroup
mkdir /sys/fs/cgroup/a /sys/fs/cgroup/b
echo 'p:ub/sync synchronize_rcu' > $T/kprobe_events
echo 1 > $T/events/ub/sync/enable

# migrations N: move a sleeping task to a and back to b N times; set n to
# the synchronize_rcu() calls that took.  Not in a subshell: the writes must
# come from this shell ($$), so kworkers' calls are not counted.
migrations() {
	sleep 30 & pid=$!
	echo > $T/trace
	i=0
	while [ $i -lt "$1" ]; do
		# Spaced out, as a booting init's are: rcu_sync then idles in between.
		echo $pid > /sys/fs/cgroup/a/cgroup.procs
		sleep 0.1
		echo $pid > /sys/fs/cgroup/b/cgroup.procs
		sleep 0.1
		i=$((i + 1))
	done
	kill $pid
	# Only this shell's writes to cgroup.procs count, not kworkers'.
	n=$(grep -c -- "-$$ .* sync:" $T/trace)
}

favordynmods() {
	if [ "$1" = on ]; then
		mount -t cgroup2 -o remount,favordynmods none /sys/fs/cgroup
	else
		mount -t cgroup2 -o remount none /sys/fs/cgroup
	fi
}

