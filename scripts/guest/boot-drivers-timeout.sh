# With user_booted_reported and no report, the fallback ends userspace boot
# after 20 s: the consumer gives up at the stock 10 s, before it; fw_devlink
# holds the forced sync_state() of the supplier bound before the
# deferred-probe timeout until the fallback (the later of the stock timeout
# and the end of boot); the supplier whose driver userspace loads after the
# timeout is not forced, as on stock; the unused regulator goes off at its
# stock 30 s, which come after the fallback.
# append: user_booted_reported user_booted_timeout=20 fw_devlink.sync_state=timeout
# backports: no (make test: the regulator and driver-core patches are the
# same code there; boot-drivers-reported runs it on each backport)
# kernels: 7.3 6.12
. /ub/lib.sh
. /ub/drivers-lib.sh

load_fixtures
expect_stock_give_up
check "while userspace still boots" not booted
wait_until 3 held
check "fw_devlink held the forced sync_state() at the deferred-probe timeout" held
check "the early supplier's sync_state() waits while userspace boots" not early_synced
load_late_supplier
wait_until 15 booted
check "the fallback ended userspace boot" klog_has 'userspace boot ended (timeout)'
wait_until 10 early_synced
d=$(minus "$(early_synced_time)" "$(boot_end_time)")
# The kernel logs the end of boot after telling the subscribers, whose
# work may run first: -0.1 s counts as "right after".
check "fw_devlink forced the early supplier's sync_state() right after the fallback ($d s)" \
	in_range "$d" -0.1 5
sleep 1
check "the late supplier's sync_state() was not forced (bound after the deferred-probe timeout, as on stock)" \
	not supplier_synced
# Still on, or (a starved guest got here late) switched off not before its
# stock 30 s.
check "the unused regulator was not switched off at the fallback (its stock 30 s had not passed)" \
	eval '[ "$(regulator_state)" = enabled ] ||
		in_range "$(minus "$(regulator_off_time)" "$(launch_time)")" 28 1e9'
wait_until 20 regulator_off
d=$(minus "$(regulator_off_time)" "$(launch_time)")
check "and was switched off 30 s after late init, as on stock ($d s after init launch)" \
	in_range "$d" 28 40
sleep 1
check "ub-late, registered before the stock 30 s, went off with it, as on stock" \
	[ "$(regulator_state ub-late)" = disabled ]
show_timeline
tap_done
