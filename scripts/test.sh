#!/bin/bash
# make test: every suite of the project.  Each suite prints TAP lines; this
# counts them and ends with the line "N passed, N failed".
#
# The base kernel (7.3) gets everything: guest suites on the qemu and debug
# kernels, the systemd plugin's suites, lint.  Each backport in BACKPORTS
# (default 6.12) gets the guest suites on its qemu kernel.
# Quicker partial runs: DEBUG_KERNEL=0 (no debug-kernel boots), SYSTEMD_E2E=0,
# SYSTEMD_HOST=0, LINT=0, INIT_E2E=0 (no boots of the other init systems'
# recipes, scripts/init-e2e.sh), BACKPORTS= (none).
# KERNEL=6.12 or 6.1: that backport alone, its qemu-kernel guest suites (the
# rest is about the base series: off unless asked for).
set -u
. "$(dirname "$0")/lib.sh"

if [ "$KERNEL" != "$KERNEL_MAIN" ]; then
	DEBUG_KERNEL=${DEBUG_KERNEL:-0} SYSTEMD_E2E=${SYSTEMD_E2E:-0} LINT=${LINT:-0}
	SYSTEMD_HOST=${SYSTEMD_HOST:-0} INIT_E2E=${INIT_E2E:-0} BACKPORTS=${BACKPORTS:-}
fi
BACKPORTS=${BACKPORTS-6.12}
LOGS=$BUILD/test-logs$KSUFFIX
rm -rf "$LOGS" && mkdir -p "$LOGS"
passed=0 failed=0 skipped=0
failures=()

# tally NAME LOG: add the log's top-level TAP results to the totals.
tally() {
	local name=$1 log=$2 p f s
	s=$(grep -cE '^ok [0-9]+ .*# SKIP' "$log")
	p=$(( $(grep -cE '^ok [0-9]+' "$log") - s ))
	f=$(grep -cE '^not ok [0-9]+' "$log")
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
	grep -E '^not ok [0-9]+' "$log" | sed "s|^|$name: |" >> "$LOGS/failures"
	printf '%-28s %3d passed, %d failed, %d skipped  (%s)\n' "$name" "$p" "$f" "$s" "${log#"$TOP"/}"
}

# fail NAME WHY: a suite that could not run counts as one failure.
fail() {
	failed=$((failed + 1))
	echo "$1: $2" >> "$LOGS/failures"
	printf '%-28s FAILED: %s\n' "$1" "$2"
}

# guest NAME FLAVOUR "APPEND": boot the flavour's kernel of kernel $ks (a
# build-product suffix, see lib.sh), run ub.run=SCRIPT.
guest() {
	local name=$1 flavour=$2 append=$3 image=$BUILD/bzImage log=$LOGS/$1.log rc
	[ "$flavour" = debug ] && image=$BUILD/bzImage-debug
	image=$image$ks
	for try in 1 2; do
		"$TOP/scripts/qemu-run.sh" -k "$image" -i "$BUILD/initramfs-$flavour$ks.cpio.gz" \
			-l "$log" -t "${GUEST_TIMEOUT:-600}" -a "$append" 2>"$LOGS/$name.qemu"
		rc=$?
		# A known TCG fault, not the code under test (see MEASURING.md): retry once.
		if [ $rc -eq 2 ] && [ $try -eq 1 ] && grep -q 'Oops: int3' "$log" &&
		   grep -q 'sched_clock' "$log"; then
			echo "$name: TCG int3 fault in sched_clock, retrying once" >&2
			continue
		fi
		break
	done
	tally "$name" "$log"
	[ $rc -eq 2 ] && fail "$name" "$(head -n 1 "$LOGS/$name.qemu")"
}

# suite NAME COMMAND...: a host-side suite printing TAP.
suite() {
	local name=$1
	shift
	"$@" > "$LOGS/$name.log" 2>&1 || grep -qE '^not ok' "$LOGS/$name.log" ||
		fail "$name" "exited non-zero without a failing test (see $LOGS/$name.log)"
	tally "$name" "$LOGS/$name.log"
}

