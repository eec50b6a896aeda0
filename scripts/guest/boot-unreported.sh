# append:
# flavour: qemu
# No parameter: init is not expected to report, so boot ends when init is
# launched, reason "unreported", and a later write of 1 changes nothing.
. /ub/selftests-lib.sh
run_selftest -r boot_path.unreported_boot_ends_at_init_launch \
	-r booted.reads_1_after_boot_end -r booted.rewriting_1_is_a_no_op \
	-r booted.writing_0_is_refused_with_einval
