# rcutorture of each flavour, with the fallback timeout arriving mid-run of
# rcu (loaded at once, the timeout 15 s after init launch), the other
# flavours after boot (boot-rcutorture.sh: the report mid-run, and the
# flavours while userspace boots).
# append: user_booted_reported user_booted_timeout=15
# flavour: debug
. /ub/lib.sh
. /ub/boot-rcu-lib.sh
secs=${RCUTORTURE_SECS:-10}
# wait_fallback: until the timeout has ended userspace boot (at most 60 s).
wait_fallback() {
	i=0
	while [ "$(cat $sysctl_path)" = 0 ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
	check "the fallback timeout ended userspace boot mid-run" \
		[ -n "$(boot_end_line | grep '(timeout)')" ]
}
torture_run rcu mid-run wait_fallback
for f in srcu tasks tasks-tracing; do
	torture_run $f "after boot"
done
check "no splat in the kernel log" sh -c "! dmesg | grep -qE 'WARNING:|BUG:|possible .*locking|inconsistent lock|detected stall'"
tap_done
