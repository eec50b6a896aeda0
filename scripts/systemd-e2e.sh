#!/bin/bash
# End-to-end test of the systemd plugin under real systemd: Debian bookworm
# (systemd 252) and Debian sid (systemd 262), booting build/bzImage under
# QEMU on the images from scripts/rootfs.sh.  The probe unit in the image
# prints what it saw between "E2E| BEGIN" and "E2E| END"; this script judges
# it.  "Reported" below means: the kernel's "userspace boot ended (reported)"
# names user-booted-report's process (the service's ExecMainPID), came after
# systemd's FinishTimestamp and within 30 s of it (a bound for the order,
# not the speed: TCG; the lag is printed as data, SUITE-lags, with when the
# script's sh ran (the kernel's exec trace) and how often its wait was asked
# again, and judged by make bench), once, after init launch; the service exited 0 and its
# processes logged nothing at notice or above.  Boots (kernel parameters
# beyond root=; all but unreported with user_booted_reported):
#
#   default      nothing else: reported; the service's job the last of
#                startup (after the probe's and systemd-update-utmp-runlevel's,
#                bookworm); the generator linked the service into basic,
#                rescue and emergency.target.wants of generator.early and
#                said nothing; no failed units.
#   multi-user   systemd.unit=multi-user.target, a slow unit ordered after
#                the boot targets, still running when the script starts,
#                and systemctl daemon-reload while the script waits (the
#                generator runs again): reported (after that unit).
#   rescue, emergency   systemd.unit=rescue.target / emergency.target: reported.
#   emergency-failure  e2e.badmount: a mount local-fs.target requires fails,
#                its OnFailure= starts emergency.target: reported.
#   custom-reexec  systemd.unit=user-booted-e2e.target (a target of its
#                own), a unit that fails ("degraded"), and systemctl
#                daemon-reexec while the script waits in systemctl (that wait
#                never returns): reported (after asking again).
#   kernel-timeout  the fallback at 30 s (command line); a unit, once the
#                script waits, holds startup until the kernel ended boot and
#                the script warned and exited: the kernel's own warning text,
#                the script's one warning (default level) naming the held
#                job, its exit 0 before startup finished (no wait, no write).
#   masked       the image where "systemctl mask user-booted.service" ran:
#                the generator's links are there, the service never ran, the
#                kernel's fallback (5 s) ended boot.
#   optout       systemd.mask=user-booted.service (the one-boot switch): same.
#   unreported   no user_booted_reported: boot ended at init launch, the
#                generator wrote nothing, the service never ran.
#   system-update  /system-update exists (an offline update boot; its
#                cleanup, which reboots when no update service did, masked):
#                system-update.target pulls in sysinit.target only, not
#                basic.target, so the service is not in the boot; the
#                kernel's fallback ends it (as when an update reboots from
#                inside the transaction, startup never finishing).
#   initrd       (bookworm) through dracut's systemd initrd, which holds the
#                plugin too: switched root, reported once, by the real root.
#   soft-reboot  (systemd >= 254: sid) reported, then systemctl soft-reboot:
#                the second userspace's generator wrote nothing, the service
#                ran once in all, the kernel ended boot once.
#   kexec        reported, then systemctl kexec into the same kernel (as
#                systemd 261's live update does; the probe loads it with
#                kexec_file_load, the images have no kexec-tools): the
#                first boot reported, and the second reports again.
#   soft-reboot-early  (sid) the first userspace soft-reboots while its
#                startup still runs (the sysctl reads 0 then): the second
#                one's service reports.
#   cost-N, cost-N-masked  (N = 1..E2E_COST_BOOTS, default 3, interleaved;
#                make test: 0)
#                the plugin image, with and without (systemd.mask=) the
#                service: reported, and default.target -> FinishTimestamp of
#                both arms printed (median, each boot) and kept in
#                build/systemd-e2e/SUITE-cost, not judged: bench's to judge.
# The timeout boots use user_booted_timeout=5 (kernel-timeout: 30).
#
# E2E_NATIVE=1 (scripts/systemd-native.sh, NATIVE_CORE set): instead, PID 1
# with systemd-plugin/native's patch reports the end of boot itself:
#   native-default, native-multi-user, native-rescue   the image without the
#                plugin (default: no systemd.unit=): the kernel's
#                "userspace boot ended (reported)" names systemd[1], 0-100 ms
#                after systemd's FinishTimestamp.
#                native-emergency likewise, systemd.unit=emergency.target.
#   native-unreported, native-off, native-early  no user_booted_reported,
#                user_booted_reported=0, and user_booted_reported with
#                sysctl.kernel.user_booted=1: the kernel does not wait.
#   native-soft-reboot-early  (systemd >= 254) the first userspace
#                soft-reboots while its startup still runs (the sysctl
#                reads 0 then): the second one's PID 1 reports at its
#                FinishTimestamp (an unpatched or the earlier patched PID 1
#                leaves it to the kernel's fallback: this fails).
#   native-plugin  the plugin installed too: PID 1 reports, the plugin's
#                script writes 1 after it (a no-op) and exits 0.
#
# E2E_SUITES="bookworm sid" (default) picks the suites.  Prints "ok N - ..." /
# "not ok N - ..." and "N passed, N failed"; exits non-zero on any failure.
# Logs: build/systemd-e2e/SUITE-BOOT.log.
set -eu
. "$(dirname "$0")/lib.sh"

