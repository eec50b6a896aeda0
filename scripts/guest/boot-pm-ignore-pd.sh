# pd_ignore_unused still wins with user_booted_reported: no domain is
# powered off, at late init nor at the report; the clk core, not asked to,
# waits for the report and switches the unused clock off then.
# append: user_booted_reported pd_ignore_unused
# flavour: qemu
# kernels: 7.3 6.12
. /ub/lib.sh
. /ub/drivers-lib.sh
. /ub/pm-lib.sh

check "pd_ignore_unused is obeyed" klog_has 'genpd: Not disabling unused power domains'
check "no genpd cleanup is pending" not klog_has 'genpd: Disabling unused power domains'
check "the clk core waits for userspace" klog_has 'clk: Disabling unused clocks when userspace has booted'
expect_all_on "while userspace boots"
echo 1 > $sysctl_path
check "userspace boot ended (reported)" klog_has 'userspace boot ended (reported)'
sleep 1
for p in $domains; do
	check "$p is on 1 s after the report (pm_genpd_summary: $(pd_status $p))" pd_on $p
done
check "no domain was powered off" not klog_has 'ub-pd-.*: powering off'
check "ub-gate-unclaimed is off after the report (clk_summary: $(clk_hw ub-gate-unclaimed))" \
	clk_off ub-gate-unclaimed
show_pm_timeline
tap_done
