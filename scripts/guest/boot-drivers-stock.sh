# Without user_booted_reported the regulator core and the driver core keep
# today's timers: the deferred-probe timeout gives up on the missing
# supplier 10 s after the last driver registration, so the supplier whose
# driver userspace loads at 13 s is not used by its consumer, and the unused
# regulator is switched off 30 s after late init.  boot-drivers-reported.sh
# is the same boot with user_booted_reported.
# append: fw_devlink.sync_state=timeout
. /ub/lib.sh
. /ub/drivers-lib.sh

check "userspace boot ended at init launch" booted
load_fixtures
wait_until 15 not_deferred
d=$(minus "$(gave_up_time)" "$t_consumer")
check "the consumer gave up on its supplier 10 s after its driver registered (after $d s)" \
	in_range "$d" 9.5 11.5
past_stock_timeout
load_late_supplier
check "the late supplier is bound" [ -e /sys/bus/platform/devices/ub-supplier/driver ]
sleep 1
check "its consumer was bound without it" outcome_is "without supplier"
check "the supplier's sync_state() still waits (the timeout came before it)" not supplier_synced
wait_until 40 regulator_off
d=$(minus "$(regulator_off_time)" "$(launch_time)")
# Late init comes shortly before init launch; on a loaded TCG host the
# 30 s timer's work has been seen to run up to 1.5 s late.
check "the unused regulator was switched off 30 s after late init ($d s after init launch)" \
	in_range "$d" 28 33
show_timeline
tap_done
