#!/bin/bash
# End-to-end test of the systemd plugin under real systemd: Debian bookworm
# (systemd 252) and Debian sid (systemd 262), ten boots of build/bzImage
# under QEMU each, on the images from scripts/rootfs.sh.  The probe unit in
# the image prints what it saw between "E2E| BEGIN" and "E2E| END"; this
# script judges it.  Boots (kernel parameters beyond root=):
#
#   default      user_booted_reported, and a slow unit that keeps startup going
#                until the helper is connected: the helper catches
#                StartupFinished and ends boot ("reported", by its pid) within
#                2 s after systemd's FinishTimestamp (or udev's queue drained,
#                if later: so for every "within 2 s" below); no failed units;
#                the generator says nothing at the default log level.
#   multi-user   ... systemd.unit=multi-user.target: reported, within 2 s.
#   rescue       ... systemd.unit=rescue.target: reported, within 5 s (the
#                helper's sandboxed start competes with the shell's there).
#   emergency    ... systemd.unit=emergency.target: reported, within 5 s.
#   custom       ... systemd.unit=user-booted-e2e.target (a target of its own)
#                and a unit that fails: "degraded", still reported in 2 s.
#   reexec       ... a unit that runs systemctl daemon-reexec while the helper
#                waits: the helper reconnects and reports, within 2 s.
#   kernel-timeout  user_booted_reported, and a unit that shortens the kernel's
#                timeout to the past while the helper waits and holds startup
#                until the helper has gone: the helper must leave on POLLPRI.
#   disabled     the image where "systemctl disable user-booted.service" ran:
#                the helper never runs, the kernel's timeout ends boot.
#   masked       the image where "systemctl mask user-booted.service" ran: same.
#   optout       systemd.mask=user-booted.service (the one-boot switch): same.
#   unreported   no user_booted_reported: boot ends at init launch (the
#                sysctl reads 1), the generator writes nothing and says nothing.
#   initrd       (bookworm) through dracut's systemd initrd, which holds the
#                plugin too, rd.systemd.log_level=debug: the initrd's generator
#                says it keeps out, the real root reports once, within 2 s.
#   soft-reboot  (systemd >= 254: sid) reported, then systemctl soft-reboot:
#                the second userspace writes nothing and logs nothing above
#                info, the kernel ended boot once.
#   cost-N, cost-N-masked  (N = 1..E2E_COST_BOOTS, default 3, interleaved)
#                user_booted_reported on the enabled image, with and without
#                (systemd.mask=) the service: the service's start job
#                completed before the helper's main() ran (Type=simple: startup
#                never waited for it) and it reported; default.target -> FinishTimestamp of both
#                arms is printed (median, each boot) and kept in
#                build/systemd-e2e/SUITE-cost, not judged: speed is bench's to judge.
# Every reported boot also records whether udev's queue was empty when the
# helper learnt that startup had finished (build/systemd-e2e/SUITE-udev;
# the lags in SUITE-lags): one run per suite may go at once.
# The timeout boots use sysctl.kernel.user_booted_timeout=5.
#
# E2E_NATIVE=1 (scripts/systemd-native.sh, NATIVE_CORE set): instead, PID 1
# with systemd-plugin/native's patch reports the end of boot itself:
#   native-default, native-multi-user, native-rescue   the image without the
#                plugin (default: no systemd.unit=; the patch's own
#                TEST-07-PID1 subtest runs during boot and after): the kernel's "userspace boot ended (reported)" names
#                systemd[1], 0-100 ms after systemd's FinishTimestamp.
#   native-unreported  no user_booted_reported: PID 1 writes nothing.
#   native-plugin  the plugin installed too: PID 1 reports, the helper
#                leaves without error.
#
# E2E_SUITES="bookworm sid" (default) picks the suites.  Prints "ok N - ..." /
# "not ok N - ..." and "N passed, N failed"; exits non-zero on any failure.
# Logs: build/systemd-e2e/SUITE-BOOT.log.
set -eu
. "$(dirname "$0")/lib.sh"

