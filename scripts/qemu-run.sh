#!/bin/bash
# Boot a kernel under QEMU and turn what the guest says into an exit status.
#
#   qemu-run.sh [-k KERNEL] [-i INITRD] [-d DISK] [-a APPEND] [-s SMP]
#               [-t TIMEOUT] [-l LOG] [-x QEMU_ARGS] [-r]
#
# The guest ends its console output with "UB-VERDICT: pass" or
# "UB-VERDICT: fail".  ub.disk=MB in APPEND attaches a fresh raw disk of that
# size (virtio, /dev/vda) instead of -d; a guest that then powers off after
# printing "UB-REBOOT" (a hibernation image on that disk) is booted once more
# on it with ub.boot=2 appended, its console log continued.  A guest line
# "UB-EXPECT: REGEX" fails the run unless a later console line matches REGEX
# (what a kernel prints after its userspace is frozen or gone).  Exit status: 0 pass, 1 fail, 2 the guest panicked,
# hung, printed a kernel warning or gave no verdict.  KVM is used when a probe
# shows it works, TCG otherwise.  SMP defaults to 2.
# QEMU_ARGS: more QEMU options, split at spaces (make bench's deterministic
# mode: "-icount shift=0,sleep=off").  -r seeds the guest's RNG at boot:
# under TCG, QEMU's default CPU model (qemu64) with RDRAND, which the kernel
# trusts by default (random.trust_cpu), so that nothing in the guest waits
# for the entropy pool (systemd-random-seed.service does); not -cpu max,
# which changes the guest's code paths under TCG.  KVM's -cpu host passes
# the host's RDRAND as it is.
set -eu
. "$(dirname "$0")/lib.sh"

kernel=$BUILD/bzImage initrd= disk= append= smp=${SMP:-2} timeout=300 log= extra= seed=0
while getopts k:i:d:a:s:t:l:x:r opt; do
	case $opt in
	k) kernel=$OPTARG ;; i) initrd=$OPTARG ;; d) disk=$OPTARG ;;
	a) append=$OPTARG ;; s) smp=$OPTARG ;; t) timeout=$OPTARG ;; l) log=$OPTARG ;;
	x) extra=$OPTARG ;; r) seed=1 ;;
	*) die "usage: see the top of $0" ;;
	esac
done
[[ $timeout =~ ^[0-9]+$ ]] || die "-t $timeout: the timeout is whole seconds"
[ -n "$log" ] || log=$(mktemp "$BUILD/qemu-XXXXXX.log")
if [[ " $append " =~ \ ub\.disk=([0-9]+)\  ]]; then
	disk=$log.disk
	rm -f "$disk" && truncate -s "${BASH_REMATCH[1]}M" "$disk"
fi
# The disk is the guest's one PCI device with an interrupt.  Its routing from
# ACPI (_PRT, a 128-round AML loop on QEMU's i440FX) took the debug kernel
# 25 s here and, on a loaded host, past ACPICA's 30 s loop limit
# (AE_AML_LOOP_TIMEOUT): the disk's interrupt was never routed, its first read
# never completed, and the boot hung before init (CI, boot-sleep-hibernate-debug,
# twice).  The BIOS's $PIR table gives the same routing at once.
[ -z "$disk" ] || append+=" acpi=noirq"


