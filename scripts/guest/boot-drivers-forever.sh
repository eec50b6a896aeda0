# deferred_probe_timeout=-1 (wait forever) stays forever with
# user_booted_reported: after an early report the consumer still defers,
# and binds when its supplier's driver comes, however late.  The unused
# regulator keeps its stock 30 s, which come after the report.
# append: user_booted_reported deferred_probe_timeout=-1
# backports: no (make test: the regulator and driver-core patches are the
# same code there; boot-drivers-reported runs it on each backport)
# flavour: qemu
. /ub/lib.sh
. /ub/drivers-lib.sh

load_fixtures
echo 1 > $sysctl_path
sleep 1
check "the unused regulator is still on after the report (its stock 30 s have not passed)" \
	[ "$(regulator_state)" = enabled ]
check "deferred_probe_timeout=-1: the consumer still defers after the report" outcome_is deferred
modprobe user_booted_supplier
wait_until 5 outcome_is "with supplier"
check "and binds to its supplier when its driver comes" outcome_is "with supplier"
wait_until 40 regulator_off
d=$(minus "$(regulator_off_time)" "$(launch_time)")
check "the unused regulator was switched off 30 s after late init, as on stock ($d s after init launch)" \
	in_range "$d" 28 40
show_timeline
tap_done
