# append: user_booted_reported user_booted_timeout=600 no_console_suspend ub.disk=384
# A real hibernation before init reports, to a swap disk, resumed the way an
# initramfs does (systemd-hibernate-resume writes MAJ:MIN to /sys/power/resume).
# Boot 1: userspace boot ends on PM_HIBERNATION_PREPARE ("sleep"), so the
# image holds a finished boot; the guest powers off.  Boot 2, the restore
# kernel, with the same command line: its own userspace boot ends on
# PM_RESTORE_PREPARE ("restore"), before the image takes over; the image's
# kernel then goes on as after a finished boot.
. /ub/lib.sh
. /ub/boot-rcu-lib.sh
if grep -qw ub.boot=2 /proc/cmdline; then
	echo "# the restore kernel: kernel.user_booted=$(cat $sysctl_path)"
	modprobe user_booted_subscriber
	# Its userspace boots: a failed precondition fails the run.
	[ "$(cat $sysctl_path)" = 0 ] || echo "UB-EXPECT: (the restore kernel's userspace was not booting)"
	echo 'UB-EXPECT: user_booted_subscriber: told userspace has booted \(reason 5\)'
	echo 'UB-EXPECT: user_booted: userspace boot ended \(restore\) .* after init launch, by '
	echo 'UB-EXPECT: ^ok .* - resumed from the image'
	echo "# restore kernel: writing $(cat /sys/class/block/vda/dev) to /sys/power/resume"
	cat /sys/class/block/vda/dev > /sys/power/resume
	not_ok "the restore kernel found an image to resume"
	exit 1
fi
mkswap /dev/vda > /dev/null && swapon /dev/vda
check "a swap disk" grep -q '^/dev/vda' /proc/swaps
modprobe user_booted_subscriber
check "userspace boots: kernel.user_booted reads 0" [ "$(cat $sysctl_path)" = 0 ]
rcu_check_mode
echo shutdown > /sys/power/disk
echo image > /tmp/marker
echo UB-REBOOT
if ! echo disk > /sys/power/state; then
	not_ok "hibernation"
	exit 1
fi
check "resumed from the image" [ "$(cat /tmp/marker)" = image ]
check "the image kernel: boot ended before the snapshot, reason sleep" \
	[ "$(dmesg | grep -c 'user_booted: userspace boot ended (sleep)')" = 1 ]
check "the image kernel: kernel.user_booted reads 1" [ "$(cat $sysctl_path)" = 1 ]
got="$(dmesg | grep -c 'user_booted: userspace boot ended'):$(subscriber_param told):$(subscriber_param last_reason)"
check "the image kernel: boot ended once, the subscriber told once, reason sleep ($got)" [ "$got" = 1:1:4 ]
rmmod user_booted_subscriber && modprobe user_booted_subscriber
check "the image kernel: a late subscriber is told at once" \
	[ "$(subscriber_param told):$(subscriber_param last_reason)" = 1:4 ]
rcu_check_mode
swapoff /dev/vda
tap_done
