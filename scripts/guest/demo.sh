# make run: a tiny "userspace boot" that reports its end to the kernel.
# Booted with user_booted_reported: the kernel waits for this script.
# append: user_booted_reported trace_clock=mono trace_event=user_booted:user_booted trace_options=stacktrace trace_buf_size=2M kprobe_event=p:gpwait/rcu_in,synchronize_rcu;r64:gpwait/rcu_out,synchronize_rcu;p:gpwait/srcu_in,synchronize_srcu;r64:gpwait/srcu_out,synchronize_srcu;p:gpwait/rcuexp_in,synchronize_rcu_expedited;p:gpwait/srcuexp_in,synchronize_srcu_expedited
# backports: no (make test: the demo is the base kernel's)
# flavour: qemu
. /ub/lib.sh
say() { echo "demo: $*"; }

say "init launched; kernel.user_booted=$(cat $sysctl_path), fallback timeout $(cat ${sysctl_path}_timeout) s"
modprobe user_booted_sample && modprobe user_booted_subscriber &&
	say "loaded the sample and a counting subscriber before the end of boot"
say "userspace boot: some work, here synchronize_rcu() via membarrier(GLOBAL)"
during=$(membarrier_lat 30) && say "  during boot: $during"
say "reporting: echo 1 > $sysctl_path"
echo 1 > $sysctl_path
check "kernel.user_booted reads 1 after the report" [ "$(cat $sysctl_path)" = 1 ]
check "subscriber told exactly once" [ "$(subscriber_param told)" = 1 ]
check "subscriber told the reason: reported" [ "$(subscriber_param last_reason)" = 2 ]
check "the sample ended its boot mode once" \
	[ "$(dmesg | grep -c 'user_booted_sample: userspace has booted (reason 2)')" = 1 ]
after=$(membarrier_lat 30) && say "  after boot:  $after"
rmmod user_booted_subscriber
modprobe user_booted_subscriber && say "loaded a subscriber after the end of boot"
check "late subscriber told at once, reason reported" \
	[ "$(subscriber_param told):$(subscriber_param last_reason)" = 1:2 ]

# The guest's init has mounted tracefs.
[ -e /sys/kernel/tracing/trace ] || mount -t tracefs nodev /sys/kernel/tracing
sh /ub/boot-rcu-waits.sh -n 5 > /tmp/waits
# Checked here: make run prints the lines from the timeline on as they are.
check "the report names the membarrier calls" grep -q 'waits, [0-9]* us: .*membarrier' /tmp/waits

echo
echo "== timeline (kernel log) =="
dmesg | grep -E 'Run /init as init process|user_booted(_subscriber|_sample)?: ' | sed 's/^/  /'
echo
echo "== grace-period waits of userspace boot (kprobes on synchronize_rcu/srcu, boot-rcu-waits.sh) =="
sed 's/^/  /' /tmp/waits
tap_done
