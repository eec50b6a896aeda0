# The admin's own choices stay theirs with user_booted_reported:
# deferred_probe_timeout=5 gives up on the missing supplier after 5 s while
# userspace still boots (every value keeps its stock timing), and
# regulator_ignore_unused leaves the unused regulator on when its cleanup
# comes: at 30 s after late init, after the early report.
# append: user_booted_reported deferred_probe_timeout=5 regulator_ignore_unused
# backports: no (make test: the regulator and driver-core patches are the
# same code there; boot-drivers-reported runs it on each backport)
# flavour: qemu
# kernels: 7.3 6.12
. /ub/lib.sh
. /ub/drivers-lib.sh

load_fixtures
wait_until 10 not_deferred
d=$(minus "$(gave_up_time)" "$t_consumer")
check "deferred_probe_timeout=5: the consumer gave up after 5 s ($d s) though userspace still boots" \
	in_range "$d" 4.5 9
check "userspace was still booting then" not booted
echo 1 > $sysctl_path
sleep_until "$(awk -v t="$(launch_time)" 'BEGIN { print t + 28 }')"
wait_until 15 klog_has 'Not disabling unused regulators'
d=$(minus "$(klog_time 'Not disabling unused regulators')" "$(launch_time)")
check "the regulator core's cleanup came 30 s after late init, not at the early report ($d s after init launch)" \
	in_range "$d" 28 40
check "regulator_ignore_unused: the unused regulator stays on after it" \
	[ "$(regulator_state)" = enabled ]
show_timeline
tap_done
