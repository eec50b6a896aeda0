#!/bin/bash
# End-to-end test of the systemd plugin under real systemd (Debian bookworm,
# systemd 252): boots build/bzImage twice under QEMU on the image from
# scripts/rootfs.sh.  The probe unit in the image prints what it saw between
# "E2E| BEGIN" and "E2E| END"; this script judges it.
#
#   1. user_booted_reported, and a slow unit that keeps startup going after
#      the helper started: the helper catches StartupFinished and ends boot
#      ("reported", by user-booted-notify's pid), after systemd's
#      FinishTimestamp and within 2 s of it; no failed units.
#   2. The same with the plugin switched off (user_booted.auto=0) and
#      user_booted_timeout=5: the kernel's timeout ends boot; no failed units.
#
# Prints "ok N - ..." / "not ok N - ..." and "N passed, N failed"; exits
# non-zero on any failure.  Logs: build/systemd-e2e/boot-*.log.
set -eu
. "$(dirname "$0")/lib.sh"

out=$BUILD/systemd-e2e
mkdir -p "$out"
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
image=$(bash "$TOP/scripts/rootfs.sh")

# boot NAME APPEND: boots once; the probe's key=value lines go to NAME.kv.
boot() {
	local log=$out/boot-$1.log rc=0
	bash "$TOP/scripts/qemu-run.sh" -d "$image" -t 150 -l "$log" \
		-a "root=/dev/vda rw systemd.wants=user-booted-e2e.service $2" || rc=$?
	tr -d '\r' <"$log" | sed -n '/E2E| BEGIN/,/E2E| END/s/^.*E2E| //p' >"$out/$1.kv"
	check "boot $1: systemd booted, the probe reported and powered off" "log: $log" \
		test $rc -eq 0 -a -s "$out/$1.kv"
}
kv() { sed -n "s/^$2=//p" "$out/$1.kv" | head -n 1; } # kv BOOT KEY
# The kernel's "userspace boot ended" line as: timestamp reason comm pid.
ended() {
	sed -n 's/^dmesg=\[ *\([0-9.]*\)\] user_booted: userspace boot ended (\([a-z]*\)).* by \(.*\)\[\([0-9]*\)\];.*/\1 \2 \3 \4/p' \
		"$out/$1.kv" | head -n 1
}
no_failed_units() {
	check "boot $1: no failed units" "$(sed -n 's/^failed-\(unit\|log\)=//p' "$out/$1.kv" | tr '\n' ';')" \
		test "$(kv "$1" failed)" = 0
}
# Without kernel support the generator must stay out of the way; the rest
# of the checks need the sysctl.
has_sysctl() {
	[ "$(kv "$1" sysctl)" != missing ] && return 0
	check "boot $1: kernel lacks kernel.user_booted, the generator skipped" "" \
		test "$(kv "$1" helper.LoadState)" = not-found
	check "boot $1: kernel has kernel.user_booted (needed for the other checks)" "" false
	return 1
}
between() { awk -v x="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(x != "" && x >= lo && x <= hi) }'; }

SECONDS=0
# --- 1: the plugin reports
boot reported "user_booted_reported systemd.wants=user-booted-e2e-late.service"
if has_sysctl reported; then
	read -r ts reason comm pid <<<"$(ended reported)" || true
	helper_pid=$(kv reported helper.ExecMainPID)
	check "boot reported: kernel says the helper ended boot, reason reported" \
		"kernel: reason=${reason:-none} by ${comm:-?}[${pid:-?}]; helper pid ${helper_pid:-?}" \
		test "${reason:-}" = reported -a "${comm:-}" = user-booted-not -a "${pid:-}" = "$helper_pid"

	# printk stamps (local_clock) to CLOCK_MONOTONIC: the probe read the
	# monotonic clock just before and after logging each "clock sync I"
	# marker; the narrowest of those windows bounds the offset.
	finish_us=$(kv reported FinishTimestampMonotonic)
	read -r lo hi <<<"$(sed -n -e 's/^sync\.\([0-9]*\)=\([0-9]*\) \([0-9]*\)$/sync \1 \2 \3/p' \
		-e 's/^dmesg=\[ *\([0-9.]*\)\] user-booted-e2e: clock sync \([0-9]*\)$/mark \2 \1/p' "$out/reported.kv" |
		awk -v e="${ts:-}" -v f="$finish_us" '
			$1 == "sync" { m1[$2] = $3; m2[$2] = $4 }
			$1 == "mark" { p[$2] = $3 }
			END {
				for (i in p) if (i in m1 && (best == "" || m2[i] - m1[i] < m2[best] - m1[best])) best = i
				if (best == "" || e == "" || f == "") exit
				# event in CLOCK_MONOTONIC, minus FinishTimestamp, in s
				printf "%.3f %.3f\n", e - p[best] + m1[best] / 1e9 - f / 1e6, e - p[best] + m2[best] / 1e9 - f / 1e6
			}')" || true
	delay="boot ended ${lo:-?} to ${hi:-?} s after FinishTimestampMonotonic=$finish_us us"
	check "boot reported: boot ended after systemd's startup finished" "$delay" between "${lo:-}" 0 1e9
	check "boot reported: boot ended within 2 s of startup finishing" "" between "${hi:-}" -1e9 2
	check "boot reported: the helper caught the StartupFinished signal" \
		"$(sed -n 's/^journal=.*user-booted-notify\[[0-9]*\]: //p' "$out/reported.kv")" \
		grep -q 'learnt from the StartupFinished signal' "$out/reported.kv"
	check "boot reported: user-booted.service exited cleanly" "" \
		test "$(kv reported helper.Result)" = success -a "$(kv reported helper.ExecMainStatus)" = 0
fi
no_failed_units reported

# --- 2: the plugin switched off, the kernel's fallback ends boot
boot optout "user_booted_reported user_booted_timeout=5 user_booted.auto=0"
if has_sysctl optout; then
	read -r ts reason comm pid <<<"$(ended optout)" || true
	check "boot optout: the generator honoured user_booted.auto=0" "" \
		grep -q 'user-booted-generator.*Disabled by user_booted.auto=0' "$out/optout.kv"
	check "boot optout: the kernel's timeout ended boot" "reason=${reason:-none} at ${ts:-?} s" \
		test "${reason:-}" = timeout -a "$(kv optout helper.LoadState)" = not-found
fi
no_failed_units optout

echo "# ${SECONDS}s wall clock for the boots"
finish
