# Without user_booted_reported the regulator core and the driver core keep
# today's timers (expect_stock_timers in drivers-lib.sh).  The other
# boot-drivers-*.sh suites are the same fixtures with the series' options.
# append: fw_devlink.sync_state=timeout
# flavour: qemu
. /ub/lib.sh
. /ub/drivers-lib.sh

check "userspace boot ended at init launch" booted
load_fixtures
expect_stock_timers
show_timeline
tap_done
