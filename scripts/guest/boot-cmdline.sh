# append: user_booted_reported sysctl.kernel.user_booted=1
# The report on the kernel command line: applied by do_sysctl_args() before
# init runs, it ends boot at init launch, reason "cmdline", even though init
# was to report.
. /ub/selftests-lib.sh
run_selftest -r boot_path.cmdline_sysctl_ends_boot_at_init_launch \
	-r booted.reads_1_after_boot_end -r booted.rewriting_1_is_a_no_op