out=$BUILD/systemd-e2e
mkdir -p "$out"
# One "BOOT LO HI FLO FHI" line per reported boot: the lag, in s, from the
# later of startup's end and udev's drain, and from FinishTimestamp; "BOOT ARM SECONDS"
# per cost boot; "BOOT WHAT" per reported boot: udev's queue at the end.
for s in ${E2E_SUITES:-bookworm sid}; do rm -f "$out/$s-lags" "$out/$s-cost" "$out/$s-udev"; done
passed=0 failed=0 n=0
# check NAME DETAIL COMMAND...: one test line, DETAIL (if any) under it.
check() {
	local name=$1 detail=$2
	shift 2
	n=$((n + 1))
	if "$@"; then
		echo "ok $n - $name"; passed=$((passed + 1))
	else
		echo "not ok $n - $name"; failed=$((failed + 1))
	fi
	[ -z "$detail" ] || echo "#   $detail"
}
finish() { echo "$passed passed, $failed failed"; [ "$failed" -eq 0 ]; exit; }

check "kernel image $BUILD/bzImage exists" "" test -f "$BUILD/bzImage" || finish

# boot B IMAGE APPEND: boots once as B (SUITE-NAME); the probe's key=value
# lines go to B.kv.  Returns non-zero if there is nothing to judge.
boot() {
	local b=$1 log=$out/$1.log rc=0
	# A fresh copy: every boot starts from the same disk.
	cp --sparse=always "$2" "$out/$suite-disk.ext4"
	bash "$TOP/scripts/qemu-run.sh" -d "$out/$suite-disk.ext4" ${INITRD:+-i "$INITRD"} -t 150 -l "$log" \
		-a "root=/dev/vda rw systemd.wants=user-booted-e2e.service $3" 2>"$log.qemu" || rc=$?
	tr -d '\r' <"$log" | sed -n '/E2E| BEGIN/,/E2E| END/s/^.*E2E| //p' >"$out/$b.kv"
	check "$b: systemd booted, the probe reported and powered off" "log: ${log#"$TOP"/}; $(head -n 1 "$log.qemu")" \
		test $rc -eq 0 -a -s "$out/$b.kv" || return 1
	# Without kernel support nothing else can be judged.
	check "$b: kernel has kernel.user_booted" "" test "$(kv "$b" sysctl)" != missing
}
kv() { sed -n "s/^$2=//p" "$out/$1.kv" | head -n 1; } # kv B KEY
# The kernel's "userspace boot ended" line as: timestamp reason comm pid.
ended() {
	sed -n 's/^dmesg=\[ *\([0-9.]*\)\] user_booted: userspace boot ended (\([a-z]*\)).* by \(.*\)\[\([0-9]*\)\];.*/\1 \2 \3 \4/p' \
		"$out/$1.kv" | head -n 1
}
between() { awk -v x="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(x != "" && x >= lo && x <= hi) }'; }
# What our generator wrote (the e2e's systemd.wants= links are systemd's).
generated() { grep -c '^generated=/run/systemd/generator/.*user-booted\.\(target\|service\)' "$out/$1.kv" || true; }
generator_lines() { sed -n 's/^generator=//p' "$out/$1.kv"; }

# When boot ended relative to systemd's FinishTimestampMonotonic, as "lo hi"
# in s.  printk stamps (local_clock) to CLOCK_MONOTONIC: the probe read the
# monotonic clock just before and after logging each "clock sync I" marker;
# the narrowest of those windows bounds the offset.
lag() {
	local ts=$2 finish_us=${3:-}
	[ -n "$finish_us" ] || finish_us=$(kv "$1" FinishTimestampMonotonic)
	sed -n -e 's/^sync\.\([0-9]*\)=\([0-9]*\) \([0-9]*\)$/sync \1 \2 \3/p' \
		-e 's/^dmesg=\[ *\([0-9.]*\)\] user-booted-e2e: clock sync \([0-9]*\)$/mark \2 \1/p' "$out/$1.kv" |
	awk -v e="$ts" -v f="$finish_us" '
		$1 == "sync" { m1[$2] = $3; m2[$2] = $4 }
		$1 == "mark" { p[$2] = $3 }
		END {
			for (i in p) if (i in m1 && (best == "" || m2[i] - m1[i] < m2[best] - m1[best])) best = i
			if (best == "" || e == "" || f == "" || f == 0) exit
			printf "%.3f %.3f\n", e - p[best] + m1[best] / 1e9 - f / 1e6, e - p[best] + m2[best] / 1e9 - f / 1e6
		}'
}

# end_us B: when the helper's wait ended, in us of CLOCK_MONOTONIC: startup
# finished, or, if udev's event queue drained after that, the drain.
end_us() {
	local finish drain
	finish=$(kv "$1" FinishTimestampMonotonic)
	drain=$(sed -n "s/^journal=.*udev's event queue drained at \([0-9]*\) us.*/\1/p" "$out/$1.kv" | tail -n 1)
	[ -n "$drain" ] && [ "$drain" -gt "$finish" ] && echo "$drain" || echo "$finish"
}
# reported B: the helper ended boot, within 2 s after its wait ended.
reported() {
	local b=$1 ts reason comm pid lo hi helper_pid end
	read -r ts reason comm pid <<<"$(ended "$b")" || true
	helper_pid=$(kv "$b" helper.ExecMainPID)
	check "$b: the helper ended boot (reason reported)" \
		"kernel: reason=${reason:-none} by ${comm:-?}[${pid:-?}]; helper pid ${helper_pid:-?}; system $(kv "$b" system)" \
		test "${reason:-}" = reported -a "${comm:-}" = user-booted-not -a "${pid:-}" = "$helper_pid"
	end=$(end_us "$b")
	read -r lo hi <<<"$(lag "$b" "${ts:-}" "$end")" || true
	read -r flo fhi <<<"$(lag "$b" "${ts:-}")" || true
	echo "$b ${lo:-?} ${hi:-?} ${flo:-?} ${fhi:-?}" >>"$out/$suite-lags"
	# Where other units start beside the helper at the end of startup
	# (rescue and emergency mode's shell; a custom target's own units and
	# the probe), the sandboxed helper's main() ran up to 4.5 s after its
	# fork under TCG (bench/results-plugin-e2e; bookworm's custom target in
	# a CI run of 2026-12-02: 4.5 s, lag 2.76 s; 0.01 s in an earlier run),
	# so they get 5 s.  Default and multi-user boots: 2 s.
	local bound=2
	case $b in *-rescue | *-emergency | *-custom) bound=5 ;; esac
	check "$b: boot ended 0-$bound s after startup finished and udev's queue drained" \
		"lag ${lo:-?} to ${hi:-?} s after $end us; ${flo:-?} to ${fhi:-?} s after FinishTimestampMonotonic=$(kv "$b" FinishTimestampMonotonic)" \
		eval 'between "${lo:-}" 0 1e9 && between "${hi:-}" -1e9 $bound'
	check "$b: user-booted.service exited cleanly" "" \
		test "$(kv "$b" helper.Result)" = success -a "$(kv "$b" helper.ExecMainStatus)" = 0
	echo "$b $(sed -n "s/^journal=.*udev's event queue \(was empty\|drained [0-9.]* s later\).*/\1/p" "$out/$b.kv" |
		tr ' ' _ | head -n 1)" >>"$out/$suite-udev"
}
# by_pid1 B: PID 1 ended boot itself, within 100 ms after startup finished.
by_pid1() {
	local b=$1 ts reason comm pid lo hi
	read -r ts reason comm pid <<<"$(ended "$b")" || true
	check "$b: PID 1 ended boot (reason reported)" "kernel: reason=${reason:-none} by ${comm:-?}[${pid:-?}]" \
		test "${reason:-}" = reported -a "${pid:-}" = 1
	read -r lo hi <<<"$(lag "$b" "${ts:-}")" || true
	echo "$b ${lo:-?} ${hi:-?}" >>"$out/$suite-lags"
	check "$b: boot ended 0-100 ms after systemd's startup finished" \
		"lag ${lo:-?} to ${hi:-?} s after FinishTimestampMonotonic=$(kv "$b" FinishTimestampMonotonic)" \
		eval 'between "${hi:-}" 0 0.1'
}
# test07 B: the patch's TEST-07-PID1 subtest passed inside the boot and after.
test07() {
	check "$1: TEST-07-PID1.user-booted.sh passed while booting and after" \
		"during: $(kv "$1" test07.during.Result) (status $(kv "$1" test07.during.ExecMainStatus)); after: exit $(kv "$1" test07.after)" \
		test "$(kv "$1" test07.during.Result)" = success -a "$(kv "$1" test07.after)" = 0
}
# native_suite SUITE IMAGES: E2E_NATIVE's boots.
native_suite() {
	local b t
	for t in default multi-user rescue; do
		b=$1-native-$t
		args=systemd.wants=user-booted-e2e-test07.service
		[ "$t" = default ] || args="systemd.unit=$t.target"
		boot "$b" "$2/native.ext4" "user_booted_reported $args" || continue
		by_pid1 "$b"
		[ "$t" = default ] && test07 "$b"
		check "$b: no plugin in the image" "helper $(kv "$b" helper.LoadState)" \
			test "$(kv "$b" helper.LoadState)" = not-found
		[ "$t" = rescue ] || no_failed_units "$b"
	done
	b=$1-native-unreported
	if boot "$b" "$2/native.ext4" "systemd.wants=user-booted-e2e-test07.service"; then
		test07 "$b"
		read -r ts reason comm pid <<<"$(ended "$b")" || true
		check "$b: the kernel did not wait, PID 1 wrote nothing" \
			"sysctl $(kv "$b" sysctl), reason=${reason:-none} by ${comm:-?}" \
			eval 'test "$(kv "$b" sysctl)" = 1 && case ${reason:-} in ""|unreported) ;; *) false ;; esac'
		no_failed_units "$b"
	fi
	b=$1-native-plugin
	if boot "$b" "$2/native-plugin.ext4" "user_booted_reported"; then
		by_pid1 "$b"
		check "$b: the plugin's helper left without error" \
			"helper $(kv "$b" helper.Result) status $(kv "$b" helper.ExecMainStatus)" \
			test "$(kv "$b" helper.Result)" = success -a "$(kv "$b" helper.ExecMainStatus)" = 0
		no_failed_units "$b"
	fi
}
# timed_out B WHY: the kernel's fallback ended boot, the helper never ran.
timed_out() {
	local b=$1 ts reason comm pid
	read -r ts reason comm pid <<<"$(ended "$b")" || true
	check "$b: the kernel's timeout ended boot, the helper never ran ($2)" \
		"reason=${reason:-none} at ${ts:-?} s; helper pid $(kv "$b" helper.ExecMainPID)" \
		test "${reason:-}" = timeout -a "$(kv "$b" helper.ExecMainPID)" = 0
}
no_failed_units() {
	check "$1: no failed units" "$(sed -n 's/^failed-\(unit\|log\)=//p' "$out/$1.kv" | tr '\n' ';')" \
		test "$(kv "$1" failed)" = 0
}
hooked() { # B N: the generator hooked the target into N units; it said nothing
	check "$1: the generator added user-booted.target to $2 boot targets, silently" \
		"$(grep -c '^generated=.*\.wants/user-booted.target$' "$out/$1.kv") links; $(generator_lines "$1")" \
		test "$(grep -c '^generated=.*\.wants/user-booted.target$' "$out/$1.kv")" = "$2" -a \
		-z "$(generator_lines "$1")"
}

