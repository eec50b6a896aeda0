# deferred_probe_timeout=-1 (wait forever) stays forever with
# user_booted_reported: after the report the consumer still defers, and
# binds when its supplier's driver comes, however late.
# append: user_booted_reported deferred_probe_timeout=-1
. /ub/lib.sh
. /ub/drivers-lib.sh

load_fixtures
echo 1 > $sysctl_path
wait_until 5 regulator_off
check "the unused regulator was switched off at the report" regulator_off
sleep 1
check "deferred_probe_timeout=-1: the consumer still defers after the report" outcome_is deferred
modprobe user_booted_supplier
wait_until 5 outcome_is "with supplier"
check "and binds to its supplier when its driver comes" outcome_is "with supplier"
show_timeline
tap_done
