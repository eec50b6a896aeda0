# With user_booted_reported and no report, the fallback ends userspace boot
# after 20 s: the consumer gives up at the stock 10 s, before it; the
# supplier whose driver userspace loaded meanwhile is synced at the
# fallback (the later of the stock timeout and the end of boot); the unused
# regulator goes off at its stock 30 s, which comes after the fallback.
# append: user_booted_reported sysctl.kernel.user_booted_timeout=20 fw_devlink.sync_state=timeout
# kernels: 7.3 6.12
. /ub/lib.sh
. /ub/drivers-lib.sh

load_fixtures
expect_stock_give_up
check "while userspace still boots" not booted
load_late_supplier
check "the late supplier is bound" [ -e /sys/bus/platform/devices/ub-supplier/driver ]
check "its sync_state() waits while userspace boots" not supplier_synced
wait_until 15 booted
check "the fallback ended userspace boot" klog_has 'userspace boot ended (timeout)'
wait_until 5 supplier_synced
d=$(minus "$(synced_time)" "$(boot_end_time)")
# The kernel logs the end of boot after telling the subscribers, whose
# work may run first: -0.1 s counts as "right after".
check "fw_devlink forced the supplier's sync_state() right after the fallback ($d s)" \
	in_range "$d" -0.1 0.5
check "the unused regulator is still on (its stock 30 s have not passed)" \
	[ "$(regulator_state)" = enabled ]
wait_until 20 regulator_off
d=$(minus "$(regulator_off_time)" "$(launch_time)")
check "and was switched off 30 s after late init, as on stock ($d s after init launch)" \
	in_range "$d" 28 33
show_timeline
tap_done
