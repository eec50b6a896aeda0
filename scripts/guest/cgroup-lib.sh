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


# controls N: with a task in a, enable and disable the pids controller for
# the root's children N times; set n to the synchronize_rcu() calls that
# took.  Each change migrates a's tasks under the global
# cgroup_threadgroup_rwsem, also where favordynmods has switched
# cgroup.procs writes to per-threadgroup rwsems (6.18+), so it sees the
# global rwsem's rcu_sync state on every kernel.
controls() {
	sleep 30 & pid=$!
	echo $pid > /sys/fs/cgroup/a/cgroup.procs
	sleep 0.2
	echo > $T/trace
	i=0
	while [ $i -lt "$1" ]; do
		echo +pids > /sys/fs/cgroup/cgroup.subtree_control
		sleep 0.1
		echo -pids > /sys/fs/cgroup/cgroup.subtree_control
		sleep 0.1
		i=$((i + 1))
	done
	kill $pid
	n=$(grep -c -- "-$$ .* sync:" $T/trace)
}