out=$BUILD/systemd-e2e
mkdir -p "$out"
# One "BOOT LO HI" line per reported boot: the lag, in s, after
# FinishTimestamp; "BOOT ARM SECONDS" per cost boot.
for s in ${E2E_SUITES:-bookworm sid}; do rm -f "$out/$s-lags" "$out/$s-cost"; done
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

# Each exec into the kernel's trace buffer, on systemd's clock: the probe
# prints when the plugin's script ran (data on a late report).
EXECTRACE="trace_event=sched:sched_process_exec trace_clock=mono trace_buf_size=1M"
# boot B IMAGE APPEND: boots once as B (SUITE-NAME); the probe's key=value
# lines go to B.kv.  Returns non-zero if there is nothing to judge.
boot() {
	local b=$1 log=$out/$1.log rc=0
	# A fresh copy: every boot starts from the same disk.
	cp --sparse=always "$2" "$out/$suite-disk.ext4"
	# PREP=DEBUGFS-COMMANDS (one a line): changes to this boot's disk.
	# debugfs exits 0 whatever fails: its output is in LOG.prep, and the
	# boot's own checks fail without the change.
	[ -z "${PREP:-}" ] || printf '%s\n' "$PREP" | debugfs -w -f - "$out/$suite-disk.ext4" >"$log.prep" 2>&1
	# TIMEOUT: seconds for the whole run (two boots: the kexec case).
	# -r: the guest's RNG seeded at boot, so that startup does not end when
	# the entropy pool is ready (systemd-random-seed.service waits for it).
	bash "$TOP/scripts/qemu-run.sh" -r -d "$out/$suite-disk.ext4" ${INITRD:+-i "$INITRD"} -t "${TIMEOUT:-150}" -l "$log" \
		-a "root=/dev/vda rw systemd.wants=user-booted-e2e.service $EXECTRACE $3" 2>"$log.qemu" || rc=$?
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
generated() { grep -c '^generated=/run/systemd/generator.*/user-booted\.service$' "$out/$1.kv" || true; }
# Its three links, in generator.early (as bless-boot-generator writes).
links() { grep -c '^generated=/run/systemd/generator\.early/\(basic\|rescue\|emergency\)\.target\.wants/user-booted\.service$' "$out/$1.kv" || true; }
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

# reported B: user-booted-report ended boot, after startup finished.
reported() {
	local b=$1 ts reason comm pid lo hi pid_s
	read -r ts reason comm pid <<<"$(ended "$b")" || true
	pid_s=$(kv "$b" service.ExecMainPID)
	check "$b: user-booted-report ended boot (reason reported, by the service's process)" \
		"kernel: reason=${reason:-none} by ${comm:-?}[${pid:-?}]; service ExecMainPID ${pid_s:-?}; system $(kv "$b" system)" \
		test "${reason:-}" = reported -a "${comm:-}" = user-booted-rep -a "${pid:-}" = "$pid_s"
	read -r lo hi <<<"$(lag "$b" "${ts:-}")" || true
	# How often the script's wait ended without the finish and was asked
	# again (its debug lines): data on a late report.
	local asked started
	asked=$(grep -c '^journal=.*systemctl is-system-running --wait: .*asking again' "$out/$b.kv" || true)
	# When the script's sh ran (its exec, by the service's main PID),
	# relative to FinishTimestamp: after it, its first ask sees the finish.
	started=$(awk -v p="${pid_s:-}" -v f="$(kv "$b" FinishTimestampMonotonic)" \
		'$1 ~ /^exec=/ && $2 == p && $3 ~ /user-booted-report$/ && f > 0 { printf "%+.3f", substr($1, 6) - f / 1e6; exit }' "$out/$b.kv")
	echo "$b ${lo:-?} ${hi:-?} ${asked} ${started:-?}" >>"$out/$suite-lags"
	# The order is what must hold; how soon is make bench's to say, from
	# many boots (TCG: a bound no slow boot trips).
	local bound=30
	check "$b: boot ended once, after init launch, 0-$bound s after startup finished" \
		"lag ${lo:-?} to ${hi:-?} s after FinishTimestampMonotonic=$(kv "$b" FinishTimestampMonotonic); $(grep -c '^dmesg=.*userspace boot ended' "$out/$b.kv") ends; script forked at $(kv "$b" service.ExecMainStartTimestampMonotonic) us, ran ${started:-?} s after the finish, asked again $asked times: $(sed -n 's/^journal=.*--wait: \(.*\); asking again$/\1/p' "$out/$b.kv" | tr '\n' ';')" \
		eval 'between "${lo:-}" 0 1e9 && between "${hi:-}" -1e9 $bound &&
			[ "$(grep -c "^dmesg=.*userspace boot ended .* after init launch" "$out/$b.kv")" = 1 ]'
	check "$b: user-booted.service exited 0, logged nothing at notice or above" \
		"$(kv "$b" service.Result) status $(kv "$b" service.ExecMainStatus); $(sed -n 's/^loud=//p' "$out/$b.kv" | tr '\n' ';')" \
		eval 'test "$(kv "$b" service.Result)" = success -a "$(kv "$b" service.ExecMainStatus)" = 0 &&
			! grep -q "^loud=" "$out/$b.kv"'
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
# native_suite SUITE IMAGES: E2E_NATIVE's boots.
native_suite() {
	local b t
	for t in default multi-user rescue emergency; do
		b=$1-native-$t
		args=
		[ "$t" = default ] || args="systemd.unit=$t.target"
		boot "$b" "$2/native.ext4" "user_booted_reported $args" || continue
		by_pid1 "$b"
		check "$b: no plugin in the image" "service $(kv "$b" service.LoadState)" \
			test "$(kv "$b" service.LoadState)" = not-found
		case $t in rescue | emergency) ;; *) no_failed_units "$b" ;; esac
	done
	# The kernel's off switches: no parameter, =0, and a report before init
	# launch.
	for t in unreported off early; do
		b=$1-native-$t
		case $t in
		unreported) args= ;;
		off) args=user_booted_reported=0 ;;
		early) args="user_booted_reported sysctl.kernel.user_booted=1" ;;
		esac
		boot "$b" "$2/native.ext4" "$args" || continue
		read -r ts reason comm pid <<<"$(ended "$b")" || true
		check "$b: the kernel did not wait (the sysctl reads 1, no end-of-boot line)" \
			"sysctl $(kv "$b" sysctl), reason=${reason:-none} by ${comm:-?}" \
			eval 'test "$(kv "$b" sysctl)" = 1 && case ${reason:-} in ""|unreported) ;; *) false ;; esac'
		no_failed_units "$b"
	done
	b=$1-native-soft-reboot-early
	if [ "$1" != bookworm ] &&
		boot "$b" "$2/native.ext4" "user_booted_reported systemd.wants=user-booted-e2e-softearly.service"; then
		check "$b: the first userspace soft-rebooted before its startup finished, the kernel still waiting" \
			"first userspace: sysctl $(kv "$b" first.sysctl)" test "$(kv "$b" first.sysctl)" = 0
		by_pid1 "$b"
		no_failed_units "$b"
	fi
	b=$1-native-plugin
	if boot "$b" "$2/native-plugin.ext4" "user_booted_reported"; then
		by_pid1 "$b"
		check "$b: the plugin's script exited 0 (its write after PID 1's a no-op)" \
			"service $(kv "$b" service.Result) status $(kv "$b" service.ExecMainStatus)" \
			test "$(kv "$b" service.Result)" = success -a "$(kv "$b" service.ExecMainStatus)" = 0
		no_failed_units "$b"
	fi
}
# timed_out B WHY: the kernel's fallback ended boot, the service never ran.
timed_out() {
	local b=$1 ts reason comm pid
	read -r ts reason comm pid <<<"$(ended "$b")" || true
	check "$b: the kernel's timeout ended boot, the service never ran ($2)" \
		"reason=${reason:-none} at ${ts:-?} s; service pid $(kv "$b" service.ExecMainPID)" \
		test "${reason:-}" = timeout -a "$(kv "$b" service.ExecMainPID)" = 0
}
no_failed_units() {
	check "$1: no failed units" "$(sed -n 's/^failed-\(unit\|log\)=//p' "$out/$1.kv" | tr '\n' ';')" \
		test "$(kv "$1" failed)" = 0
}
hooked() { # B: the generator linked the service three times, silently
	check "$1: the generator linked user-booted.service into basic, rescue and emergency.target.wants, silently" \
		"$(links "$1") links; $(generator_lines "$1")" \
		test "$(links "$1")" = 3 -a -z "$(generator_lines "$1")"
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

timeout=user_booted_timeout=5
# The kexec boot's loader (systemd-plugin/tests/e2e/user-booted-e2e-kexec-load.c).
kexec_load=$out/user-booted-e2e-kexec-load
[ "${E2E_NATIVE:-0}" = 1 ] ||
	gcc -static -O2 -Wall -Wextra -o "$kexec_load" "$TOP/systemd-plugin/tests/e2e/user-booted-e2e-kexec-load.c" ||
	die "cannot build $kexec_load"
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
	# An admin's /etc/sysctl.d line for the read-only timeout (a boot
	# parameter): systemd-sysctl's write gets EACCES, which it ignores.
	printf 'kernel.user_booted_timeout = 300\n' >"$out/50-user-booted-e2e.conf"
	# (sid's image has no /etc/sysctl.d: made first; bookworm's has one.)
	if PREP="mkdir /etc/sysctl.d
write $out/50-user-booted-e2e.conf /etc/sysctl.d/50-user-booted-e2e.conf" \
		boot "$b" "$images/enabled.ext4" "user_booted_reported"; then
		echo "# $b: $(kv "$b" analyze | head -n 1)"
		reported "$b"
		check "$b: /etc/sysctl.d setting kernel.user_booted_timeout: systemd-sysctl not failed, system running, the timeout still 120" \
			"file: $(kv "$b" sysctld); systemd-sysctl $(kv "$b" sysctlsvc.ActiveState)/$(kv "$b" sysctlsvc.Result); system $(kv "$b" system); timeout $(kv "$b" timeout)" \
			test "$(kv "$b" sysctld)" = "kernel.user_booted_timeout = 300" \
			-a "$(kv "$b" sysctlsvc.ActiveState)" = active -a "$(kv "$b" sysctlsvc.Result)" = success \
			-a "$(kv "$b" system)" = running -a "$(kv "$b" timeout)" = 120
		# The order, from PID 1's timestamps: the service forked after
		# the probe's job (Before=) and utmp-runlevel's had ended.
		check "$b: the service's job was startup's last (after the probe's and, before 258, systemd-update-utmp-runlevel's)" \
			"service forked at $(kv "$b" service.ExecMainStartTimestampMonotonic) us; probe active at $(kv "$b" probe.ActiveEnterTimestampMonotonic) us; utmp-runlevel $(kv "$b" utmp.LoadState), exited at $(kv "$b" utmp.ExecMainExitTimestampMonotonic) us" \
			eval 's=$(kv "$b" service.ExecMainStartTimestampMonotonic) && [ "${s:-0}" -gt 0 ] &&
				[ "$(kv "$b" probe.ActiveEnterTimestampMonotonic)" -le "$s" ] &&
				case $(kv "$b" utmp.LoadState) in
				loaded) [ "$(kv "$b" utmp.ExecMainExitTimestampMonotonic)" -gt 0 ] &&
					[ "$(kv "$b" utmp.ExecMainExitTimestampMonotonic)" -le "$s" ] ;;
				not-found) [ "$suite" != bookworm ] ;;
				*) false ;;
				esac'
		hooked "$b"
		no_failed_units "$b"
	fi
	b=$suite-multi-user
	if boot "$b" "$images/enabled.ext4" \
		"user_booted_reported systemd.unit=multi-user.target systemd.wants=user-booted-e2e-late.service systemd.wants=user-booted-e2e-reload.service"; then
		check "$b: systemctl daemon-reload ran while the script waited" "reload $(kv "$b" reload.Result)" \
			test "$(kv "$b" reload.Result)" = success
		check "$b: the slow unit ran while the script waited, and ended before startup did" \
			"late $(kv "$b" late.Result), exited at $(kv "$b" late.ExecMainExitTimestampMonotonic) us; script started at $(kv "$b" service.ExecMainStartTimestampMonotonic) us; startup finished at $(kv "$b" FinishTimestampMonotonic) us" \
			eval 'test "$(kv "$b" late.Result)" = success &&
				[ "$(kv "$b" service.ExecMainStartTimestampMonotonic)" -lt "$(kv "$b" late.ExecMainExitTimestampMonotonic)" ] &&
				[ "$(kv "$b" late.ExecMainExitTimestampMonotonic)" -le "$(kv "$b" FinishTimestampMonotonic)" ]'
		reported "$b"
		hooked "$b"
		no_failed_units "$b"
	fi
	for t in rescue emergency; do
		b=$suite-$t
		boot "$b" "$images/enabled.ext4" "user_booted_reported systemd.unit=$t.target" || continue
		reported "$b"
	done
	b=$suite-emergency-failure
	if boot "$b" "$images/enabled.ext4" "user_booted_reported e2e.badmount"; then
		check "$b: the required mount failed, emergency.target active" \
			"mount $(kv "$b" badmount.ActiveState)/$(kv "$b" badmount.Result); emergency.target $(kv "$b" emergency.target); system $(kv "$b" system)" \
			test "$(kv "$b" badmount.Result)" != success -a "$(kv "$b" emergency.target)" = active
		reported "$b"
	fi
	# A target of its own, a failing unit, and daemon-reexec while the
	# script waits: one boot.
	b=$suite-custom-reexec
	if boot "$b" "$images/enabled.ext4" \
		"user_booted_reported systemd.unit=user-booted-e2e.target systemd.wants=user-booted-e2e-fail.service systemd.wants=user-booted-e2e-reexec.service"; then
		check "$b: a unit failed, system degraded" "system $(kv "$b" system), failed $(kv "$b" failed-unit)" \
			test "$(kv "$b" system)" = degraded -a "$(kv "$b" failed-unit)" = user-booted-e2e-fail.service
		check "$b: PID 1 re-executed while the script waited in systemctl" "reexec $(kv "$b" reexec.Result)" \
			test "$(kv "$b" reexec.Result)" = success
		# systemctl's wait across a re-exec never returns (252 and 262;
		# systemd issues 27167, 27204): the script's debug line says it
		# gave that wait up and asked again.
		check "$b: the script gave up the wait the re-exec hung, and asked again" \
			"$(sed -n 's/^journal=.*--wait: \(.*\); asking again$/\1/p' "$out/$b.kv" | tr '\n' ';')" \
			grep -q '^journal=.*systemctl is-system-running --wait: .*exit 124 (124: timed out); asking again$' "$out/$b.kv"
		reported "$b"
		hooked "$b"
	fi
	b=$suite-kernel-timeout
	if boot "$b" "$images/enabled.ext4" "user_booted_reported user_booted_timeout=30 systemd.wants=user-booted-e2e-hold.service"; then
		read -r ts reason comm pid <<<"$(ended "$b")" || true
		warn='user_booted: init did not report within 30 s: ending userspace boot; have init write 1 to kernel.user_booted or raise user_booted_timeout='
		check "$b: the kernel's fallback ended boot while startup ran, with its warning" \
			"reason=${reason:-none} at ${ts:-?} s; $(grep -c "^dmesg=.*$warn" "$out/$b.kv") warnings" \
			eval 'test "${reason:-}" = timeout && grep -q "^dmesg=\[ *[0-9.]*\] $warn\$" "$out/$b.kv"'
		check "$b: the script warned once, at warning level, naming the job startup waited for" \
			"$(sed -n 's/^warned=//p' "$out/$b.kv" | tr '\n' ';')" \
			eval '[ "$(grep -c "^warned=" "$out/$b.kv")" = 1 ] &&
				grep -q "^warned=The kernel ended userspace boot before systemd.s startup finished; startup still waits for: .*user-booted-e2e-hold.service start (running)" "$out/$b.kv"'
		check "$b: then the script exited 0 while startup still ran, without waiting for its end" \
			"hold $(kv "$b" hold.Result); script exited at $(kv "$b" service.ExecMainExitTimestampMonotonic) us status $(kv "$b" service.ExecMainStatus), startup finished at $(kv "$b" FinishTimestampMonotonic) us; $(grep -c '^dmesg=.*userspace boot ended' "$out/$b.kv") ends" \
			eval 'test "$(kv "$b" hold.Result)" = success -a "$(kv "$b" service.ExecMainStatus)" = 0 &&
				[ "$(kv "$b" service.ExecMainExitTimestampMonotonic)" -gt 0 ] &&
				[ "$(kv "$b" service.ExecMainExitTimestampMonotonic)" -lt "$(kv "$b" FinishTimestampMonotonic)" ] &&
				[ "$(grep -c "^dmesg=.*userspace boot ended" "$out/$b.kv")" = 1 ]'
		no_failed_units "$b"
	fi
	b=$suite-masked
	if boot "$b" "$images/masked.ext4" "user_booted_reported $timeout"; then
		check "$b: masked, and the generator's links to it are there" \
			"$(kv "$b" service.LoadState), $(links "$b") links" \
			test "$(kv "$b" service.LoadState)" = masked -a "$(links "$b")" = 3
		timed_out "$b" "systemctl mask"
		no_failed_units "$b"
	fi
	b=$suite-optout
	if boot "$b" "$images/enabled.ext4" "user_booted_reported $timeout systemd.mask=user-booted.service"; then
		check "$b: systemd.mask= on the command line masks the service" "$(kv "$b" service.LoadState)" \
			test "$(kv "$b" service.LoadState)" = masked
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
		check "$b: the generator wrote nothing and said nothing; the service never ran" \
			"$(generated "$b") files; $(generator_lines "$b")" \
			test "$(generated "$b")" = 0 -a -z "$(generator_lines "$b")" -a \
			"$(kv "$b" service.ExecMainPID)" = 0
		no_failed_units "$b"
	fi
	b=$suite-system-update
	# system-update-cleanup.service reboots at once (SuccessAction=reboot)
	# when no update service did: masked, the boot stays there, as while
	# an update runs.
	if PREP="symlink /system-update /var/cache" boot "$b" "$images/enabled.ext4" \
		"user_booted_reported $timeout systemd.mask=system-update-cleanup.service"; then
		echo "# $b: system-update.target $(kv "$b" system-update.target), basic.target $(kv "$b" basic.target), system $(kv "$b" system), FinishTimestampMonotonic=$(kv "$b" FinishTimestampMonotonic)"
		check "$b: booted into system-update.target, basic.target not in the boot" \
			"system-update.target $(kv "$b" system-update.target), basic.target $(kv "$b" basic.target)" \
			test "$(kv "$b" system-update.target)" = active -a "$(kv "$b" basic.target)" = inactive
		timed_out "$b" "basic.target is not in an offline update's boot"
	fi
	b=$suite-initrd
	if [ -f "$images/initrd.img" ] &&
		INITRD=$images/initrd.img boot "$b" "$images/enabled.ext4" "user_booted_reported"; then
		check "$b: dracut's initrd holds the generator, the unit and the script" "" \
			eval '[ "$(zcat "$images/initrd.img" | cpio -t --quiet 2>/dev/null | grep -c "user-booted")" -ge 3 ]'
		check "$b: booted through the initrd and switched root" "$(kv "$b" initrd)" \
			test "$(kv "$b" initrd)" = switched-root
		reported "$b"
		hooked "$b"
		no_failed_units "$b"
	fi
	b=$suite-kexec
	if TIMEOUT=300 PREP="write $BUILD/bzImage /boot/user-booted-e2e-bzImage
