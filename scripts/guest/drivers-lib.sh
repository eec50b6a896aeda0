# Helpers for the boot-drivers-*.sh suites: the regulator core's and the
# driver core's end-of-boot work, seen through the modules of
# kernel/test-modules/.  Source after lib.sh.
#
# Times are kernel log timestamps (seconds since boot): each suite writes a
# mark into the log where it acts, and compares with the kernel's lines.

# mark TEXT: a line "ub: TEXT" in the kernel log.
mark() { echo "ub: $*" > /dev/kmsg; }
# klog_time PATTERN: timestamp of the last kernel log line matching PATTERN,
# empty if none.
klog_time() { dmesg | grep -e "$1" | tail -n 1 | sed -n 's/^\[ *\([0-9.]*\)\].*/\1/p'; }
# in_range X LO HI: LO <= X <= HI, as decimals; false if X is empty.
# The suites' lower bounds are the stock deadlines (a timer never fires
# early: no cleanup earlier than stock); their upper bounds only tell a
# deadline from the moments it could be taken for (the fallback at 20 s,
# the report at 45 s, the default 10 s against deferred_probe_timeout=5),
# with room for a timer that a starved TCG guest runs seconds late.  How
# soon is not theirs to judge.
in_range() { [ -n "$1" ] && awk -v x="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(x >= lo && x <= hi) }'; }
# minus A B: A - B with three decimals, empty if either is empty.
minus() { [ -n "$1" ] && [ -n "$2" ] && awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a - b }'; }
# klog_has PATTERN: some kernel log line matches.
klog_has() { dmesg | grep -q -e "$1"; }
uptime_s() { cut -d' ' -f1 /proc/uptime; }
# sleep_until T: until /proc/uptime reaches T seconds.
sleep_until() { while ! in_range "$(uptime_s)" "$1" 1e9; do sleep 0.2; done; }
# wait_until SECS COMMAND...: poll COMMAND for up to SECS seconds.
wait_until() {
	t=$(awk -v n="$1" 'BEGIN { print n * 5 }')
	shift
	while ! "$@"; do
		[ "$t" -gt 0 ] || return 1
		t=$((t - 1))
		sleep 0.2
	done
}

# The samples.  regulator_state [NAME]: of ub-unused, or of NAME (ub-late:
# the one user_booted_supplier registers when it binds).
regulator_state() {
	for r in /sys/class/regulator/*; do
		[ "$(cat "$r/name" 2>/dev/null)" = "${1:-ub-unused}" ] && cat "$r/state" && return
	done
	echo missing
}
regulator_off() { [ "$(regulator_state)" = disabled ]; }
consumer_param() { cat "/sys/module/user_booted_consumer/parameters/$1" 2>/dev/null; }
outcome() { consumer_param outcome; }
outcome_is() { [ "$(outcome)" = "$1" ]; }
not_deferred() { ! outcome_is deferred; }
supplier_synced() { [ "$(cat /sys/module/user_booted_supplier/parameters/synced 2>/dev/null)" = Y ]; }
early_synced() { [ "$(consumer_param early_synced)" = Y ]; }
# ub-early's state_synced attribute (0, 1, or empty while unbound).
early_state_synced() { cat /sys/bus/platform/devices/ub-early/state_synced 2>/dev/null; }
# How many times the kernel log says fw_devlink forced ub-early's sync_state().
early_forced_lines() { dmesg | grep -c 'ub-early: Timed out. Forcing sync_state()'; }
booted() { [ "$(cat $sysctl_path)" = 1 ]; }

# Kernel log lines.
launch_time() { klog_time 'Run /init as init process'; }
boot_end_time() { klog_time 'user_booted: userspace boot ended'; }
regulator_off_time() { klog_time 'ub-unused: disabling'; }
gave_up_time() { klog_time 'ub-consumer: bound without supplier'; }
synced_time() { klog_time 'ub-supplier: sync_state'; }
early_synced_time() { klog_time 'ub-early: sync_state'; }
# held: fw_devlink's pass at the deferred-probe timeout has run and held
# the forced sync_state() of the early supplier, bound by then.
held() { klog_has 'ub-early: Timed out. sync_state() held until userspace has booted'; }

# load_fixtures [CONSUMER-PARAMS]: the unused regulator, then the consumer
# (whose driver registration re-arms a stock deferred-probe timeout) and the
# early supplier, bound at once; sets t_consumer.
load_fixtures() {
	modprobe user_booted_regulator
	check "the unused regulator is on at boot" [ "$(regulator_state)" = enabled ]
	mark "loading user_booted_consumer"
	modprobe user_booted_consumer "$@"
	t_consumer=$(klog_time 'ub: loading user_booted_consumer')
	check "the consumer defers while its supplier has no driver" outcome_is deferred
	check "the early supplier is bound" [ -e /sys/bus/platform/devices/ub-early/driver ]
}

# past_stock_timeout: sleep until t_consumer + 13 s, later than a stock
# deferred-probe timeout (10 s after the last driver registration) fires.
past_stock_timeout() { sleep_until "$(awk -v t="$t_consumer" 'BEGIN { print t + 13 }')"; }
# load_late_supplier: the supplier's driver, as userspace loads it late;
# it registers the regulator ub-late.
load_late_supplier() {
	mark "loading user_booted_supplier"
	modprobe user_booted_supplier
	t_supplier=$(klog_time 'ub: loading user_booted_supplier')
	check "the late supplier is bound" [ -e /sys/bus/platform/devices/ub-supplier/driver ]
	check "its regulator ub-late is on" [ "$(regulator_state ub-late)" = enabled ]
}

# expect_stock_give_up: the consumer gives up on its missing supplier 10 s
# after its driver registered, as on a stock kernel, whatever the boot.
expect_stock_give_up() {
	wait_until 15 not_deferred
	d=$(minus "$(gave_up_time)" "$t_consumer")
	check "the consumer gave up on its supplier 10 s after its driver registered, as on stock ($d s)" \
		in_range "$d" 9.5 15
}

# expect_stock_timers: what a stock kernel does with the fixtures, whatever
# this boot's parameters: the consumer gives up on its supplier 10 s after
# its driver registered, and fw_devlink forces the early supplier's
# sync_state() then; the supplier whose driver userspace loads at 13 s
# is bound, but not used, and its sync_state() is not forced (the timeout
# came before it); the unused regulator goes off 30 s after late init.
expect_stock_timers() {
	expect_stock_give_up
	wait_until 3 early_synced
	d=$(minus "$(early_synced_time)" "$t_consumer")
	check "fw_devlink forced the early supplier's sync_state() at the timeout, as on stock ($d s after the consumer's driver)" \
		in_range "$d" 9.5 15
	check "and logged forcing it once, as on stock" [ "$(early_forced_lines)" = 1 ]
	check "without holding it" not held
	past_stock_timeout
	load_late_supplier
	sleep 1
	check "its consumer was bound without it" outcome_is "without supplier"
	check "the supplier's sync_state() still waits (the timeout came before it)" not supplier_synced
	wait_until 40 regulator_off
	d=$(minus "$(regulator_off_time)" "$(launch_time)")
	# Late init comes shortly before init launch; on a loaded TCG host the
	# 30 s timer's work has been seen to run up to 1.5 s late.
	check "the unused regulator was switched off 30 s after late init, as on stock ($d s after init launch)" \
		in_range "$d" 28 40
}

# show_timeline: the lines the suites reason about, for the console log.
show_timeline() {
	echo "== timeline (kernel log) =="
	dmesg | grep -E 'Run /init|user_booted:|ub: |ub-unused|ub-late|ub-agent|ub-cycled|ub-consumer|ub-supplier|ub-early|ub-idle|regulator|deferred probe|sync_state' |
		grep -v 'ommand line' |
		sed 's/^/  /'
}
