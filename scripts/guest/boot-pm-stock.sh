# Without user_booted_reported the clk core and genpd clean up at late init,
# as they always did: the sample clocks and domains, on at boot and unused
# then, are off when init runs.  The consumer that userspace loads switches
# its clock and domain on again: the bounce that a display shows as a
# flicker, and what user_booted_reported avoids (boot-pm-reported.sh).
# append:
# flavour: qemu
# kernels: 7.3 6.12
. /ub/lib.sh
. /ub/drivers-lib.sh
. /ub/pm-lib.sh

check "userspace boot ended at init launch" booted
check "the clk core cleaned up at late init" klog_has 'clk: Disabling unused clocks$'
check "and did not wait for userspace" not klog_has 'clk: Disabling unused clocks when'
check "genpd cleaned up at late init" klog_has 'genpd: Disabling unused power domains$'
expect_late_init_cleanup
load_consumer
# bounced NAME OFF-LINE ON-LINE: switched off before its consumer was loaded,
# on again after.
bounced() {
	off=$(klog_time "$1: $2") on=$(klog_time "$1: $3")
	[ -n "$off" ] && [ -n "$on" ] && in_range "$t_consumer" "$off" "$on"
}
check "ub-gate-claimed bounced: switched off at late init, on again for its consumer" \
	bounced ub-gate-claimed disabling enabling
check "ub-pd-claimed bounced: powered off at late init, on again for its consumer" \
	bounced ub-pd-claimed 'powering off' 'powering on'
show_pm_timeline
tap_done
