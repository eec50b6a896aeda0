# The off switch, sysctl.kernel.user_booted=1 with user_booted_reported,
# ends userspace boot at init launch: the clk core's cleanup runs there,
# before init is executed, and genpd's is queued there, so that init finds
# the unused clocks and domains off, as on stock (boot-pm-stock.sh).
# append: user_booted_reported sysctl.kernel.user_booted=1
# flavour: qemu
# kernels: 7.3 6.12
. /ub/lib.sh
. /ub/drivers-lib.sh
. /ub/pm-lib.sh

check "userspace boot ended at init launch" booted
check "by the command line" klog_has 'userspace boot ended (cmdline)'
check "the clk core cleaned up at init launch" klog_has 'clk: Disabling unused clocks$'
check "genpd cleaned up at init launch" klog_has 'genpd: Disabling unused power domains$'
expect_late_init_cleanup
show_pm_timeline
tap_done
