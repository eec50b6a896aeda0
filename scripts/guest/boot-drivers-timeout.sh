# With user_booted_reported and no report, the fallback ends userspace boot
# (here after 15 s): until then the consumer defers, past the stock 10 s;
# at the fallback the driver core gives up on the supplier and the unused
# regulator is switched off.  The kernel logs the end of boot after telling
# the subscribers, whose work may run first: -0.1 s counts as "right after".
# append: user_booted_reported sysctl.kernel.user_booted_timeout=15
. /ub/lib.sh
. /ub/drivers-lib.sh

load_fixtures
sleep_until "$(awk -v t="$(launch_time)" 'BEGIN { print t + 13 }')"
check "13 s after init launch the consumer still defers" outcome_is deferred
check "and the unused regulator is still on" [ "$(regulator_state)" = enabled ]
wait_until 10 booted
check "the fallback ended userspace boot" booted
check "with reason timeout" klog_has 'userspace boot ended (timeout)'
wait_until 5 regulator_off
d=$(minus "$(regulator_off_time)" "$(boot_end_time)")
check "the unused regulator was switched off right after the fallback ($d s)" in_range "$d" -0.1 0.5
wait_until 5 not_deferred
d=$(minus "$(gave_up_time)" "$(boot_end_time)")
check "the consumer gave up on its supplier right after the fallback ($d s)" in_range "$d" -0.1 0.5
show_timeline
tap_done
