# Guest side of "make bench" (bench/run.sh), workload 8: what fork+exit
# (and, with bench.migrate=M, a cgroup migration) costs while userspace boots
# and after, in one boot.
# bench.fork=N fork+exit pairs per phase (bench_guest forkexit), after a
# warm-up; bench.migrate=M round trips between two cgroups per phase, 100 ms
# apart (bench_guest migrate; 0: none).  Phase "before" runs while userspace boots
# (booted with user_booted_reported: RCU's boot mode; the cgroup subscriber
# of earlier runs held cgroup_threadgroup_rwsem's readers on the slow path
# then); then "1" is written
# to kernel.user_booted and phase "after" runs.  Booted without the
# parameter (stock; or stock with cgroup_favordynmods=1, which applies when
# cgroup2 is mounted: hence the mount, which workload 5's committed run,
# before workload 8, lacked) nothing is written and both phases run in the
# same mode: that controls for the order.
# Prints "BENCH ..." lines for the host.  Not a "make test" suite.
n=2000 m=0
for arg in $(cat /proc/cmdline); do
	case $arg in
	bench.fork=*) n=${arg#*=} ;;
	bench.migrate=*) m=${arg#*=} ;;
	esac
done
bad() { echo "BENCH error=$*"; exit 1; }

# phase NAME: the measurements of one phase.
phase() {
	out=$(bench_guest forkexit "$n") || bad "forkexit $1"
	echo "BENCH $1 $out"
	[ "$m" = 0 ] && return
	out=$(bench_guest migrate "$m" 100) || bad "migrate $1"
	echo "BENCH $1 $out"
}

booted=$(cat /proc/sys/kernel/user_booted) || bad "no kernel.user_booted"
echo "BENCH setup booted_at_start=$booted fork_n=$n migrate_n=$m"
mkdir -p /sys/fs/cgroup && mount -t cgroup2 none /sys/fs/cgroup || bad "cgroup2 mount"
bench_guest forkexit 500 >/dev/null || bad "warm-up"
phase before
if [ "$booted" = 0 ]; then
	echo 1 >/proc/sys/kernel/user_booted || bad "report"
fi
[ "$(cat /proc/sys/kernel/user_booted)" = 1 ] || bad "still booting"
phase after
dmesg | grep -E 'user_booted: |rcu: userspace boot' | sed 's/^/BENCH dmesg /'
exit 0
