# Init reports 45 s after launch (a slow disk, a passphrase prompt).  The
# consumer gives up on its optional supplier at the stock 10 s, while
# userspace still boots: no device waits longer than stock.  The cleanup
# waits, and only for what was there at the stock deadlines: the unused
# regulator stays on past its stock 30 s, and fw_devlink holds the forced
# sync_state() of the supplier bound before the deferred-probe timeout,
# both until the report: its state_synced reads 0 meanwhile, fw_devlink
# logs forcing it at the report, not at the timeout, and forces it then
# though it was unbound and bound again meanwhile (as stock forced it at
# the timeout).  The supplier whose driver userspace loads at
# 35 s, after both deadlines, is left as stock leaves it: its sync_state()
# is not forced and its regulator stays on.  A container's init (child PID
# namespace) cannot end the host's boot meanwhile.
# append: user_booted_reported fw_devlink.sync_state=timeout
# kernels: 7.3 6.12
. /ub/lib.sh
. /ub/drivers-lib.sh

load_fixtures
expect_stock_give_up
check "while userspace still boots" not booted
wait_until 3 held
check "fw_devlink held the forced sync_state() at the deferred-probe timeout" held
check "the early supplier's sync_state() waits while userspace boots" not early_synced
check "its state_synced reads 0: its sync_state() has not run" [ "$(early_state_synced)" = 0 ]
check "fw_devlink has not logged forcing it" [ "$(early_forced_lines)" = 0 ]
check "a child PID namespace can be made here" unshare -p -f true
err=$(unshare -p -f sh -c "echo 1 > $sysctl_path" 2>&1)
check "a write from a child PID namespace is refused: $err" \
	eval 'echo "$err" | grep -q "Operation not permitted"'
check "and userspace boot goes on" not booted
sleep_until "$(awk -v t="$(launch_time)" 'BEGIN { print t + 35 }')"
check "35 s after init launch, past its stock 30 s, the unused regulator is still on" \
	[ "$(regulator_state)" = enabled ]
check "and the early supplier's sync_state() still waits" not early_synced
echo ub-early > /sys/bus/platform/drivers/ub-early/unbind
check "the held early supplier can be unbound" [ ! -e /sys/bus/platform/devices/ub-early/driver ]
echo ub-early > /sys/bus/platform/drivers/ub-early/bind
check "and bound again before the report" [ -e /sys/bus/platform/devices/ub-early/driver ]
check "still without its sync_state() (state_synced $(early_state_synced), $(early_forced_lines) forcing lines)" \
	eval 'not early_synced && [ "$(early_state_synced)" = 0 ] && [ "$(early_forced_lines)" = 0 ]'
load_late_supplier
sleep_until "$(awk -v t="$(launch_time)" 'BEGIN { print t + 45 }')"
mark "reporting"
echo 1 > $sysctl_path
wait_until 10 regulator_off
d=$(minus "$(regulator_off_time)" "$(klog_time 'ub: reporting')")
check "the unused regulator was switched off right after the report ($d s)" in_range "$d" 0 5
wait_until 10 early_synced
d=$(minus "$(early_synced_time)" "$(klog_time 'ub: reporting')")
check "fw_devlink forced the early supplier's sync_state() right after the report, bound again ($d s)" in_range "$d" 0 5
# Not $d in an eval: check() sets d to its description.
lag=$(minus "$(klog_time 'ub-early: Timed out. Forcing sync_state()')" "$(klog_time 'ub: reporting')")
check "and logged forcing it once, after the report ($lag s)" \
	eval '[ "$(early_forced_lines)" = 1 ] && in_range "$lag" 0 5'
check "its state_synced reads 1" [ "$(early_state_synced)" = 1 ]
sleep 2
check "the late supplier's sync_state() was not forced (bound after the deferred-probe timeout, as on stock)" \
	not supplier_synced
check "its regulator ub-late is still on (registered after the stock 30 s, as on stock)" \
	[ "$(regulator_state ub-late)" = enabled ]
rmmod user_booted_supplier
rmmod user_booted_consumer
modprobe user_booted_consumer
check "a consumer loaded after the report goes on without its supplier at once" \
	outcome_is "without supplier"
show_timeline
tap_done
