# The off switch, sysctl.kernel.user_booted=1 with user_booted_reported,
# ends userspace boot at init launch, and the core knows it from the command
# line on: the clk core and genpd clean up at late init, exactly as on stock
# (boot-pm-stock.sh).
# append: user_booted_reported sysctl.kernel.user_booted=1
# flavour: qemu
# kernels: 7.3 6.12
. /ub/lib.sh
. /ub/drivers-lib.sh
. /ub/pm-lib.sh

check "userspace boot ended at init launch" booted
check "by the command line" klog_has 'userspace boot ended (cmdline)'
check "the clk core cleaned up at late init" klog_has 'clk: Disabling unused clocks$'
check "and did not wait for userspace" not klog_has 'clk: Disabling unused clocks when'
check "genpd cleaned up at late init" klog_has 'genpd: Disabling unused power domains$'
check "and did not wait for userspace" not klog_has 'genpd: Disabling unused power domains when'
check "before the kernel freed its init memory, as on stock" \
	in_range "$(minus "$(klog_time 'clk: Disabling unused clocks$')" "$(klog_time 'Freeing unused kernel image')")" -30 0
expect_late_init_cleanup
show_pm_timeline
tap_done
