# With user_booted_reported and no report, the fallback ends userspace boot
# after 10 s: the unused clock and domain stay on until then and go off
# right after it; the claimed ones stay on.
# append: user_booted_reported sysctl.kernel.user_booted_timeout=10
# kernels: 7.3 6.12
. /ub/lib.sh
. /ub/drivers-lib.sh
. /ub/pm-lib.sh

load_consumer
check "ub-gate-unclaimed is on while userspace boots (clk_summary: $(clk_hw ub-gate-unclaimed))" \
	clk_on ub-gate-unclaimed
check "ub-pd-unclaimed is on while userspace boots (pm_genpd_summary: $(pd_status ub-pd-unclaimed))" \
	pd_on ub-pd-unclaimed
wait_until 20 booted
check "the fallback ended userspace boot" klog_has 'userspace boot ended (timeout)'
wait_until 5 pd_off ub-pd-unclaimed
check "ub-gate-unclaimed is off (clk_summary: $(clk_hw ub-gate-unclaimed))" clk_off ub-gate-unclaimed
d=$(minus "$(clk_off_time ub-gate-unclaimed)" "$(launch_time)")
check "it went off at the fallback, 10 s after init launch ($d s)" in_range "$d" 9.9 11.5
check "ub-pd-unclaimed is off (pm_genpd_summary: $(pd_status ub-pd-unclaimed))" pd_off ub-pd-unclaimed
d=$(minus "$(pd_off_time ub-pd-unclaimed)" "$(launch_time)")
check "it went off at the fallback ($d s after init launch)" in_range "$d" 9.9 11.5
check "ub-gate-claimed stays on" clk_on ub-gate-claimed
check "ub-pd-claimed stays on" pd_on ub-pd-claimed
expect_never_cut
show_pm_timeline
tap_done
