# Init reports 3 s after the consumer module is loaded.  Until then every
# sample clock and domain stays on, past the late init where a stock kernel
# cuts them (boot-pm-stock.sh); the consumer loaded meanwhile keeps its
# clock and domain on for good, never bounced; the unclaimed clock and
# domain go off before the report's write returns.  A provider module that
# userspace loads meanwhile is left alone, as on stock.
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
mark "loading user_booted_pm_late"
modprobe user_booted_pm_late
late="ub-gate-late ub-gate-late-child"
for c in $late; do
	check "$c, registered by a module after late init, is on (clk_summary: $(clk_hw $c))" clk_on $c
done
check "ub-pd-late, registered by a module after late init, is on" pd_on ub-pd-late
sleep 3
expect_all_on "3 s later"
mark "reporting"
echo 1 > $sysctl_path
t_report=$(klog_time 'ub: reporting')
check "ub-gate-unclaimed is off once the report's write has returned (clk_summary: $(clk_hw ub-gate-unclaimed))" \
	clk_off ub-gate-unclaimed
d=$(minus "$(clk_off_time ub-gate-unclaimed)" "$t_report")
check "it went off at the report ($d s after it)" in_range "$d" 0 0.5
check "ub-pd-unclaimed is off once the report's write has returned (pm_genpd_summary: $(pd_status ub-pd-unclaimed))" \
	pd_off ub-pd-unclaimed
d=$(minus "$(pd_off_time ub-pd-unclaimed)" "$t_report")
check "it went off at the report ($d s after it)" in_range "$d" 0 0.5
# The kernel logs the end of boot after its subscribers have returned.
before_end() { dmesg | grep -e "$1" -e 'userspace boot ended (reported)' | head -n 1 | grep -q -e "$1"; }
check "the clock went off while the subscribers were told (before the kernel's line)" \
	before_end 'ub-gate-unclaimed: disabling'
check "so did the domain" before_end 'ub-pd-unclaimed: powering off'
sleep 1
for c in $late; do
	check "$c stays on after the report: not the cleanup's (clk_summary: $(clk_hw $c))" clk_on $c
	check "and was never switched off" not klog_has "$c: disabling"
done
check "ub-pd-late stays on after the report (pm_genpd_summary: $(pd_status ub-pd-late))" pd_on ub-pd-late
check "and was never powered off" not klog_has 'ub-pd-late: powering off'
check "ub-gate-claimed stays on (clk_summary: $(clk_hw ub-gate-claimed))" clk_on ub-gate-claimed
check "ub-pd-claimed stays on (pm_genpd_summary: $(pd_status ub-pd-claimed))" pd_on ub-pd-claimed
expect_never_cut
show_pm_timeline
tap_done
