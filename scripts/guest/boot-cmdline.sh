# append: user_booted_reported sysctl.kernel.user_booted=1 trace_event=user_booted:user_booted
# The report on the kernel command line: do_sysctl_args() writes it after
# rcu_end_inkernel_boot() and before init launch, and the write ends
# userspace boot at once, reason "reported", before init runs: exactly a
# boot without user_booted_reported from init's point of view.
. /ub/lib.sh
. /ub/boot-rcu-lib.sh
ev=$(grep 'user_booted: reason=' /sys/kernel/tracing/trace)
echo "# $ev"
# since_launch_ns=0: not launched yet; the task: PID 1 before it execs init.
check "the event: reason reported, by PID 1 before init launch" \
	sh -c "echo '$ev' | grep -q -- '-1 .* reason=reported since_launch_ns=0'"
check "boot ended once" [ "$(echo "$ev" | grep -c .)" = 1 ]
rcu_check_mode
. /ub/selftests-lib.sh
check "nothing logged at info level, as on a boot without the parameter" \
	not_in_log 'userspace boot ended'
run_selftest -f booted
