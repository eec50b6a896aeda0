# make run: a tiny "userspace boot" that reports its end to the kernel.
# Booted with user_booted_reported: the kernel waits for this script.
# append: user_booted_reported trace_event=rcu:rcu_synchronize,user_booted:user_booted trace_options=stacktrace trace_buf_size=2M
# flavour: qemu
. /ub/lib.sh
say() { echo "demo: $*"; }

say "init launched; kernel.user_booted=$(cat $sysctl_path), fallback timeout $(cat ${sysctl_path}_timeout) s"
modprobe user_booted_subscriber && say "loaded a subscriber before the end of boot"
say "userspace boot: some work, here synchronize_rcu() via membarrier(GLOBAL)"
during=$(membarrier_lat 30) && say "  during boot: $during"
say "reporting: echo 1 > $sysctl_path"
echo 1 > $sysctl_path
check "kernel.user_booted reads 1 after the report" [ "$(cat $sysctl_path)" = 1 ]
check "subscriber told exactly once" [ "$(subscriber_param told)" = 1 ]
check "subscriber told the reason: reported" [ "$(subscriber_param last_reason)" = 3 ]
after=$(membarrier_lat 30) && say "  after boot:  $after"
rmmod user_booted_subscriber
modprobe user_booted_subscriber && say "loaded a subscriber after the end of boot"
check "late subscriber told at once, reason reported" \
	[ "$(subscriber_param told):$(subscriber_param last_reason)" = 1:3 ]

echo
echo "== timeline (kernel log) =="
dmesg | grep -E 'Run /init as init process|user_booted(_subscriber)?: ' | sed 's/^/  /'
echo
echo "== grace-period waits of userspace boot (rcu:rcu_synchronize, tools/rcu/rcu-boot-waits.sh) =="
# The guest's init has mounted tracefs.
[ -e /sys/kernel/tracing/trace ] || mount -t tracefs nodev /sys/kernel/tracing
sh /ub/boot-rcu-waits.sh -n 5 | sed 's/^/  /'
tap_done
