#!/bin/bash
# The QEMU runner itself: a passing boot passes, the vCPU count is what was
# asked for, and a panicking or hanging guest fails instead of passing or
# hanging the test run.  Prints TAP.
set -u
. "$(dirname "$0")/lib.sh"
initrd=$BUILD/initramfs-qemu$KSUFFIX.cpio.gz
mkdir -p "$BUILD/test-logs$KSUFFIX"
n=0 failed=0
# expect NAME RC QEMU-RUN-ARGS...: qemu-run.sh must exit RC.
expect() {
	local name=$1 want=$2 log rc
	shift 2
	log=$BUILD/test-logs$KSUFFIX/harness-$((n + 1)).log
	"$TOP/scripts/qemu-run.sh" -k "$BUILD/bzImage$KSUFFIX" -i "$initrd" -l "$log" "$@" 2>/dev/null
	rc=$?
	n=$((n + 1))
	if [ "$rc" -eq "$want" ]; then
		echo "ok $n - $name (exit $rc)"
	else
		echo "not ok $n - $name (exit $rc, want $want; $log)"
		failed=$((failed + 1))
	fi
}
expect "a guest that passes passes, on 2 vCPUs" 0 -s 2 -a "ub.run=nothing"
expect "a guest on 3 vCPUs sees 3" 0 -s 3 -a "ub.run=nothing"
expect "a guest that panics (no init to run) fails" 2 -t 120 -a "rdinit=/nonexistent"
expect "a hanging guest times out and fails" 2 -t 20 -a "ub.run=hang"
# ... and says where each of its vCPUs was, by kernel function.
hang=$BUILD/test-logs$KSUFFIX/harness-$n.log.hang
n=$((n + 1))
if [ "$(grep -cE '^vCPU at [0-9a-f]{16} [a-z_]' "$hang")" -eq 2 ]; then
	echo "ok $n - the hang report locates both vCPUs: $(cut -d' ' -f4 "$hang" | sort -u | tr '\n' ' ')"
else
	echo "not ok $n - the hang report locates both vCPUs ($hang)"
	failed=$((failed + 1))
fi
[ "$failed" -eq 0 ]
