# With user_booted_reported the regulator core and the driver core wait for
# the end of userspace boot instead of their timers: the consumer still
# defers at 13 s, binds to the supplier whose driver userspace loads then,
# and at the report the unused regulator is switched off and fw_devlink
# forces the supplier's sync_state() at once.  A driver loaded after the
# report finds deferred probing given up, as on a stock kernel after the
# timeout.  boot-drivers-stock.sh is the same boot without the parameter.
# append: user_booted_reported fw_devlink.sync_state=timeout
# kernels: 7.3 6.12
. /ub/lib.sh
. /ub/drivers-lib.sh

load_fixtures
past_stock_timeout
check "13 s after the consumer's driver registered it still defers ($(consumer_param deferrals) deferrals)" \
	outcome_is deferred
check "no deferred-probe timeout while userspace boots" \
	not klog_has 'deferred probe timeout'
load_late_supplier
wait_until 5 outcome_is "with supplier"
check "the late supplier is bound to its consumer" outcome_is "with supplier"
check "the unused regulator is still on while userspace boots" [ "$(regulator_state)" = enabled ]
check "the supplier's sync_state() waits for its idle consumer" not supplier_synced
sleep 1
mark "reporting"
echo 1 > $sysctl_path
wait_until 5 regulator_off
d=$(minus "$(regulator_off_time)" "$(klog_time 'ub: reporting')")
check "the unused regulator was switched off right after the report ($d s)" in_range "$d" 0 0.5
wait_until 5 supplier_synced
check "fw_devlink forced the supplier's sync_state() at the report" supplier_synced
check "nothing was left on the deferred list" \
	not klog_has 'deferred probe pending'
rmmod user_booted_supplier
rmmod user_booted_consumer
modprobe user_booted_consumer
check "a consumer loaded after the report goes on without its supplier at once" \
	outcome_is "without supplier"
show_timeline
tap_done
