# Init reports 3 s after the consumer module is loaded.  Until then every
# sample clock and domain stays on, past the late init where a stock kernel
# cuts them (boot-pm-stock.sh); the consumer loaded meanwhile keeps its
# clock and domain on for good, never bounced; the unclaimed clock goes off
# before the report's write returns and the unclaimed domain right after.
# append: user_booted_reported
# kernels: 7.3 6.12
. /ub/lib.sh
. /ub/drivers-lib.sh
. /ub/pm-lib.sh

check "the clk core waits for userspace" klog_has 'clk: Disabling unused clocks when userspace has booted'
check "genpd waits for userspace" klog_has 'genpd: Disabling unused power domains when userspace has booted'
check "while userspace boots" not booted
expect_all_on "while userspace boots, past late init"
load_consumer
expect_never_cut
sleep 3
expect_all_on "3 s later"
mark "reporting"
echo 1 > $sysctl_path
t_report=$(klog_time 'ub: reporting')
check "ub-gate-unclaimed is off once the report's write has returned (clk_summary: $(clk_hw ub-gate-unclaimed))" \
	clk_off ub-gate-unclaimed
d=$(minus "$(clk_off_time ub-gate-unclaimed)" "$t_report")
check "it went off at the report ($d s after it)" in_range "$d" 0 0.5
wait_until 5 pd_off ub-pd-unclaimed
check "ub-pd-unclaimed is off (pm_genpd_summary: $(pd_status ub-pd-unclaimed))" pd_off ub-pd-unclaimed
d=$(minus "$(pd_off_time ub-pd-unclaimed)" "$t_report")
check "it went off right after the report ($d s)" in_range "$d" 0 0.5
sleep 1
check "ub-gate-claimed stays on (clk_summary: $(clk_hw ub-gate-claimed))" clk_on ub-gate-claimed
check "ub-pd-claimed stays on (pm_genpd_summary: $(pd_status ub-pd-claimed))" pd_on ub-pd-claimed
expect_never_cut
show_pm_timeline
tap_done
