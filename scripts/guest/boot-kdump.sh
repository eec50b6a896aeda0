# append: user_booted_reported user_booted_timeout=1 elfcorehdr=0x100000000 trace_event=user_booted:user_booted
# flavour: qemu
# kernels: 7.3
# A kdump capture kernel inherits the crashed kernel's command line, with
# user_booted_reported, and its makedumpfile initramfs never reports: it is
# treated as not reporting.  elfcorehdr= makes this boot one
# (is_kdump_kernel()); the header it names, past the guest's RAM, is no ELF,
# so /proc/vmcore is not set up and the boot goes on.  Boot ends at init
# launch, reason "unreported", nothing logged, no fallback armed (its 1 s
# passes without a warning), and RCU is stock.  (6.12's qemu kernel has no
# CRASH_DUMP: 7.3 only.)
. /ub/lib.sh
. /ub/boot-rcu-lib.sh
check "a kdump kernel: the kernel looked for the crashed one's ELF header, found none" \
	sh -c "dmesg | grep -q 'vmcore: not initialized' && [ ! -e /proc/vmcore ]"
check "userspace boot ended at init launch" [ "$(cat $sysctl_path)" = 1 ]
ev=$(grep "user_booted: reason=" $tracefs/trace)
echo "# $ev"
check "the event: reason unreported" \
	sh -c "echo '$ev' | grep -q 'reason=unreported'"
check "nothing logged at info level, as without the parameter" \
	not_in_log 'userspace boot ended'
rcu_check_mode follows=0
check "no fallback warning 3 s on" sh -c "sleep 3; ! dmesg | grep -q 'init did not report'"
tap_done
