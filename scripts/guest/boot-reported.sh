# append: user_booted_reported user_booted_timeout=junk user_booted_timeout=0 user_booted_timeout=86401 user_booted_timeout=300
# Init reports: the ABI in the order a boot goes through it.  While booting:
# bad input, privilege, the timeout read-only (EACCES, 300 unchanged), poll()
# waiting; then the report, which wakes it and ends boot once.  After it:
# idempotent re-writes, bad input and privilege refused, the timeout fixed.
# The boot parameter's bad values each warn and change nothing; the last
# good one holds.
. /ub/selftests-lib.sh
for v in junk 0 86401; do
	check "user_booted_timeout=$v refused" \
		sh -c "dmesg | grep -q 'user_booted: user_booted_timeout=$v: not 1 to 86400 seconds, ignored'"
done
check "user_booted_timeout=300 holds" [ "$(cat /proc/sys/kernel/user_booted_timeout)" = 300 ]
run_selftest -f booting -f booted
