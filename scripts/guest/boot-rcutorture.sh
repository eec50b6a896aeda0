# rcutorture with boot mode held, the report arriving mid-run: no splat.
# append: user_booted_reported rcutorture.torture_type=rcu rcutorture.shutdown_secs=0
# flavour: debug
. /ub/lib.sh
secs=${RCUTORTURE_SECS:-60}
check "rcutorture loads while userspace boots" modprobe rcutorture
sleep $((secs / 2))
echo 1 > $sysctl_path
check "report mid-run ends boot" [ "$(cat $sysctl_path)" = 1 ]
sleep $((secs / 2))
rmmod rcutorture
check "rcutorture: End of test: SUCCESS" sh -c "dmesg | grep -q 'End of test: SUCCESS'"
check "no splat in the kernel log" sh -c "! dmesg | grep -qE 'WARNING:|BUG:|possible .*locking|inconsistent lock|detected stall'"
tap_done