log "building the kernels (log: ${LOGS#"$TOP"/}/build.log; a fresh machine takes a while)"
# The kernel flavours to build and boot.
flavours=qemu targets="kernel guest-bin"
[ "${DEBUG_KERNEL:-1}" = 0 ] || flavours="qemu debug" targets="$targets kernel-debug"
build_ok=1
make -s -C "$TOP" $targets > "$LOGS/build.log" 2>&1 || build_ok=0
for k in $BACKPORTS; do
	[ $build_ok = 0 ] || KERNEL=$k make -s -C "$TOP" kernel >> "$LOGS/build.log" 2>&1 || build_ok=0
done
if [ $build_ok = 0 ]; then
	tail -n 30 "$LOGS/build.log"
	fail build "building the kernels failed (see $LOGS/build.log)"
	echo "$passed passed, $failed failed"
	exit 1
fi

# Every guest script with an "# append: PARAMS" line is a suite of its own,
# booted with those kernel parameters: on the qemu kernel, and again on the
# debug kernel (lockdep, KASAN, ...) unless its "# flavour:" line says
# otherwise.  "# kernels:" limits a script to some kernels.
flavours_of() { sed -n 's/^# flavour: //p' "$1" | grep . || echo "qemu debug"; }
runs_on() { ! grep -q '^# kernels:' "$1" || sed -n 's/^# kernels: //p' "$1" | grep -qw "$2"; }
# guest_suites KERNEL FLAVOURS: the harness and every guest script, on the
# named kernel's images.  Suite names of a backport carry its version.
guest_suites() {
	local k=$1 flavours=$2 ks= flavour t name suffix
	[ "$k" = "$KERNEL_MAIN" ] || ks=-$k
	for flavour in $flavours; do
		KERNEL=$k "$TOP/scripts/initramfs.sh" "$flavour" "$BUILD/initramfs-$flavour$ks.cpio.gz"
	done
	log "Linux $k: the QEMU runner: vCPU count, panic and hang detection"
	KERNEL=$k suite "harness$ks" "$TOP/scripts/test-harness.sh"
	for flavour in $flavours; do
		log "Linux $k: guest suites ($flavour kernel)"
		for t in "$TOP"/scripts/guest/*.sh; do
			grep -q '^# append:' "$t" || continue
			flavours_of "$t" | grep -qw "$flavour" || continue
			runs_on "$t" "$k" || continue
			name=${t##*/}; name=${name%.sh}
			suffix=; [ "$flavour" = debug ] && suffix=-debug
			guest "$name$suffix$ks" "$flavour" \
				"ub.run=$name $(sed -n 's/^# append://p' "$t")"
		done
	done
}
guest_suites "$KERNEL" "$flavours"
for k in $BACKPORTS; do
	guest_suites "$k" qemu
done

if [ "${SYSTEMD_HOST:-1}" = 1 ]; then
	log "systemd plugin, host side"
	suite systemd-host "$TOP/systemd-plugin/tests/run-host-tests.sh"
fi

if [ "${LINT:-1}" = 1 ]; then
	log "lint: checkpatch, kernel-doc, sysctl docs, Sphinx, W=1/sparse on the series"
	suite lint "$TOP/scripts/lint.sh"
fi

if [ "${SYSTEMD_E2E:-1}" = 1 ]; then
	log "systemd plugin, end to end under real systemd"
	suite systemd-e2e "$TOP/scripts/systemd-e2e.sh"
fi

if [ "${INIT_E2E:-1}" = 1 ]; then
	log "other init systems: the document's recipes, booted"
	suite init-e2e "$TOP/scripts/init-e2e.sh"
fi

echo
if [ -s "$LOGS/failures" ]; then
	echo "failures:"
	sed 's/^/  /' "$LOGS/failures"
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
