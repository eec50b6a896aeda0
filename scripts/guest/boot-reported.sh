# append: user_booted_reported sysctl.kernel.user_booted_timeout=300
# Init reports: the ABI in the order a boot goes through it.  While booting:
# bad input, privilege, the timeout fixed (EBUSY, 300 unchanged), poll()
# waiting; then the report, which wakes it and ends boot once.  After it:
# idempotent re-writes, bad input and privilege refused, the timeout fixed.
. /ub/selftests-lib.sh
run_selftest -f booting -f booted
