# Init reports right after loading the fixtures, 0.5-1.2 s after launch
# under TCG (busybox, or systemd's "Startup finished"
# while udev still loads modules): the end of userspace boot comes before
# both stock deadlines, so both keep them, as on a stock kernel.
# append: user_booted_reported fw_devlink.sync_state=timeout
# flavour: qemu
. /ub/lib.sh
. /ub/drivers-lib.sh

load_fixtures
check "userspace still boots after the fixtures" not booted
echo 1 > $sysctl_path
check "init reported" klog_has 'userspace boot ended (reported)'
expect_stock_timers
show_timeline
tap_done