# cost_s B: default.target -> FinishTimestamp of boot B, in s.
cost_s() {
	awk -v d="$(kv "$1" default.target.ActiveEnterTimestampMonotonic)" -v f="$(kv "$1" FinishTimestampMonotonic)" \
		'BEGIN { if (d > 0 && f > 0) printf "%.3f\n", (f - d) / 1e6; else print "?" }'
}
# cost_summary SUITE: both arms' medians and every boot, as a comment.
cost_summary() {
	awk -v s="$1" '$1 ~ "^" s "-cost-" && $3 != "?" { v[$2] = v[$2] " " $3; n[$2]++ }
		function median(list,   a, k, i, j, t) {
			k = split(list, a, " ")
			for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
			return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
		}
		END {
			if (!n["plugin"] || !n["masked"]) { print "# " s " cost: no complete pair"; exit }
			printf "# %s cost, default.target -> FinishTimestamp: with the plugin median %.3f s (n=%d:%s), masked %.3f s (n=%d:%s), difference %+.3f s\n",
				s, median(v["plugin"]), n["plugin"], v["plugin"], median(v["masked"]), n["masked"], v["masked"],
				median(v["plugin"]) - median(v["masked"])
		}' "$out/$suite-cost"
}

timeout=sysctl.kernel.user_booted_timeout=5
for suite in ${E2E_SUITES:-bookworm sid}; do
	SECONDS=0
	if ! images=$(bash "$TOP/scripts/rootfs.sh" "$suite"); then
		check "$suite: images built (scripts/rootfs.sh $suite)" "" false
		continue
	fi
	build_s=$SECONDS
	SECONDS=0
	if [ "${E2E_NATIVE:-0}" = 1 ]; then
		native_suite "$suite" "$images"
		echo "# $suite native: images ${build_s}s, boots ${SECONDS}s wall clock"
		continue
	fi
	b=$suite-default
	if boot "$b" "$images/enabled.ext4" "user_booted_reported systemd.wants=user-booted-e2e-late.service"; then
		echo "# $b: $(kv "$b" analyze | head -n 1)"
		reported "$b"
		check "$b: the helper caught the StartupFinished signal" \
			"$(sed -n 's/^journal=.*user-booted-notify\[[0-9]*\]: //p' "$out/$b.kv")" \
			grep -q 'learnt from the StartupFinished signal' "$out/$b.kv"
		hooked "$b" 6
		check "$b: user-booted.service enabled, user-booted.target active" \
			"$(kv "$b" enabled), $(kv "$b" target.ActiveState)" \
			test "$(kv "$b" enabled)" = enabled -a "$(kv "$b" target.ActiveState)" = active
		no_failed_units "$b"
	fi
	for t in multi-user rescue emergency; do
		b=$suite-$t
		boot "$b" "$images/enabled.ext4" "user_booted_reported systemd.unit=$t.target" || continue
		reported "$b"
		[ "$t" = multi-user ] && no_failed_units "$b"
	done
	b=$suite-custom
	if boot "$b" "$images/enabled.ext4" \
		"user_booted_reported systemd.unit=user-booted-e2e.target systemd.wants=user-booted-e2e-fail.service"; then
		check "$b: a unit failed, system degraded" "system $(kv "$b" system), failed $(kv "$b" failed-unit)" \
			test "$(kv "$b" system)" = degraded -a "$(kv "$b" failed-unit)" = user-booted-e2e-fail.service
		reported "$b"
		hooked "$b" 6
	fi
	b=$suite-reexec
	if boot "$b" "$images/enabled.ext4" "user_booted_reported systemd.wants=user-booted-e2e-reexec.service"; then
		check "$b: PID 1 re-executed while the helper waited; it reconnected" \
			"reexec $(kv "$b" reexec.Result); $(grep -Ec '^journal=.*(Lost the connection|Cannot talk to systemd)' "$out/$b.kv") lost or refused connections" \
			eval 'test "$(kv "$b" reexec.Result)" = success &&
				grep -Eq "^journal=.*(Lost the connection to systemd, reconnecting|Cannot talk to systemd.*retrying)" "$out/$b.kv"'
		reported "$b"
		no_failed_units "$b"
	fi
	b=$suite-kernel-timeout
	if boot "$b" "$images/enabled.ext4" "user_booted_reported systemd.wants=user-booted-e2e-hold.service"; then
		read -r ts reason comm pid <<<"$(ended "$b")" || true
		check "$b: the helper left on the kernel's timeout (POLLPRI), before startup finished" \
			"reason=${reason:-none}; helper exited at $(kv "$b" helper.ExecMainExitTimestampMonotonic), startup finished at $(kv "$b" FinishTimestampMonotonic) us" \
			eval 'test "${reason:-}" = timeout &&
				grep -q "^journal=.*user-booted-notify.*ended without us" "$out/$b.kv" &&
				[ "$(kv "$b" helper.ExecMainExitTimestampMonotonic)" -lt "$(kv "$b" FinishTimestampMonotonic)" ]'
		check "$b: user-booted.service exited cleanly" "" \
			test "$(kv "$b" helper.Result)" = success -a "$(kv "$b" helper.ExecMainStatus)" = 0
		no_failed_units "$b"
	fi
	for t in disabled masked; do
		b=$suite-$t
		boot "$b" "$images/$t.ext4" "user_booted_reported $timeout" || continue
		check "$b: systemctl is-enabled says $t" "$(kv "$b" enabled)" test "$(kv "$b" enabled)" = "$t"
		timed_out "$b" "systemctl $t"
		no_failed_units "$b"
	done
	b=$suite-optout
	if boot "$b" "$images/enabled.ext4" "user_booted_reported $timeout systemd.mask=user-booted.service"; then
		check "$b: systemd.mask= on the command line masks the service" "$(kv "$b" helper.LoadState)" \
			test "$(kv "$b" helper.LoadState)" = masked
		timed_out "$b" "systemd.mask=user-booted.service"
		no_failed_units "$b"
	fi
	b=$suite-unreported
	if boot "$b" "$images/enabled.ext4" ""; then
		# The kernel says so at info level only when a report was expected.
		read -r ts reason comm pid <<<"$(ended "$b")" || true
		check "$b: boot ended at init launch: the sysctl reads 1, nobody reported or timed out" \
			"sysctl $(kv "$b" sysctl), reason=${reason:-none}" \
			eval 'test "$(kv "$b" sysctl)" = 1 && case ${reason:-} in ""|unreported) ;; *) false ;; esac'

		check "$b: the generator wrote nothing and said nothing; the helper never ran" \
			"$(generated "$b") files; $(generator_lines "$b")" \
			test "$(generated "$b")" = 0 -a -z "$(generator_lines "$b")" -a \
			"$(kv "$b" helper.ExecMainPID)" = 0
		no_failed_units "$b"
	fi
	b=$suite-initrd
	if [ -f "$images/initrd.img" ] &&
		INITRD=$images/initrd.img boot "$b" "$images/enabled.ext4" "user_booted_reported rd.systemd.log_level=debug"; then
		check "$b: dracut's initrd holds the generator, the units and the helper" "" \
			eval '[ "$(zcat "$images/initrd.img" | cpio -t --quiet 2>/dev/null | grep -c "user-booted")" -ge 4 ]'
		check "$b: booted through the initrd and switched root" "$(kv "$b" initrd)" \
			test "$(kv "$b" initrd)" = switched-root
		check "$b: the generator ran in the initrd and kept out (its debug line, rd.systemd.log_level=debug)" \
			"$(generator_lines "$b" | tr '\n' ';')" \
			eval 'generator_lines "$b" | grep -q "Nothing to report: this is the initrd"'
		reported "$b"
		check "$b: the real root's generator added user-booted.target to 6 boot targets, silently" \
			"$(grep -c '^generated=.*\.wants/user-booted.target$' "$out/$b.kv") links; $(generator_lines "$b" | grep -v 'this is the initrd')" \
			eval 'test "$(grep -c "^generated=.*\.wants/user-booted.target\$" "$out/$b.kv")" = 6 &&
				! generator_lines "$b" | grep -qv "this is the initrd"'
		check "$b: the kernel ended boot once, after the switch to the real root" \
			"$(grep -c '^dmesg=.*userspace boot ended' "$out/$b.kv") ends; $(grep -c '^journal=.*reported the end of userspace boot' "$out/$b.kv") reports" \
			eval 'test "$(grep -c "^dmesg=.*userspace boot ended" "$out/$b.kv")" = 1 -a \
				"$(grep -c "^journal=.*reported the end of userspace boot" "$out/$b.kv")" = 1'
		no_failed_units "$b"
	fi
	b=$suite-soft-reboot
	if [ "$suite" != bookworm ] &&
		boot "$b" "$images/enabled.ext4" "user_booted_reported e2e.softreboot"; then
		check "$b: reported before the soft-reboot" \
			"first userspace: sysctl $(kv "$b" first.sysctl), $(grep -c '^first\..*reported the end of userspace boot' "$out/$b.kv") report lines" \
			eval 'test "$(kv "$b" first.sysctl)" = 1 && grep -q "^first\..*reported the end of userspace boot" "$out/$b.kv"'
		# PID 1 carries unit state across a soft-reboot: count the helper's runs
		# in the journal (the images log its debug lines), not ExecMainPID.
		check "$b: after the soft-reboot the helper did not run, nothing was logged above info; the kernel ended boot once" \
			"$(grep -c '^journal=.*user-booted-notify.*Started at' "$out/$b.kv") helper runs; $(generated "$b") generated; loud: $(sed -n 's/^loud=//p' "$out/$b.kv" | tr '\n' ';'); $(grep -c '^dmesg=.*userspace boot ended' "$out/$b.kv") ends" \
			eval 'test "$(grep -c "^journal=.*user-booted-notify.*Started at" "$out/$b.kv")" = 1 -a "$(generated "$b")" = 0 &&
				! grep -q "^loud=" "$out/$b.kv" && test "$(grep -c "^dmesg=.*userspace boot ended" "$out/$b.kv")" = 1'
	fi
	# Cost: the same image, with the service and masked, interleaved.
	for i in $(seq "${E2E_COST_BOOTS:-3}"); do
		for arm in plugin masked; do
			b=$suite-cost-$i
			args="user_booted_reported"
			[ $arm = plugin ] || b=$b-masked args="$args systemd.mask=user-booted.service e2e.nowait"
			boot "$b" "$images/enabled.ext4" "$args" || continue
			echo "$b $arm $(cost_s "$b")" >>"$out/$suite-cost"
			[ $arm = masked ] && continue
			reported "$b"
			started=$(sed -n 's/^journal=.*user-booted-notify\[[0-9]*\]: Started at \([0-9]*\) us.*/\1/p' "$out/$b.kv")
			check "$b: the start job completed before the helper's main() ran: startup never waited for its work" \
				"job done at $(kv "$b" helper.ActiveEnterTimestampMonotonic) us, helper's main() at ${started:-?} us, startup finished at $(kv "$b" FinishTimestampMonotonic) us" \
				eval '[ -n "$started" ] && [ "$(kv "$b" helper.ActiveEnterTimestampMonotonic)" -gt 0 ] &&
					[ "$(kv "$b" helper.ActiveEnterTimestampMonotonic)" -lt "$started" ]'
		done
	done
	cost_summary "$suite"
	rm -f "$out/$suite-disk.ext4"
	echo "# $suite: $(sed -n 's/.*systemd\[1\]: systemd \([^ ]*\) running.*/systemd \1/p' "$out/$suite-default.log" | head -n 1)" \
		"images ${build_s}s, boots ${SECONDS}s wall clock"
done
finish
