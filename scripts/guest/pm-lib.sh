# Helpers for the boot-pm-*.sh suites: the clk core's and genpd's cleanup of
# unused clocks and power domains, seen through the samples of
# CONFIG_SAMPLE_USER_BOOTED_PM: a built-in provider of two gate clocks and
# two power domains that are on at boot and unused at late init, and a
# consumer module that claims one of each.  Source after lib.sh and
# drivers-lib.sh (log times, marks, waits).
#
# States are read as an admin reads them, from the debugfs summaries; the
# provider logs every switch, so that the kernel log says when.

clk_summary=/sys/kernel/debug/clk/clk_summary
genpd_summary=/sys/kernel/debug/pm_genpd/pm_genpd_summary
# clk_hw NAME: the clock's "hardware enable" column (Y or N), empty if absent.
clk_hw() { awk -v n="$1" '$1 == n { print $9; exit }' "$clk_summary"; }
# pd_status NAME: the domain's status column (on, off-0), empty if absent.
pd_status() { awk -v n="$1" '$1 == n { print $2; exit }' "$genpd_summary"; }
clk_on() { [ "$(clk_hw "$1")" = Y ]; }
clk_off() { [ "$(clk_hw "$1")" = N ]; }
pd_on() { [ "$(pd_status "$1")" = on ]; }
pd_off() { case $(pd_status "$1") in off*) true ;; *) false ;; esac; }
clk_off_time() { klog_time "$1: disabling"; }
pd_off_time() { klog_time "$1: powering off"; }

clocks="ub-gate-claimed ub-gate-unclaimed"
domains="ub-pd-claimed ub-pd-unclaimed"

# expect_all_on WHEN: every sample clock and domain is on.
expect_all_on() {
	for c in $clocks; do
		check "$c is on $1 (clk_summary: $(clk_hw $c))" clk_on $c
	done
	for d in $domains; do
		check "$d is on $1 (pm_genpd_summary: $(pd_status $d))" pd_on $d
	done
}

# expect_late_init_cleanup: what a stock kernel does: every sample clock
# and domain is off when init runs.  The clocks went off before init was
# launched; the domains' power-off work, queued there, runs on pm_wq at
# once, so it may log just after the launch.
expect_late_init_cleanup() {
	for c in $clocks; do
		check "$c is off when init runs (clk_summary: $(clk_hw $c))" clk_off $c
		d=$(minus "$(clk_off_time $c)" "$(launch_time)")
		check "and went off before init was launched ($d s)" in_range "$d" -30 0
	done
	for p in $domains; do
		wait_until 2 pd_off $p
		check "$p is off when init runs (pm_genpd_summary: $(pd_status $p))" pd_off $p
		d=$(minus "$(pd_off_time $p)" "$(launch_time)")
		check "and went off by init launch (its power-off queued before it; $d s)" in_range "$d" -30 0.5
	done
}

# load_consumer: userspace loads the driver of ub-gate-claimed and
# ub-pd-claimed, which enables the clock and runtime-resumes a device in
# the domain; sets t_consumer.
load_consumer() {
	mark "loading user_booted_pm_consumer"
	modprobe user_booted_pm_consumer
	t_consumer=$(klog_time 'ub: loading user_booted_pm_consumer')
	check "the consumer claimed its clock and domain" klog_has 'claimed ub-gate-claimed and ub-pd-claimed'
	check "ub-gate-claimed is on (clk_summary: $(clk_hw ub-gate-claimed))" clk_on ub-gate-claimed
	check "ub-pd-claimed is on (pm_genpd_summary: $(pd_status ub-pd-claimed))" pd_on ub-pd-claimed
}

# expect_never_cut: the claimed clock and domain were never switched off
# (no bounce), so their device never lost them.
expect_never_cut() {
	check "ub-gate-claimed was never switched off" not klog_has 'ub-gate-claimed: disabling'
	check "ub-pd-claimed was never powered off" not klog_has 'ub-pd-claimed: powering off'
}

show_pm_timeline() {
	echo "== timeline (kernel log) =="
	dmesg | grep -E 'Run /init|user_booted:|ub: |ub-gate|ub-pd|ub-pm|clk:|genpd:' |
		grep -v 'ommand line' | sed 's/^/  /'
	echo "== clk_summary =="
	grep -E 'clock|ub-' "$clk_summary" | sed 's/^/  /'
	echo "== pm_genpd_summary =="
	sed 's/^/  /' "$genpd_summary"
}
