# sysctl.kernel.user_booted=1 on the command line ends userspace boot at
# init launch ("cmdline"): RCU's mode is stock after it, and the
# grace-period recipe has no userspace boot to account for.
# append: user_booted_reported sysctl.kernel.user_booted=1 trace_event=rcu:rcu_synchronize,user_booted:user_booted
# flavour: qemu
. /ub/lib.sh
. /ub/boot-rcu-lib.sh
check "boot ended at init launch" [ "$(cat $sysctl_path)" = 1 ]
rcu_check_mode
check "the user_booted event says cmdline" grep -q 'user_booted: reason=cmdline' $tracefs/trace
check "the boot-waits recipe prints nothing on a cmdline boot" \
	[ -z "$(sh /ub/boot-rcu-waits.sh)" ]
tap_done
