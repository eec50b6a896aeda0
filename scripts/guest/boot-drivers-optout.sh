# The admin's own choices stay theirs with user_booted_reported:
# deferred_probe_timeout=5 gives up on the missing supplier after 5 s while
# userspace still boots (every value keeps its stock timing), and
# regulator_ignore_unused leaves the unused regulator on when its cleanup
# comes: at 30 s after late init, after the early report.  A write of 1
# to the state_synced of the supplier fw_devlink holds at that timeout
# (fw_devlink.sync_state=timeout) calls its sync_state() at once, and
# the report forces nothing more.
# append: user_booted_reported deferred_probe_timeout=5 regulator_ignore_unused fw_devlink.sync_state=timeout
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
wait_until 3 held
check "fw_devlink held the early supplier's forced sync_state() (state_synced $(early_state_synced))" \
	eval 'not early_synced && [ "$(early_state_synced)" = 0 ]'
# The attribute takes "1" exactly, without a newline.
printf 1 > /sys/bus/platform/devices/ub-early/state_synced
check "a write of 1 to its state_synced called its sync_state() at once" early_synced
check "which now reads 1" [ "$(early_state_synced)" = 1 ]
echo 1 > $sysctl_path
sleep 2
check "the report forced nothing more: one sync_state(), no forcing logged" \
	eval '[ "$(dmesg | grep -c "ub-early: sync_state")" = 1 ] && [ "$(early_forced_lines)" = 0 ]'
sleep_until "$(awk -v t="$(launch_time)" 'BEGIN { print t + 28 }')"
wait_until 15 klog_has 'Not disabling unused regulators'
d=$(minus "$(klog_time 'Not disabling unused regulators')" "$(launch_time)")
check "the regulator core's cleanup came 30 s after late init, not at the early report ($d s after init launch)" \
	in_range "$d" 28 40
check "regulator_ignore_unused: the unused regulator stays on after it" \
	[ "$(regulator_state)" = enabled ]
show_timeline
tap_done
