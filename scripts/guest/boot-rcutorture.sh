# rcutorture of each flavour the kernel has (tasks-rude needs
# CONFIG_TASKS_RUDE_RCU, which nothing here selects), with the report
# arriving mid-run of one: tasks, tasks-tracing and rcu run wholly while
# userspace boots, srcu sees the report mid-run (boot-rcutorture-timeout.sh:
# the fallback mid-run of rcu, the others after boot).  The fallback is
# pushed out of the way.
# append: user_booted_reported user_booted_timeout=600
# flavour: debug
. /ub/lib.sh
. /ub/boot-rcu-lib.sh
secs=${RCUTORTURE_SECS:-10}
for f in tasks tasks-tracing rcu; do
	torture_run $f "in boot mode"
done
torture_run srcu mid-run sh -c "echo 1 > $sysctl_path"
check "no splat in the kernel log" sh -c "! dmesg | grep -qE 'WARNING:|BUG:|possible .*locking|inconsistent lock|detected stall'"
tap_done