# hang_report: each vCPU's instruction pointer and the kernel function it
# is in, into $log.hang.  build-kernel.sh keeps System.map next to each
# image: bzImage-debug's is System.map-debug.
hang_report() {
	local base=${kernel##*/} map= rip sym
	[[ $base == *bzImage* ]] && map=$(dirname "$kernel")/${base/bzImage/System.map}
	# Opened read-write, a FIFO never blocks, also if QEMU is gone by now.
	echo "info registers -a" 1<>"$mon.in"
	timeout 3 cat "$mon.out" | tr -d '\r' | grep -o 'RIP=[0-9a-f]*' | cut -d= -f2 |
	while read -r rip; do
		sym=
		# Same-width hex sorts as text: the last text symbol at or below.
		[ -n "$map" ] && [ -r "$map" ] && read -r addr sym < <(awk -v a="$rip" \
			'$1 <= a && $2 ~ /^[tTwW]$/ { s = $1 " " $3 } END { print s }' "$map")
		if [ -n "$sym" ]; then
			printf 'vCPU at %s %s+0x%x\n' "$rip" "$sym" $((16#$rip - 16#$addr))
		else
			echo "vCPU at $rip (no symbol${map:+ in $map})"
		fi
	done > "$log.hang"
}

acc=$(qemu_accel)
# -icount is TCG's: a run that asks for it gets TCG.
[[ " $extra " == *" -icount "* ]] && acc=tcg
args=(-accel "$acc" -smp "$smp" -m 1G -nodefaults -no-reboot -display none
      -serial stdio -kernel "$kernel"
      -append "console=ttyS0 panic=-1 oops=panic ub.smp=$smp $append")
[ "$acc" = kvm ] && args+=(-cpu host)
[ "$acc" = tcg ] && [ "$seed" = 1 ] && args+=(-cpu qemu64,+rdrand)
[ -n "$initrd" ] && args+=(-initrd "$initrd")
[ -n "$disk" ] && args+=(-drive "file=$disk,format=raw,if=virtio,cache=unsafe")
# shellcheck disable=SC2206 # split on purpose
[ -n "$extra" ] && args+=($extra)

# The monitor on two FIFOs: a guest that hangs is asked where its vCPUs are.
mon=$log.mon qemu= timer=
cleanup() {
	[ -z "$qemu" ] || kill -KILL "$qemu" 2>/dev/null || true
	[ -z "$timer" ] || kill "$timer" 2>/dev/null || true
	rm -f "$mon.in" "$mon.out"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
rm -f "$mon.in" "$mon.out" "$log.hang"
mkfifo "$mon.in" "$mon.out" || die "cannot make the monitor's FIFOs $mon.in, $mon.out"
args+=(-monitor "pipe:$mon")

start=$(date +%s.%N)
set +e
: > "$log"
for boot in 1 2; do
	# QEMU dies with this script, SIGKILL included: no guest outlives its runner.
	setpriv --pdeathsig KILL qemu-system-x86_64 "${args[@]}" </dev/null >"$log.$boot" 2>&1 &
	qemu=$!
	sleep "$timeout" &
	timer=$!
	wait -n -p ended "$qemu" "$timer"
	qemu_rc=$?
	if [ "$ended" != "$qemu" ]; then
		hang_report
		kill -KILL "$qemu" 2>/dev/null
		wait "$qemu" 2>/dev/null # (and bash's "Killed" with it)
		qemu_rc=124
	fi
	qemu=
	kill "$timer" 2>/dev/null
	wait "$timer" 2>/dev/null
	timer=
	cat "$log.$boot" >> "$log" && rm -f "$log.$boot"
	[ $boot = 1 ] && [ $qemu_rc = 0 ] && [[ $disk == "$log.disk" ]] &&
		grep -q '^UB-REBOOT' "$log" && ! grep -q '^UB-VERDICT' "$log" || break
	for i in "${!args[@]}"; do
		[[ ${args[i]} == "console=ttyS0 "* ]] && args[i]+=" ub.boot=2"
	done
done
[[ $disk != "$log.disk" ]] || rm -f "$disk"
set -e
secs=$(echo "$(date +%s.%N) - $start" | bc)
# Each UB-EXPECT: REGEX needs a later line that matches.
unmet=$(awk '{ sub(/\r$/, "") } /^UB-EXPECT: / { want[++n] = substr($0, 12); next }
	{ for (i in want) if ($0 ~ want[i]) delete want[i] }
	END { for (i in want) print want[i] }' "$log")

if grep -q 'Kernel panic' "$log"; then
	verdict="panic"
elif [ $qemu_rc -eq 124 ] || [ $qemu_rc -eq 137 ]; then
	verdict="timeout after ${timeout}s"
elif grep -qE "$KERNEL_WARNING_RE" "$log"; then
	verdict="kernel warning"
elif [ -n "$unmet" ]; then
	verdict="no console line matches UB-EXPECT: $unmet"
elif grep -q '^UB-VERDICT: pass' "$log"; then
	printf 'qemu: pass (%.1fs, %s, %s vCPUs) %s\n' "$secs" "$acc" "$smp" "$log" >&2
	exit 0
elif grep -q '^UB-VERDICT: fail' "$log"; then
	printf 'qemu: FAIL (%.1fs) %s\n' "$secs" "$log" >&2
	exit 1
else
	verdict="no verdict (qemu exit $qemu_rc)"
fi
printf 'qemu: %s (%.1fs), log %s; last lines:\n' "$verdict" "$secs" "$log" >&2
[ ! -s "$log.hang" ] || cat "$log.hang" >&2
grep -E 'WARNING:|BUG:|panic|lock' "$log" | head -5 >&2 || true
tail -n 15 "$log" >&2
exit 2
