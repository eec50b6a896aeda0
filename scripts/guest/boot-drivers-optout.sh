# The admin's own choices win over user_booted_reported: an explicit
# deferred_probe_timeout=5 keeps its timer while userspace boots, and
# regulator_ignore_unused leaves the unused regulator on after the report.
# append: user_booted_reported deferred_probe_timeout=5 regulator_ignore_unused
# kernels: 7.3 6.12
. /ub/lib.sh
. /ub/drivers-lib.sh

load_fixtures
wait_until 10 not_deferred
d=$(minus "$(gave_up_time)" "$t_consumer")
check "deferred_probe_timeout=5: the consumer gave up after 5 s ($d s) though userspace still boots" \
	in_range "$d" 4.5 6.5
check "userspace was still booting then" not booted
echo 1 > $sysctl_path
sleep 2
check "regulator_ignore_unused: the unused regulator stays on after the report" \
	[ "$(regulator_state)" = enabled ]
check "and the regulator core says so" klog_has 'Not disabling unused regulators'
show_timeline
tap_done
