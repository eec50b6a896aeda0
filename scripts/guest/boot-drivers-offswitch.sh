# The documented off switch, sysctl.kernel.user_booted=1 with
# user_booted_reported, ends userspace boot at init launch: the regulator
# core and the driver core keep their stock timers, exactly as without the
# parameter (boot-drivers-stock.sh), not their end-of-boot work at launch.
# append: user_booted_reported sysctl.kernel.user_booted=1 fw_devlink.sync_state=timeout
# flavour: qemu
. /ub/lib.sh
. /ub/drivers-lib.sh

check "userspace boot ended at init launch" booted
check "by the command line" klog_has 'userspace boot ended (cmdline)'
load_fixtures
expect_stock_timers
show_timeline
tap_done
