# Which callers did userspace boot wait for: the rcu:rcu_synchronize
# tracepoint, traced from the command line with stacks, and the recipe
# (boot-rcu-waits.sh, tools/rcu/rcu-boot-waits.sh in the kernel tree) that
# sums it.  membarrier(GLOBAL) calls synchronize_rcu() directly, so its
# syscall must be among the callers.  Then the recipe's rules on a made-up
# trace: top N by total wait, callers named past rcu_sync_enter() and
# percpu_down_write(), counted from init launch, silent on a cmdline boot.
# append: user_booted_reported trace_event=rcu:rcu_synchronize,user_booted:user_booted trace_options=stacktrace trace_buf_size=2M
. /ub/lib.sh
waits=/ub/boot-rcu-waits.sh
check "20 membarrier(GLOBAL) calls while userspace boots" /ub/membarrier_lat 20
echo 1 > $sysctl_path
mount -t tracefs nodev /sys/kernel/tracing
sh $waits > /tmp/waits
sed 's/^/# /' /tmp/waits
check "the recipe reports the end of boot: reported" grep -q '^userspace boot (ended: reported) waited for' /tmp/waits
check "the recipe names membarrier among the callers" \
	grep -qE '^  [0-9]+ waits, [0-9]+ us: .*membarrier' /tmp/waits
check "at least 20 waits counted for it, all expedited" \
	sh -c "sed -n 's/^  \([0-9]*\) waits, [0-9]* us: .*membarrier.*/\1/p' /tmp/waits | awk '\$1 >= 20 { ok = 1 } END { exit !ok }' &&
	       sed -n 's/.* grace periods, \([0-9]*\) expedited,.*/\1/p' /tmp/waits | awk '\$1 >= 20 { ok = 1 } END { exit !ok }'"
check "the tracepoint records stacks (stacktrace option)" grep -q '<stack trace>' /sys/kernel/tracing/trace

# A made-up trace: init launched at 10 s, boot reported at 20 s.
ev() { printf '%16s-%-7s [000] ..... %12s: %s\n' "$1" "$2" "$3" "$4"; }
{
	# Twenty callers seen first, each waiting little...
	for i in $(seq 1 20); do
		ev kworker/0:1 5 "11.$(printf %06d $i)" "rcu_synchronize: srcu expedited=1 wait_ns=1000 caller=early_$i+0x1/0x10"
	done
	# ...then the one that waited longest, behind percpu_down_write().
	for i in 1 2 3; do
		ev modprobe 90 "15.00000$i" "rcu_synchronize: rcu expedited=1 wait_ns=5000000 caller=rcu_sync_enter+0x5e/0x140"
		ev modprobe 90 "15.00000$i" "<stack trace>"
		printf ' => synchronize_rcu\n => rcu_sync_enter\n => percpu_down_write\n => cgroup_procs_write_start\n => __cgroup_procs_write\n'
	done
	# Before init launch: not counted; straddling it: only its part after.
	ev swapper/0 1 9.500000 "rcu_synchronize: rcu expedited=1 wait_ns=400000000 caller=before_launch+0x1/0x10"
	ev init 1 10.002000 "rcu_synchronize: rcu expedited=1 wait_ns=1000000000 caller=straddles_launch+0x1/0x10"
	ev kworker/1:0 7 20.000000 "user_booted: reason=reported since_launch_ns=10000000000"
	ev late 80 21.000000 "rcu_synchronize: rcu expedited=0 wait_ns=100000000 caller=after_boot+0x1/0x10"
} > /tmp/fake.trace
sh $waits -n 3 /tmp/fake.trace > /tmp/fake.out
sed 's/^/# /' /tmp/fake.out
check "recipe: totals counted from init launch to the report" \
	grep -q '^userspace boot (ended: reported) waited for 24 RCU/SRCU grace periods, 24 expedited, 17 ms in all; init waited for 1, 2 ms$' /tmp/fake.out
check "recipe: top caller by total wait, named past rcu_sync_enter/percpu_down_write" \
	sh -c "sed -n 2p /tmp/fake.out | grep -q '^  3 waits, 15000 us: cgroup_procs_write_start$'"
check "recipe: the part of a wait after init launch" \
	sh -c "sed -n 3p /tmp/fake.out | grep -q '^  1 waits, 2000 us: straddles_launch$'"
check "recipe: top N lines, no more" [ "$(wc -l < /tmp/fake.out)" = 4 ]
check "recipe: waits before launch and after boot not counted" \
	sh -c "! grep -qE 'before_launch|after_boot' /tmp/fake.out"
sed 's/reason=reported/reason=cmdline/' /tmp/fake.trace > /tmp/fake-cmdline.trace
check "recipe: nothing printed on a cmdline boot" [ -z "$(sh $waits /tmp/fake-cmdline.trace)" ]
sed 's/reason=reported/reason=unreported/' /tmp/fake.trace > /tmp/fake-unrep.trace
check "recipe: nothing printed on an unreported boot" [ -z "$(sh $waits /tmp/fake-unrep.trace)" ]
tap_done
