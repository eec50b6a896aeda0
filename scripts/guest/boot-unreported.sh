# append:
# flavour: qemu
# No parameter: init is not expected to report, so boot ends when init is
# launched, reason "unreported", and a later write of 1 changes nothing.
. /ub/selftests-lib.sh
run_selftest -f boot_path -f booted
