# Guest side of "make bench" (bench/run.sh), workload 5's microbenchmark:
# what fork+exit costs while userspace boots and after, in one boot.
# bench.fork=N fork+exit pairs per phase (bench_guest forkexit), after a
# warm-up.  Phase "before" runs while userspace boots (booted with
# user_booted_reported, so the cgroup subscriber holds
# cgroup_threadgroup_rwsem's readers on the slow path); then "1" is written
# to kernel.user_booted and phase "after" runs.  Booted without the
# parameter (stock; or stock with cgroup_favordynmods=1) nothing is written
# and both phases run in the same mode: that controls for the order.
# Prints "BENCH ..." lines for the host.  Not a "make test" suite.
n=2000
for arg in $(cat /proc/cmdline); do
	case $arg in bench.fork=*) n=${arg#*=} ;; esac
done
bad() { echo "BENCH error=$*"; exit 1; }

booted=$(cat /proc/sys/kernel/user_booted) || bad "no kernel.user_booted"
echo "BENCH setup booted_at_start=$booted fork_n=$n"
bench_guest forkexit 500 >/dev/null || bad "warm-up"
out=$(bench_guest forkexit "$n") || bad "forkexit before"
echo "BENCH before $out"
if [ "$booted" = 0 ]; then
	echo 1 >/proc/sys/kernel/user_booted || bad "report"
fi
[ "$(cat /proc/sys/kernel/user_booted)" = 1 ] || bad "still booting"
out=$(bench_guest forkexit "$n") || bad "forkexit after"
echo "BENCH after $out"
dmesg | grep -E 'user_booted: |rcu: userspace boot' | sed 's/^/BENCH dmesg /'
exit 0