write $kexec_load /usr/local/sbin/user-booted-e2e-kexec-load" boot "$b" "$images/enabled.ext4" "user_booted_reported e2e.kexec"; then
		read -r _ reason comm pid <<<"$(sed -n 's/^first\.dmesg=\[ *\([0-9.]*\)\] user_booted: userspace boot ended (\([a-z]*\)).* by \(.*\)\[\([0-9]*\)\];.*/\1 \2 \3 \4/p' "$out/$b.kv" | head -n 1)" || true
		check "$b: the first boot reported, then kexec'd into the same kernel" \
			"first boot: sysctl $(kv "$b" first.sysctl), reason=${reason:-none} by ${comm:-?}[${pid:-?}], service ExecMainPID $(kv "$b" first.ExecMainPID); $(kv "$b" kexec_failed)" \
			eval 'test "$(kv "$b" first.sysctl)" = 1 -a "${reason:-}" = reported -a "${comm:-}" = user-booted-rep &&
				test "${pid:-}" = "$(kv "$b" first.ExecMainPID)" &&
				test -z "$(kv "$b" kexec_failed)" && grep -q "^cmdline=.* e2e.kexeced" "$out/$b.kv"'
		reported "$b"
		hooked "$b"
		no_failed_units "$b"
	fi
	b=$suite-soft-reboot-early
	if [ "$suite" != bookworm ] &&
		boot "$b" "$images/enabled.ext4" "user_booted_reported systemd.wants=user-booted-e2e-softearly.service"; then
		check "$b: the first userspace soft-rebooted before its startup finished, the kernel still waiting" \
			"first userspace: sysctl $(kv "$b" first.sysctl)" test "$(kv "$b" first.sysctl)" = 0
		reported "$b"
		no_failed_units "$b"
	fi
	b=$suite-soft-reboot
	if [ "$suite" != bookworm ] &&
		boot "$b" "$images/enabled.ext4" "user_booted_reported e2e.softreboot"; then
		check "$b: reported before the soft-reboot" "first userspace: sysctl $(kv "$b" first.sysctl)" \
			test "$(kv "$b" first.sysctl)" = 1
		# PID 1 carries unit state across a soft-reboot: count the
		# service's starts in the journal, not ExecMainPID.
		check "$b: after it the generator wrote nothing, the service ran once in all, the kernel ended boot once" \
			"$(grep -c '^journal=.*Started .*Report the End of Userspace Boot' "$out/$b.kv") starts; $(generated "$b") generated; $(grep -c '^dmesg=.*userspace boot ended' "$out/$b.kv") ends" \
			eval 'test "$(grep -c "^journal=.*Started .*Report the End of Userspace Boot" "$out/$b.kv")" = 1 -a "$(generated "$b")" = 0 &&
				test "$(grep -c "^dmesg=.*userspace boot ended" "$out/$b.kv")" = 1'
	fi
	# Cost: the same image, with the service and masked, interleaved.
	for i in $(seq "${E2E_COST_BOOTS:-3}"); do
		for arm in plugin masked; do
			b=$suite-cost-$i
			args="user_booted_reported"
			[ $arm = plugin ] || b=$b-masked args="$args systemd.mask=user-booted.service e2e.nowait"
			boot "$b" "$images/enabled.ext4" "$args" || continue
			echo "$b $arm $(cost_s "$b")" >>"$out/$suite-cost"
			[ $arm = masked ] || reported "$b"
		done
	done
	[ ! -s "$out/$suite-lags" ] ||
		echo "# $suite: report after FinishTimestamp, s (lo-hi, each reported boot; (S): the script's sh ran S s after it; +N: its wait asked again N times): $(awk '{ printf "%s%s %s-%s (%s)%s", (NR > 1 ? ";" : ""), $1, $2, $3, $5, ($4 > 0 ? " +" $4 : "") }' "$out/$suite-lags")"
	[ ! -s "$out/$suite-cost" ] || cost_summary "$suite"
	rm -f "$out/$suite-disk.ext4"
	echo "# $suite: $(sed -n 's/.*systemd\[1\]: systemd \([^ ]*\) running.*/systemd \1/p' "$out/$suite-default.log" | head -n 1)" \
		"images ${build_s}s, boots ${SECONDS}s wall clock"
done
finish
