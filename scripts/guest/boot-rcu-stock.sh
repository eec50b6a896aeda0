# Without user_booted_reported RCU is stock: boot mode ended at init launch,
# and the grace-period recipe has no userspace boot to account for.
# append: trace_event=rcu:rcu_synchronize,user_booted:user_booted
# flavour: qemu
. /ub/lib.sh
. /ub/boot-rcu-lib.sh
check "boot ended at init launch" [ "$(cat $sysctl_path)" = 1 ]
rcu_check_mode
check "the boot-waits recipe prints nothing on an unreported boot" \
	[ -z "$(sh /ub/boot-rcu-waits.sh)" ]
tap_done
