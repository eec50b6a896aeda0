# Init reports 45 s after launch (a slow disk, a passphrase prompt).  The
# consumer gives up on its optional supplier at the stock 10 s, while
# userspace still boots: no device waits longer than stock.  The cleanup
# waits: the unused regulator stays on past its stock 30 s, and fw_devlink
# forces sync_state() of the supplier whose driver userspace loaded at 13 s
# at the report, not at the stock timeout.  A container's init (child PID
# namespace) cannot end the host's boot meanwhile.
# append: user_booted_reported fw_devlink.sync_state=timeout
# kernels: 7.3 6.12
. /ub/lib.sh
. /ub/drivers-lib.sh

load_fixtures
expect_stock_give_up
check "while userspace still boots" not booted
past_stock_timeout
load_late_supplier
check "the late supplier is bound" [ -e /sys/bus/platform/devices/ub-supplier/driver ]
check "the supplier's sync_state() waits while userspace boots" not supplier_synced
check "a child PID namespace can be made here" unshare -p -f true
err=$(unshare -p -f sh -c "echo 1 > $sysctl_path" 2>&1)
check "a write from a child PID namespace is refused: $err" \
	eval 'echo "$err" | grep -q "Operation not permitted"'
check "and userspace boot goes on" not booted
sleep_until "$(awk -v t="$(launch_time)" 'BEGIN { print t + 35 }')"
check "35 s after init launch, past its stock 30 s, the unused regulator is still on" \
	[ "$(regulator_state)" = enabled ]
check "and the supplier's sync_state() still waits" not supplier_synced
sleep_until "$(awk -v t="$(launch_time)" 'BEGIN { print t + 45 }')"
mark "reporting"
echo 1 > $sysctl_path
wait_until 5 regulator_off
d=$(minus "$(regulator_off_time)" "$(klog_time 'ub: reporting')")
check "the unused regulator was switched off right after the report ($d s)" in_range "$d" 0 0.5
wait_until 5 supplier_synced
d=$(minus "$(synced_time)" "$(klog_time 'ub: reporting')")
check "fw_devlink forced the supplier's sync_state() right after the report ($d s)" in_range "$d" 0 0.5
rmmod user_booted_supplier
rmmod user_booted_consumer
modprobe user_booted_consumer
check "a consumer loaded after the report goes on without its supplier at once" \
	outcome_is "without supplier"
show_timeline
tap_done
