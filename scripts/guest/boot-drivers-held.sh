# What becomes of a supplier fw_devlink holds at the deferred-probe timeout
# (5 s here) before the report, other than being forced at it: ub-early2,
# deleted while held, leaves the hold (no list corruption: lockdep, KASAN
# and list debugging on the debug kernel), and is never synced; ub-early,
# whose consumers all probe while it is held (the late supplier's driver
# and then ub-idle's are loaded), gets its sync_state() then, from its
# consumers, as without the report: its state_synced reads 1, nothing is
# forced or logged as forced, before or after the report.
# append: user_booted_reported deferred_probe_timeout=5 fw_devlink.sync_state=timeout
# backports: no (make test: the driver-core patch is the same code there;
# boot-drivers-reported runs it on each backport)
# kernels: 7.3 6.12
. /ub/lib.sh
. /ub/drivers-lib.sh

params=/sys/module/user_booted_consumer/parameters
load_fixtures early2=Y
check "the second early supplier is bound" [ -e /sys/bus/platform/devices/ub-early2/driver ]
wait_until 12 held
check "fw_devlink held ub-early's forced sync_state() at the deferred-probe timeout" held
check "and ub-early2's" klog_has 'ub-early2: Timed out. sync_state() held until userspace has booted'
check "while userspace still boots" not booted
echo Y > $params/delete_early2
check "ub-early2, held, was deleted" [ ! -e /sys/bus/platform/devices/ub-early2 ]
load_late_supplier
check "ub-early still waits: its consumer ub-idle has no driver" \
	eval 'not early_synced && [ "$(early_state_synced)" = 0 ]'
echo Y > $params/idle_driver
wait_until 5 early_synced
check "ub-idle's driver bound it" klog_has 'ub-idle: bound'
check "ub-early got its sync_state() from its consumers, before the report" \
	eval 'early_synced && not booted'
check "its state_synced reads 1" [ "$(early_state_synced)" = 1 ]
check "the late supplier got its sync_state() from its consumer too, as on stock" supplier_synced
echo 1 > $sysctl_path
sleep 2
check "the report forced nothing: no forcing logged, one sync_state() of ub-early, none of ub-early2" \
	eval '[ "$(dmesg | grep -c "Timed out. Forcing sync_state()")" = 0 ] &&
		[ "$(dmesg | grep -c "ub-early: sync_state")" = 1 ] &&
		[ "$(cat $params/early2_synced)" = N ]'
rmmod user_booted_supplier
rmmod user_booted_consumer
check "the fixtures unload" not grep -q '^user_booted_consumer ' /proc/modules
show_timeline
tap_done
