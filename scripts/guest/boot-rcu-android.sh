# rcupdate.rcu_expedited=1 (Android) keeps expediting after userspace boot.
# append: user_booted_reported rcupdate.rcu_expedited=1
. /ub/lib.sh
. /ub/kunit-lib.sh
kunit_run user_booted_rcu_test user_booted_rcu admin_expedites=1
echo 1 > $sysctl_path
kunit_run user_booted_rcu_test user_booted_rcu admin_expedites=1
tap_done
