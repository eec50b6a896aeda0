# Init reports 40 s after launch.  The cleanup held until the report acts
# only on what stock's cleanup acted on at its 30 s: "ub-agent", off then,
# is turned on 35 s after launch by another agent (firmware, a
# co-processor: the fixture's parameter agent_on, outside the regulator
# core) and stays on after the report, as on stock; so does "ub-cycled",
# on and unused at the 30 s, which a consumer enables and disables at 35 s
# (the core switches it off, as stock did at its 30 s) before the agent
# turns it on; the unused regulator, on and unused at the 30 s, goes off
# right after the report.
# append: user_booted_reported
# kernels: 7.3 6.12
. /ub/lib.sh
. /ub/drivers-lib.sh

params=/sys/module/user_booted_regulator/parameters
agent_param=$params/agent_on
modprobe user_booted_regulator
check "the unused regulator is on at boot" [ "$(regulator_state)" = enabled ]
check "ub-agent is off at boot" [ "$(regulator_state ub-agent)" = disabled ]
check "ub-cycled is on at boot" [ "$(regulator_state ub-cycled)" = enabled ]
# Late init comes before init launch: its 30 s have passed 35 s after
# launch, with 5 s for a starved guest's timer (a timer that fired later
# would mark ub-agent, on by then: the check below would fail, not pass).
sleep_until "$(awk -v t="$(launch_time)" 'BEGIN { print t + 35 }')"
check "35 s after init launch, past its stock 30 s, the unused regulator is still on" \
	[ "$(regulator_state)" = enabled ]
check "while userspace still boots" not booted
mark "another agent turns ub-agent on"
echo Y > $agent_param
check "another agent turned ub-agent on" [ "$(regulator_state ub-agent)" = enabled ]
check "ub-cycled is still on, unused, past its stock 30 s" [ "$(regulator_state ub-cycled)" = enabled ]
echo Y > $params/cycle
check "a consumer enabled and disabled ub-cycled: the core switched it off" \
	[ "$(regulator_state ub-cycled)" = disabled ]
mark "another agent turns ub-cycled on"
echo Y > $params/cycled_on
check "another agent turned ub-cycled on" [ "$(regulator_state ub-cycled)" = enabled ]
sleep_until "$(awk -v t="$(launch_time)" 'BEGIN { print t + 40 }')"
mark "reporting"
echo 1 > $sysctl_path
wait_until 10 regulator_off
d=$(minus "$(regulator_off_time)" "$(klog_time 'ub: reporting')")
check "the unused regulator was switched off right after the report ($d s)" in_range "$d" 0 5
sleep 2
check "ub-agent is still on (off at the stock 30 s: stock never cleans it)" \
	[ "$(regulator_state ub-agent)" = enabled ]
check "the regulator core did not switch it off" not klog_has 'ub-agent: disabling'
check "its hardware is still on" [ "$(cat $agent_param)" = Y ]
check "ub-cycled is still on (switched off by the core since the 30 s: stock is done with it)" \
	eval '[ "$(regulator_state ub-cycled)" = enabled ] && [ "$(cat $params/cycled_on)" = Y ] &&
		[ "$(dmesg | grep -c "ub-cycled: disabling")" = 0 ]'
show_timeline
tap_done
