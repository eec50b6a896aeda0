# nohz_full=1, init reports from the isolated CPU 1 after the regulator
# cleanup's stock 30 s: the held cleanup runs where stock's 30 s timer runs
# it, on the housekeeping CPU 0, not on the CPU that wrote the report.
# Only the debug kernel has CONFIG_NO_HZ_FULL (configs/debug.config).
# flavour: debug
# kernels: 7.3
# append: user_booted_reported nohz_full=1
. /ub/lib.sh
. /ub/drivers-lib.sh

check "nohz_full is active on CPU 1" [ "$(cat /sys/devices/system/cpu/nohz_full)" = 1 ]
modprobe user_booted_regulator
check "the unused regulator is on at boot" [ "$(regulator_state)" = enabled ]
sleep_until "$(awk -v t="$(launch_time)" 'BEGIN { print t + 35 }')"
check "35 s after init launch, past its stock 30 s, the unused regulator is still on" \
	[ "$(regulator_state)" = enabled ]
mark "reporting from CPU 1"
taskset -c 1 sh -c "echo 1 > $sysctl_path"
check "userspace boot ended" booted
wait_until 10 regulator_off
d=$(minus "$(regulator_off_time)" "$(klog_time 'ub: reporting')")
check "the unused regulator was switched off right after the report ($d s)" in_range "$d" 0 5
cpu=$(cat /sys/module/user_booted_regulator/parameters/disabled_on_cpu)
check "on the housekeeping CPU 0, not on the reporting CPU 1 (CPU $cpu)" [ "$cpu" = 0 ]
show_timeline
tap_done
