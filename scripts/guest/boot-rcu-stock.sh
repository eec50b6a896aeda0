# Without user_booted_reported RCU is stock: boot mode ended at init launch,
# and the grace-period recipe has no userspace boot to account for.
# append: trace_clock=mono trace_event=user_booted:user_booted kprobe_event=p:gpwait/rcu_in,synchronize_rcu;r64:gpwait/rcu_out,synchronize_rcu;p:gpwait/srcu_in,synchronize_srcu;r64:gpwait/srcu_out,synchronize_srcu;p:gpwait/rcuexp_in,synchronize_rcu_expedited;p:gpwait/srcuexp_in,synchronize_srcu_expedited
# backports: no (make test: the RCU patch differs on a backport only in its
# housekeeping check, which the isolcpus suites run there)
# flavour: qemu
. /ub/lib.sh
. /ub/boot-rcu-lib.sh
check "boot ended at init launch" [ "$(cat $sysctl_path)" = 1 ]
rcu_check_mode
check "the boot-waits recipe prints nothing on an unreported boot" \
	[ -z "$(sh /ub/boot-rcu-waits.sh)" ]
tap_done
