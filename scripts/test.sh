#!/bin/bash
# make test: every suite of the project.  Each suite prints TAP lines; this
# counts them and ends with the line "N passed, N failed".
#
# The base kernel (7.3) gets everything: guest suites on the qemu and debug
# kernels, the systemd plugin's suites, lint.  Each backport in BACKPORTS
# (default 6.12) gets the guest suites that its deltas can break (see
# guest_suites) on its qemu kernel.
# Quicker partial runs: DEBUG_KERNEL=0 (no debug-kernel boots), SYSTEMD_E2E=0,
# SYSTEMD_HOST=0, LINT=0, INIT_E2E=0 (no boots of the other init systems'
# recipes, scripts/init-e2e.sh), BACKPORTS= (none).  TEST_LANES=1: one suite
# at a time (default: two lanes, see below).
# KERNEL=6.12: that backport alone, its qemu-kernel guest suites (the
# rest is about the base series: off unless asked for).
set -u
. "$(dirname "$0")/lib.sh"

if [ "$KERNEL" != "$KERNEL_MAIN" ]; then
	DEBUG_KERNEL=${DEBUG_KERNEL:-0} SYSTEMD_E2E=${SYSTEMD_E2E:-0} LINT=${LINT:-0}
	SYSTEMD_HOST=${SYSTEMD_HOST:-0} INIT_E2E=${INIT_E2E:-0} BACKPORTS=${BACKPORTS:-}
fi
BACKPORTS=${BACKPORTS-$KERNEL_BACKPORTS}
LOGS=$BUILD/test-logs$KSUFFIX
rm -rf "$LOGS" && mkdir -p "$LOGS"
passed=0 failed=0 skipped=0

# tally NAME LOG [SECONDS]: add the log's top-level TAP results to the totals.
tally() {
	local name=$1 log=$2 took=${3:-} p f s
	s=$(grep -cE '^ok [0-9]+ .*# SKIP' "$log")
	p=$(( $(grep -cE '^ok [0-9]+' "$log") - s ))
	f=$(grep -cE '^not ok [0-9]+' "$log")
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
	grep -E '^not ok [0-9]+' "$log" | sed "s|^|$name: |" >> "$LOGS/failures"
	printf '%-28s %3d passed, %d failed, %d skipped  (%s%s)\n' "$name" "$p" "$f" "$s" "${log#"$TOP"/}" "${took:+, $took s}"
}

# fail NAME WHY: a suite that could not run counts as one failure.
fail() {
	failed=$((failed + 1))
	echo "$1: $2" >> "$LOGS/failures"
	printf '%-28s FAILED: %s\n' "$1" "$2"
}

