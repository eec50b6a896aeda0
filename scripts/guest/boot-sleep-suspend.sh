# append: user_booted_reported user_booted_timeout=600 no_console_suspend
# A suspend to idle before init reports: userspace boot ends on
# PM_SUSPEND_PREPARE, reason "sleep", before the freezer runs, so nothing of
# it is carried through the sleep; afterwards the subscribers behave as after
# any finished boot.  A pm_test suspend (devices suspended, woken after 5 s):
# under QEMU TCG the CMOS RTC's alarm did not wake a real suspend to idle.
. /ub/lib.sh
. /ub/boot-rcu-lib.sh
# The line numbers in the kernel log of the first lines matching each regex.
klog_line() { dmesg | grep -n -m1 -E "$1" | cut -d: -f1; }

modprobe user_booted_subscriber
check "userspace boots: kernel.user_booted reads 0" [ "$(cat $sysctl_path)" = 0 ]
rcu_check_mode
check "a pm_test suspend to idle" sh -c 'echo devices > /sys/power/pm_test && echo freeze > /sys/power/state'
entry=$(klog_line 'PM: suspend entry') end=$(klog_line 'user_booted: userspace boot ended \(sleep\)')
freeze=$(klog_line 'Freezing user space processes')
echo "# kernel log lines: suspend entry $entry, end of boot $end, freezer $freeze"
check "boot ended (sleep) after the suspend began and before the freezer ran" \
	[ -n "$entry" ] && [ -n "$end" ] && [ -n "$freeze" ] && [ "$entry" -lt "$end" ] && [ "$end" -lt "$freeze" ]
check "kernel.user_booted reads 1" [ "$(cat $sysctl_path)" = 1 ]
check "the subscriber was told once, reason sleep (4)" \
	[ "$(subscriber_param told):$(subscriber_param last_reason)" = 1:4 ]
rcu_check_mode
check "boot ended once" [ "$(dmesg | grep -c 'user_booted: userspace boot ended')" = 1 ]
check "the subscriber still told once" [ "$(subscriber_param told)" = 1 ]
rmmod user_booted_subscriber && modprobe user_booted_subscriber
check "a late subscriber is told at once, reason sleep" \
	[ "$(subscriber_param told):$(subscriber_param last_reason)" = 1:4 ]
check "writing 1 changes nothing" sh -c "echo 1 > $sysctl_path && [ \"\$(dmesg | grep -c 'user_booted: userspace boot ended')\" = 1 ]"
rcu_check_mode
tap_done
