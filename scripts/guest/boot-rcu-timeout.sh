# RCU drops boot mode when the fallback timeout ends boot, and the
# grace-period recipe reports the boot as ended by the timeout.
# append: user_booted_reported user_booted_timeout=3 trace_clock=mono trace_event=user_booted:user_booted kprobe_event=p:gpwait/rcu_in,synchronize_rcu;r64:gpwait/rcu_out,synchronize_rcu;p:gpwait/srcu_in,synchronize_srcu;r64:gpwait/srcu_out,synchronize_srcu;p:gpwait/rcuexp_in,synchronize_rcu_expedited;p:gpwait/srcuexp_in,synchronize_srcu_expedited
# backports: no (make test: the RCU patch differs on a backport only in its
# housekeeping check, which the isolcpus suites run there)
# flavour: qemu
. /ub/lib.sh
. /ub/boot-rcu-lib.sh
rcu_check_mode
i=0
while [ "$(cat $sysctl_path)" = 0 ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
check "timeout ended boot" [ "$(cat $sysctl_path)" = 1 ]
rcu_check_mode
check "the boot-waits recipe names the timeout" \
	sh -c "sh /ub/boot-rcu-waits.sh | grep -q '^userspace boot (ended: timeout)'"
tap_done
