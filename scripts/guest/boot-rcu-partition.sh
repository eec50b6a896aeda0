# append: user_booted_reported user_booted_timeout=600
# A cpuset partition that isolates a CPU while userspace boots ends RCU's
# boot mode then: stock sends isolated CPUs no boot-time expedited IPIs
# after init launch.  CPU 1 runs a busy task; synchronize_rcu() comes from
# membarrier(GLOBAL); rcu_exp_handler() on CPU 1 counts the expedited
# IPIs it got.  First the control (the partition not yet isolated, boot
# mode on: IPIs), then the partition, then the report, which must not
# drop boot mode a second time.  (6.12 has no housekeeping_update(): its
# cpuset code calls the same hook.)
. /ub/lib.sh
. /ub/boot-rcu-lib.sh
cg=/sys/fs/cgroup
echo 'p:h1/exp_ipi rcu_exp_handler' >> $tracefs/kprobe_events
echo 'p:h1/exp_call synchronize_rcu_expedited' >> $tracefs/kprobe_events
echo 1 > $tracefs/events/h1/enable
# round: "IPIS OTHERS": expedited IPIs handled on CPU 1 during ten
# membarrier(GLOBAL), and synchronize_rcu_expedited() calls by other tasks
# meanwhile (an explicit caller IPIs CPU 1 on stock too).
round() {
	echo 0 > $tracefs/tracing_on; : > $tracefs/trace; echo 1 > $tracefs/tracing_on
	/ub/membarrier_lat 10 > /dev/null
	awk '/ exp_ipi: / && /\[001\]/ { n++ } / exp_call: / && !/membarrier_lat/ { o++ }
		END { print n + 0, o + 0 }' $tracefs/trace
}
check "RCU follows the report" rcu_announces "when userspace has booted"
mkdir -p $cg && mount -t cgroup2 none $cg && echo +cpuset > $cg/cgroup.subtree_control &&
	mkdir $cg/iso && echo 1 > $cg/iso/cpuset.cpus
sh -c "echo \$\$ > $cg/iso/cgroup.procs; while :; do :; done" &
busy=$!
sleep 3
read -r n0 o0 <<EOT
$(round)
EOT
check "control: while userspace boots, busy CPU 1 got $n0 expedited IPIs (at least 1)" [ "$n0" -ge 1 ]
echo isolated > $cg/iso/cpuset.cpus.partition
check "CPU 1 is an isolated partition ($(cat $cg/iso/cpuset.cpus.partition), isolated: $(cat $cg/cpuset.cpus.isolated))" \
	[ "$(cat $cg/iso/cpuset.cpus.partition)" = isolated -a "$(cat $cg/cpuset.cpus.isolated)" = 1 ]
check "userspace still boots" [ "$(cat $sysctl_path)" = 0 ]
# A round with another task's explicit expedited grace period is tried again.
for try in 1 2 3; do
	read -r n1 o1 <<EOT
$(round)
EOT
	[ "$o1" != 0 ] || break
done
check "isolated CPU 1 got $n1 expedited IPIs before the report (stock: 0; explicit callers: $o1)" \
	[ "$n1" = 0 -a "$o1" = 0 ]
rcu_check_mode follows=0
echo 1 > $sysctl_path
check "the report ended userspace boot" [ "$(boot_end_line | grep -c '(reported)')" = 1 ]
rcu_check_mode follows=0
kill $busy
tap_done
