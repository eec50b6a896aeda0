# sysctl.kernel.user_booted=1 with user_booted_reported ends userspace
# boot before init launch (do_sysctl_args() writes it): the regulator
# core and the driver core keep their stock timers, exactly as without the
# parameter (boot-drivers-stock.sh), not their end-of-boot work at launch.
# append: user_booted_reported sysctl.kernel.user_booted=1 fw_devlink.sync_state=timeout
# flavour: qemu
. /ub/lib.sh
. /ub/drivers-lib.sh

check "userspace boot ended at init launch" booted
check "before init launch: no end-of-boot line at info level" \
	sh -c "! dmesg | grep -q 'userspace boot ended'"
load_fixtures
expect_stock_timers
show_timeline
tap_done
