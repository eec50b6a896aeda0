# CPU hotplug racing the report: RCU's subscriber flips a static key
# (cpus_read_lock(), jump_label_mutex) under user_booted's locks; lockdep on
# the debug kernel checks the order against hotplug's.
# append: user_booted_reported
. /ub/lib.sh
cpu1=/sys/devices/system/cpu/cpu1/online
(
	i=0
	while [ ! -e /tmp/stop ]; do
		echo 0 > $cpu1 && echo 1 > $cpu1 && i=$((i + 1))
		echo $i > /tmp/cycles
	done
) &
sleep 1
echo 1 > $sysctl_path
sleep 1
touch /tmp/stop
wait
echo 1 > $cpu1 2>/dev/null
check "boot ended while CPU 1 went off and on line ($(cat /tmp/cycles) cycles)" \
	[ "$(cat $sysctl_path)" = 1 -a "$(cat /tmp/cycles)" -gt 0 ]
check "CPU 1 back online" [ "$(cat $cpu1)" = 1 ]
tap_done