# Two lanes of tasks, each lane one task at a time (a task: a guest boot or
# a host-side suite).  A heavy task keeps most of the two cores busy on its
# own (a debug-kernel boot, KASAN: 1.2 cores; a systemd boot: 1.6); a light
# one mostly waits on a timer (a qemu-kernel boot: 0.4-0.95).  One of each
# at a time where timing bounds are judged: more starves the guests, whose
# timers run on the host's clock (three heavy at once broke a drivers suite
# and an init's boot; scripts/README.md "What make test runs").  The second
# round runs two guests whose bounds only order events (see there).
# TEST_LANES=1: everything in one lane.
heavy=() light=()
# queue LANE KIND NAME COMMAND...: add a task; KIND (guest, suite) says how
# judge() reads its result.
queue() { local -n q=$1; shift; q+=("$(printf '%q ' "$@")"); }
# lane TASK...: run the tasks one after another, each result a line on fd 3.
lane() {
	local t kind name rc t0
	for t in "$@"; do
		eval "set -- $t"
		kind=$1 name=$2
		shift 2
		t0=$SECONDS rc=0
		"$@" 3>&- || rc=$?
		echo "$kind $name $rc $((SECONDS - t0))" >&3
	done
}
# judge KIND NAME RC SECONDS: tally a task that ended.
judge() {
	case $1 in
	guest)
		# 1: the script failed (its "not ok" lines count); 2: nothing to
		# judge, and the failure shows qemu-run.sh's verdict, where a hung
		# guest's vCPUs were and the console's last lines.
		tally "$2" "$LOGS/$2.log" "$4"
		[ "$3" -eq 0 ] || { [ "$3" -eq 1 ] && grep -qE '^not ok' "$LOGS/$2.log"; } ||
			fail "$2" "$(q=$LOGS/$2.qemu; head -n 1 "$q"; grep '^vCPU at' "$q"; tail -n 4 "$q")" ;;
	suite)
		[ "$3" -eq 0 ] || grep -qE '^not ok' "$LOGS/$2.log" ||
			fail "$2" "exited non-zero without a failing test (see $LOGS/$2.log)"
		tally "$2" "$LOGS/$2.log" "$4" ;;
	esac
}
# run_lanes: run both lanes at once and judge each task as it ends; both
# are empty again when it returns.
run_lanes() {
	local fifo=$LOGS/.lanes kind name rc took judged=0
	rm -f "$fifo" && mkfifo "$fifo"
	if [ "${TEST_LANES:-2}" = 1 ]; then
		lane "${heavy[@]}" "${light[@]}" 3> "$fifo" &
	else
		{ lane "${heavy[@]}" & lane "${light[@]}" & wait; } 3> "$fifo" &
	fi
	while read -r kind name rc took; do
		judge "$kind" "$name" "$rc" "$took"
		judged=$((judged + 1))
	done < "$fifo"
	wait
	rm -f "$fifo"
	# A lane that died took its remaining tasks with it.
	[ "$judged" -eq $((${#heavy[@]} + ${#light[@]})) ] ||
		fail lanes "$(($((${#heavy[@]} + ${#light[@]})) - judged)) tasks never ended"
	heavy=() light=()
}

# boot NAME IMAGE INITRAMFS "APPEND": one guest boot running ub.run=SCRIPT;
# exits with qemu-run.sh's status (2: nothing to judge).
boot() {
	local name=$1 log=$LOGS/$1.log rc
	for try in 1 2; do
		"$TOP/scripts/qemu-run.sh" -k "$2" -i "$3" -l "$log" -t "$GUEST_TIMEOUT" \
			-a "$4" 2>"$LOGS/$name.qemu"
		rc=$?
		# A known TCG fault, not the code under test (see MEASURING.md): retry once.
		if [ $rc -eq 2 ] && [ $try -eq 1 ] && grep -q 'Oops: int3' "$log" &&
		   grep -q 'sched_clock' "$log"; then
			echo "$name: TCG int3 fault in sched_clock; first try: $log.int3" | tee -a "$LOGS/retries" >&2
			mv "$log" "$log.int3"
			continue
		fi
		# A boot whose own tracing failed to set up (the guest says so:
		# boot-rcu-report.sh's boot-time kprobe without its events
		# directory): retried once, and listed.
		if [ $rc -ne 0 ] && [ $try -eq 1 ] && grep -q 'UB-BOOT-FAULT: ' "$log"; then
			echo "$name: $(grep -m 1 -o 'UB-BOOT-FAULT: .*' "$log" | tr -d '\r' | cut -d' ' -f2-); first try: $log.fault" |
				tee -a "$LOGS/retries" >&2
			mv "$log" "$log.fault"
			continue
		fi
		# A hang before init ran, with no kernel warning: one kunit boot in
		# about 80 beside busy loops stopped in the initcalls, at the
		# clocksource switch, where the series has only parsed its
		# parameters and registered its sysctl (and then cgroup's subscriber).
		# Cause not established (the vCPUs' places are in the log now):
		# retried once, and listed; a second hang fails.
		if [ $rc -eq 2 ] && [ $try -eq 1 ] && grep -q '^qemu: timeout' "$LOGS/$name.qemu" &&
		   ! grep -q 'Run /init as init process' "$log" && ! grep -qE "$KERNEL_WARNING_RE" "$log"; then
			echo "$name: hung before init ran ($(grep '^vCPU at' "$LOGS/$name.qemu" | cut -d' ' -f4 | paste -sd,)); first try: $log.hung" |
				tee -a "$LOGS/retries" >&2
			mv "$log" "$log.hung"
			mv "$LOGS/$name.qemu" "$LOGS/$name.qemu.hung"
			continue
		fi
		break
	done
	return $rc
}

# suite LANE NAME COMMAND...: a host-side suite printing TAP, as a task.
suite() { queue "$1" suite "$2" logged "${@:2}"; }
logged() { local name=$1; shift; "$@" > "$LOGS/$name.log" 2>&1; }

# summary: the last line.
summary() { echo "$passed passed, $failed failed, $skipped skipped"; }

# Everything the suites install, installed now: tasks must not race for apt.
packages=()
# (lint assembles the backports' trees even when BACKPORTS= boots none)
[ "${LINT:-1}" = 0 ] || packages+=("${LINT_PACKAGES[@]}")
[ "${LINT:-1}" = 0 ] || for k in $KERNEL_BACKPORTS; do packages+=("linux-source-$k"); done
[ "${SYSTEMD_E2E:-1}${INIT_E2E:-1}" = 00 ] || packages+=(mmdebstrap systemd)
if ! ("$TOP/scripts/setup.sh" && need_packages "${packages[@]}" &&
	for k in $BACKPORTS; do KERNEL=$k "$TOP/scripts/setup.sh" || exit; done); then
	fail setup "installing the packages failed"
	summary
	exit 1
fi

# The images of the systemd and init e2e suites need no kernel: mmdebstrap
# fetches and unpacks them while the kernels build (on a fresh machine; later
# runs find them cached).
images=
if [ "${SYSTEMD_E2E:-1}" = 1 ] || [ "${INIT_E2E:-1}" = 1 ]; then
	{
		if [ "${SYSTEMD_E2E:-1}" = 1 ]; then
			for s in ${E2E_SUITES:-bookworm sid}; do "$TOP/scripts/rootfs.sh" "$s"; done
		fi
		[ "${INIT_E2E:-1}" = 0 ] || INIT_E2E_BASES_ONLY=1 "$TOP/scripts/init-e2e.sh"
	} > "$LOGS/images.log" 2>&1 &
	images=$!
fi

log "building the kernels (log: ${LOGS#"$TOP"/}/build.log; a fresh machine takes a while)"
# The kernel flavours to build and boot.
flavours=qemu targets="kernel guest-bin"
[ "${DEBUG_KERNEL:-1}" = 0 ] || flavours="qemu debug" targets="$targets kernel-debug"
build_ok=1
# build KERNEL TARGET: one make target, timed (scripts/README.md "Timings").
build() {
	local t0=$SECONDS
	[ $build_ok = 1 ] || return 0
	KERNEL=$1 make -s -C "$TOP" "$2" >> "$LOGS/build.log" 2>&1 || build_ok=0
	echo "# built $1 $2 in $((SECONDS - t0)) s"
}
# The backports' trees (unpacking and committing a kernel source: a minute
# on one core each) are made while the base kernel builds.
{ for k in $BACKPORTS; do KERNEL=$k "$TOP/scripts/tree.sh" >/dev/null || exit; done; } > "$LOGS/trees.log" 2>&1 &
trees=$!
for t in $targets; do build "$KERNEL" "$t"; done
wait "$trees" || { echo "# the backports' trees failed (the build tries again):"; tail -n 5 "$LOGS/trees.log"; }
for k in $BACKPORTS; do build "$k" kernel; done
if [ $build_ok = 0 ]; then
	tail -n 30 "$LOGS/build.log"
	fail build "building the kernels failed (see $LOGS/build.log)"
	[ -z "$images" ] || wait "$images"
	summary
	exit 1
fi
[ -z "$images" ] || wait "$images" || tail -n 5 "$LOGS/images.log"
echo "# setup, kernels and images: $SECONDS s"

# Every guest script with an "# append: PARAMS" line is a suite of its own,
# booted with those kernel parameters: on the qemu kernel, and again on the
# debug kernel (lockdep, KASAN, ...) unless its "# flavour:" line says
# otherwise.  "# flavour: qemu" marks the scripts that reach no code path
# of the series another debug boot does not reach already (the stock path,
# a second knob around the same report).  "# kernels:" limits a script to
# some kernels.  The backports in BACKPORTS boot only the scripts that
# their per-version deltas (scripts/README.md "Kernels") can break: "# backports: no"
# marks the others (KERNEL=6.12 make test boots them all).
flavours_of() { sed -n 's/^# flavour: //p' "$1" | grep . || echo "qemu debug"; }
runs_on() { ! grep -q '^# kernels:' "$1" || sed -n 's/^# kernels: //p' "$1" | grep -qw "$2"; }
# guest_suites KERNEL FLAVOURS [backport]: every guest script and the
# harness, on the named kernel's images; with "backport", not those marked
# "# backports: no".  Suite names of a backport carry its version.
guest_suites() {
	local k=$1 flavours=$2 backport=${3:-} ks= flavour t name suffix image lane
	[ "$k" = "$KERNEL_MAIN" ] || ks=-$k
	for flavour in $flavours; do
		KERNEL=$k "$TOP/scripts/initramfs.sh" "$flavour" "$BUILD/initramfs-$flavour$ks.cpio.gz"
		image=$BUILD/bzImage$ks suffix= lane=light
		[ "$flavour" = debug ] && image=$BUILD/bzImage-debug$ks suffix=-debug lane=heavy
		for t in "$TOP"/scripts/guest/*.sh; do
			grep -q '^# append:' "$t" || continue
			flavours_of "$t" | grep -qw "$flavour" || continue
			runs_on "$t" "$k" || continue
			[ -z "$backport" ] || ! grep -q '^# backports: no' "$t" || continue
			name=${t##*/}; name=${name%.sh}
			queue $lane guest "$name$suffix$ks" boot "$name$suffix$ks" "$image" \
				"$BUILD/initramfs-$flavour$ks.cpio.gz" \
				"ub.run=$name $(sed -n 's/^# append://p' "$t")"
		done
	done
	# The QEMU runner itself: vCPU count, panic and hang detection.
	suite light "harness$ks" env KERNEL="$k" "$TOP/scripts/test-harness.sh"
}
guest_suites "$KERNEL" "$flavours"

# Two rounds of both lanes.  First the heavy lane has the debug kernel's
# boots and lint (checkpatch, kernel-doc, Sphinx, W=1 and sparse on the
# series: a build on both cores, at nice 19 so that the guest beside it
# keeps its share), the light lane the base kernel's qemu boots and
# the host-side suites.  Then the heavy lane has the systemd end-to-end
# families, one per systemd version, and the light lane the backports'
# boots and the other inits' recipes: both the families' and init-e2e's
# bounds only order events (how soon the report comes is make bench's to
# say), so the two heavy guests side by side skew nothing they judge, and
# the debug boots' bounds keep the light lane beside them that they were
# drawn for.  The families' cost pair (the
# service against masked, not judged) is make bench's (workload 12):
# E2E_COST_BOOTS=N adds N pairs.
[ "${SYSTEMD_HOST:-1}" = 0 ] ||
	suite light systemd-host "$TOP/systemd-plugin/tests/run-host-tests.sh"
[ "${LINT:-1}" = 0 ] || suite heavy lint nice -n 19 "$TOP/scripts/lint.sh"
# second LANE: the second round's tasks, init-e2e in LANE; without the
# families they join the first, init-e2e in the heavy lane (beside a debug
# boot's timing bounds, it would be a second heavy task).
second() {
	for k in $BACKPORTS; do
		guest_suites "$k" qemu backport
	done
	[ "${INIT_E2E:-1}" = 0 ] || suite "$1" init-e2e "$TOP/scripts/init-e2e.sh"
}
[ "${SYSTEMD_E2E:-1}" = 1 ] || second heavy
log "running the suites: ${#heavy[@]} heavy tasks beside ${#light[@]} light ones (logs: ${LOGS#"$TOP"/}/)"
run_lanes
if [ "${SYSTEMD_E2E:-1}" = 1 ]; then
	for s in ${E2E_SUITES:-bookworm sid}; do
		suite heavy "systemd-e2e-$s" env E2E_SUITES="$s" E2E_COST_BOOTS="${E2E_COST_BOOTS:-0}" \
			"$TOP/scripts/systemd-e2e.sh"
	done
	second light
	log "running the systemd end-to-end families beside the backports and the other inits: ${#heavy[@]} heavy tasks beside ${#light[@]} light ones"
	run_lanes
fi

echo
if [ -s "$LOGS/retries" ]; then
	echo "retried once (not the code under test, see above):"
	sed 's/^/  /' "$LOGS/retries"
fi
if [ -s "$LOGS/failures" ]; then
	echo "failures:"
	sed 's/^/  /' "$LOGS/failures"
fi
echo "# make test took $SECONDS s"
summary
[ "$failed" -eq 0 ]
