# clk_ignore_unused still wins with user_booted_reported: no clock is
# switched off, at late init nor at the report; genpd, not asked to, waits
# for the report and powers the unused domain off then.
# append: user_booted_reported clk_ignore_unused
# flavour: qemu
# kernels: 7.3 6.12
. /ub/lib.sh
. /ub/drivers-lib.sh
. /ub/pm-lib.sh

check "clk_ignore_unused is obeyed" klog_has 'clk: Not disabling unused clocks'
check "no clk cleanup is pending" not klog_has 'clk: Disabling unused clocks'
check "genpd waits for userspace" klog_has 'genpd: Disabling unused power domains when userspace has booted'
expect_all_on "while userspace boots"
echo 1 > $sysctl_path
check "userspace boot ended (reported)" klog_has 'userspace boot ended (reported)'
sleep 1
for c in $clocks; do
	check "$c is on 1 s after the report (clk_summary: $(clk_hw $c))" clk_on $c
done
check "no clock was switched off" not klog_has 'ub-gate-.*: disabling'
check "ub-pd-unclaimed is off after the report (pm_genpd_summary: $(pd_status ub-pd-unclaimed))" \
	pd_off ub-pd-unclaimed
show_pm_timeline
tap_done
