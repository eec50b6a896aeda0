# sysctl.kernel.user_booted=1 on the command line ends userspace boot
# before init launch (reason "reported", since_launch_ns=0): RCU's mode is
# stock after it, and the grace-period recipe has no userspace boot to
# account for.
# append: user_booted_reported sysctl.kernel.user_booted=1 trace_clock=mono trace_event=user_booted:user_booted kprobe_event=p:gpwait/rcu_in,synchronize_rcu;r64:gpwait/rcu_out,synchronize_rcu;p:gpwait/srcu_in,synchronize_srcu;r64:gpwait/srcu_out,synchronize_srcu;p:gpwait/rcuexp_in,synchronize_rcu_expedited;p:gpwait/srcuexp_in,synchronize_srcu_expedited
# backports: no (make test: the RCU patch differs on a backport only in its
# housekeeping check, which the isolcpus suites run there)
# flavour: qemu
. /ub/lib.sh
. /ub/boot-rcu-lib.sh
check "boot ended at init launch" [ "$(cat $sysctl_path)" = 1 ]
rcu_check_mode
check "the user_booted event: reported before init launch" \
	grep -q 'user_booted: reason=reported since_launch_ns=0$' $tracefs/trace
check "the boot-waits recipe prints nothing on a boot ended before launch" \
	[ -z "$(sh /ub/boot-rcu-waits.sh)" ]
tap_done
