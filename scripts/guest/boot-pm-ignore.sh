# clk_ignore_unused and pd_ignore_unused still win with user_booted_reported:
# nothing is switched off at late init, nor at the report.
# append: user_booted_reported clk_ignore_unused pd_ignore_unused
# flavour: qemu
# kernels: 7.3 6.12
. /ub/lib.sh
. /ub/drivers-lib.sh
. /ub/pm-lib.sh

check "clk_ignore_unused is obeyed" klog_has 'clk: Not disabling unused clocks'
check "pd_ignore_unused is obeyed" klog_has 'genpd: Not disabling unused power domains'
check "no clk cleanup is pending" not klog_has 'clk: Disabling unused clocks'
check "no genpd cleanup is pending" not klog_has 'genpd: Disabling unused power domains'
expect_all_on "while userspace boots"
mark "reporting"
echo 1 > $sysctl_path
check "userspace boot ended (reported)" klog_has 'userspace boot ended (reported)'
sleep 1
expect_all_on "1 s after the report"
check "no clock was switched off" not klog_has 'ub-gate-.*: disabling'
check "no domain was powered off" not klog_has 'ub-pd-.*: powering off'
show_pm_timeline
tap_done
