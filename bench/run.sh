#!/bin/bash
# make bench: the benchmark study of kernel.user_booted (bench/README.md).
#
# Boots one kernel image (a copy of build/bzImage taken at the start) many
# times under QEMU, in a randomised, interleaved order: every round runs each
# boot kind once, shuffled.  Boot kinds:
#   boot:A..D     workloads 1+2 (scripts/guest/bench-boot.sh), arms
#                 A stock, B user_booted_reported + report, C
#                 rcupdate.rcu_expedited=1, D user_booted_reported
#                 sysctl.kernel.user_booted_timeout=15 and no report
#   notify:0|1|100, notify:100c   workload 3 (scripts/guest/bench-notify.sh),
#                 N subscribers, quiet console; "c": console at the default
#                 loglevel, to show what printing to the serial console costs
#   systemd:A|B   workload 4, real systemd boot on scripts/rootfs.sh's image
#   cgroup:stock|rcu|rcu_cgroup   workload 5 (issue 9), the same systemd
#                 boot with every grace-period wait traced (kprobes): stock
#                 (no parameter); user_booted_reported on a kernel built
#                 without the cgroup subscriber (the series up to
#                 rcu-boot-report, scripts/bisect-check.sh UPTO=); and on the
#                 full kernel, RCU and cgroup subscribers
#   fork:stock|reported|favordynmods   workload 5's fork+exit microbenchmark
#                 (scripts/guest/bench-fork.sh), before and after the report
# Then bench/analyze.py turns the console logs into CSVs, plots and
# bench/results/report.md (workloads 1-4); bench/analyze_cgroup.py does the
# same for workload 5 into bench/results-cgroup/.
#
# Knobs (environment): BOOTS=24 boots per kind; WORKLOADS="1 3 4" (1 means
# workloads 1 and 2, which share boots; 5 is issue 9's study, run on its
# own: WORKLOADS=5); SEED= schedule seed (default: time); FORKS=2000;
# BENCH_WORK=build/bench (logs);
# BENCH_OUT=bench/results (a run with fewer boots or workloads:
# build/bench/results); RESUME=1 continues an interrupted run in build/bench;
# IDLE=10 (s, idle window, arms A and B); WIN=15 (s, loaded window);
# ROUNDS=20 MB=10 (synthetic boot: rounds, membarriers per round);
# ISO=100 (membarriers in isolation first); NICE=-10 (QEMU's niceness: the
# host is shared, and an expedited grace period needs both vCPU threads to
# get a host CPU at once; every boot records the CPU use of everything else).
set -eu
. "$(dirname "$0")/../scripts/lib.sh"

BOOTS=${BOOTS:-24}
WORKLOADS=${WORKLOADS:-1 3 4}
SEED=${SEED:-$(date +%s)}
# Only a full run replaces the committed results; a quick one reports under build/.
if [ "$BOOTS" -ge 24 ] && [ "$WORKLOADS" = "1 3 4" ]; then
	OUT=${BENCH_OUT:-$TOP/bench/results}
elif [ "$BOOTS" -ge 24 ] && [ "$WORKLOADS" = 5 ]; then
	OUT=${BENCH_OUT:-$TOP/bench/results-cgroup}
else
	OUT=${BENCH_OUT:-$WORK/results}
fi
IDLE=${IDLE:-10} WIN=${WIN:-15} ROUNDS=${ROUNDS:-20} MB=${MB:-10} ISO=${ISO:-100}
NICE=${NICE:--10} FORKS=${FORKS:-2000}
WORK=${BENCH_WORK:-$BUILD/bench}
PY=/usr/bin/python3 # Debian's, with the packages from bench/DEPS

mapfile -t deps < <(grep -v '^#' "$TOP/bench/DEPS")
need_packages "${deps[@]}" qemu-system-x86 busybox-static cpio
[ -f "$BUILD/bzImage" ] || die "no $BUILD/bzImage: make kernel first"
[ -x "$BUILD/guest-bin/bench_guest" ] || die "no $BUILD/guest-bin/bench_guest: make guest-bin first"

# The kernel command line for each boot kind.
TRACE="trace_event=rcu:rcu_exp_grace_period,rcu:rcu_grace_period trace_buf_size=8M kprobe_event=p:bench/exp_ipi,rcu_exp_handler"
# Workload 5: every grace-period wait's entry and return, as MEASURING.md
# traced them; the e2e probe prints them (trace_event= sizes the buffer).
GPTRACE="trace_clock=mono trace_buf_size=4M trace_event=user_booted:* kprobe_event=$(
	for f in rcu:synchronize_rcu rcuexp:synchronize_rcu_expedited srcu:synchronize_srcu \
		srcuexp:synchronize_srcu_expedited barrier:rcu_barrier; do
		printf 'p:gpwait/%s_in,%s;r64:gpwait/%s_out,%s;' "${f%%:*}" "${f#*:}" "${f%%:*}" "${f#*:}"
	done | sed 's/;$//')"
W12="ub.run=bench-boot bench.iso=$ISO bench.rounds=$ROUNDS bench.mb=$MB bench.win=$WIN bench.period=100 bench.spin=1 $TRACE"
declare -A APPEND=(
	[boot:A]="$W12 bench.idle=$IDLE"
	[boot:B]="$W12 bench.idle=$IDLE user_booted_reported bench.report=1"
	[boot:C]="$W12 rcupdate.rcu_expedited=1"
	[boot:D]="$W12 user_booted_reported sysctl.kernel.user_booted_timeout=15"
	[notify:0]="ub.run=bench-notify user_booted_reported quiet bench.subs=0"
	[notify:1]="ub.run=bench-notify user_booted_reported quiet bench.subs=1"
	[notify:100]="ub.run=bench-notify user_booted_reported quiet bench.subs=100"
	[notify:100c]="ub.run=bench-notify user_booted_reported bench.subs=100"
	[systemd:A]="root=/dev/vda rw systemd.wants=user-booted-e2e.service"
	[systemd:B]="root=/dev/vda rw systemd.wants=user-booted-e2e.service user_booted_reported"
	[cgroup:stock]="root=/dev/vda rw systemd.wants=user-booted-e2e.service $GPTRACE"
	[cgroup:rcu]="root=/dev/vda rw systemd.wants=user-booted-e2e.service $GPTRACE user_booted_reported"
	[cgroup:rcu_cgroup]="root=/dev/vda rw systemd.wants=user-booted-e2e.service $GPTRACE user_booted_reported"
	[fork:stock]="ub.run=bench-fork bench.fork=$FORKS"
	[fork:reported]="ub.run=bench-fork bench.fork=$FORKS user_booted_reported"
	[fork:favordynmods]="ub.run=bench-fork bench.fork=$FORKS cgroup_favordynmods=1"
)
declare -A TIMEOUT=([boot]=240 [notify]=120 [systemd]=300 [cgroup]=300 [fork]=240)

kinds=()
for w in $WORKLOADS; do
	case $w in
	1 | 2) kinds+=(boot:A boot:B boot:C boot:D) ;;
	3) kinds+=(notify:0 notify:1 notify:100 notify:100c) ;;
	4) kinds+=(systemd:A systemd:B) ;;
	5) kinds+=(cgroup:stock cgroup:rcu cgroup:rcu_cgroup fork:stock fork:reported fork:favordynmods) ;;
	*) die "WORKLOADS: 1 (with 2), 3, 4, 5" ;;
	esac
done
mapfile -t kinds < <(printf '%s\n' "${kinds[@]}" | sort -u)

if [ "${RESUME:-0}" != 1 ]; then
	rm -rf "$WORK" && mkdir -p "$WORK/logs"
fi
mkdir -p "$WORK/logs" "$OUT"
setup=$WORK/setup.txt
runs=$WORK/runs.csv
note() { printf '%s: %s\n' "$1" "$2" >>"$setup"; }

# --- Our own copy of the QEMU runner: others may edit scripts/ meanwhile.
if [ ! -f "$WORK/scripts/qemu-run.sh" ]; then
	mkdir -p "$WORK/scripts"
	cp "$TOP/scripts/qemu-run.sh" "$TOP/scripts/lib.sh" "$WORK/scripts/"
fi
export BUILD

# --- The one kernel image and initramfs every boot uses.
if [ ! -f "$WORK/bzImage" ]; then
	for _ in 1 2 3; do
		cp "$BUILD/bzImage" "$WORK/bzImage"
		cp "$BUILD/obj-$KERNEL-qemu/.config" "$WORK/config" 2>/dev/null || : >"$WORK/config"
		"$TOP/scripts/initramfs.sh" qemu "$WORK/initramfs.cpio.gz"
		# The modules in the initramfs must come from the same build.
		cmp -s "$BUILD/bzImage" "$WORK/bzImage" && break
		log "build/bzImage changed while packing the initramfs: again"
	done
	cmp -s "$BUILD/bzImage" "$WORK/bzImage" || die "build/bzImage keeps changing; try later"
fi

# --- Workload 5's second kernel: the series without the cgroup subscriber.
if [[ " ${kinds[*]} " == *" cgroup:rcu "* ]] && [ ! -f "$WORK/bzImage-rcu-only" ]; then
	[ -f "$BUILD/bzImage-upto-rcu-boot-report" ] ||
		UPTO=rcu-boot-report "$TOP/scripts/bisect-check.sh" >&2 ||
		die "could not build the series up to rcu-boot-report"
	cp "$BUILD/bzImage-upto-rcu-boot-report" "$WORK/bzImage-rcu-only"
fi

# --- Workloads 4 and 5 need the systemd image; without it, say why and go on.
sd_image=$WORK/systemd-pristine.ext4
if [[ " ${kinds[*]} " == *" systemd:"* || " ${kinds[*]} " == *" cgroup:"* ]] && [ ! -f "$sd_image" ]; then
	why=
	if [ ! -x "$TOP/scripts/rootfs.sh" ] && [ ! -f "$TOP/scripts/rootfs.sh" ]; then
		why="scripts/rootfs.sh does not exist"
	elif ! img=$(bash "$TOP/scripts/rootfs.sh" bookworm 2>"$WORK/rootfs.err"); then
		why="scripts/rootfs.sh failed: $(tail -n 1 "$WORK/rootfs.err")"
	else
		# The plugin enabled, as the e2e's default boot has it.
		cp --sparse=always "$img/enabled.ext4" "$sd_image"
	fi
	if [ -n "$why" ]; then
		log "workload 4 not run: $why"
		echo "$why" >"$WORK/systemd-not-run"
		mapfile -t kinds < <(printf '%s\n' "${kinds[@]}" | grep -v '^systemd:\|^cgroup:')
	fi
fi

# --- The setup, printed in full in the report.
if [ ! -f "$setup" ]; then
	: >"$setup"
	note date "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
	note boots_per_kind "$BOOTS"
	note seed "$SEED"
	note kinds "${kinds[*]}"
	note project_commit "$(git -C "$TOP" rev-parse HEAD); uncommitted then in kernel/ uapi/ configs/ bench/ scripts/guest/: $(git -C "$TOP" status --short -- kernel uapi configs bench scripts/guest | awk '{ printf "%s ", $2 }')"
	prereg=bench/prereg.json
	[ "$WORKLOADS" = 5 ] && prereg=bench/prereg-cgroup.json
	note prereg_commit "$prereg: $(git -C "$TOP" log -1 --format='%H %cI' -- "$prereg")"
	note kernel_image "$WORK/bzImage sha1 $(sha1sum <"$WORK/bzImage" | cut -d' ' -f1), from build/bzImage of $(date -u -r "$BUILD/bzImage" +%Y-%m-%dT%H:%M:%SZ)"
	[ -f "$WORK/bzImage-rcu-only" ] && note kernel_image_rcu_only "$WORK/bzImage-rcu-only sha1 $(sha1sum <"$WORK/bzImage-rcu-only" | cut -d' ' -f1), from build/bzImage-upto-rcu-boot-report of $(date -u -r "$BUILD/bzImage-upto-rcu-boot-report" +%Y-%m-%dT%H:%M:%SZ) (make bisect-check: the series up to rcu-boot-report, same tinyconfig + configs/qemu.config recipe; boots of kind cgroup:rcu)"
	note kernel_version "$(file -b "$WORK/bzImage" | sed -n 's/.*version \([^,]*\),.*/\1/p')"
	note initramfs "sha1 $(sha1sum <"$WORK/initramfs.cpio.gz" | cut -d' ' -f1) (scripts/initramfs.sh qemu: busybox, scripts/guest/*.sh, build/guest-bin/*, modules)"
	for c in CONFIG_HZ CONFIG_PREEMPT CONFIG_PREEMPT_VOLUNTARY CONFIG_PREEMPT_NONE CONFIG_PREEMPT_RCU \
		CONFIG_NR_CPUS CONFIG_NO_HZ_IDLE CONFIG_NO_HZ_FULL CONFIG_RCU_LAZY CONFIG_RCU_NOCB_CPU \
		CONFIG_RCU_TRACE CONFIG_USER_BOOTED_REPORTED CONFIG_USER_BOOTED_TIMEOUT CONFIG_CGROUP_FAVOR_DYNMODS; do
		note "$c" "$(sed -n "s/^$c=//p; s/^# $c is not set/n/p" "$WORK/config" | head -n 1)"
	done
	note kernel_config "build/obj-$KERNEL-qemu/.config at the copy (tinyconfig + configs/qemu.config), sha1 $(sha1sum <"$WORK/config" | cut -d' ' -f1)"
	note qemu_run "scripts/qemu-run.sh sha1 $(sha1sum <"$WORK/scripts/qemu-run.sh" | cut -d' ' -f1) (copied at the start)"
	note accelerator "$(cat "$BUILD/.accel" 2>/dev/null || echo 'probed at the first boot')"
	note qemu "$(qemu-system-x86_64 --version | head -n 1)"
	note qemu_cmdline "qemu-system-x86_64 -accel ACCEL -smp ${SMP:-2} -m 1G -nodefaults -no-reboot -display none -serial stdio -kernel bzImage -initrd initramfs.cpio.gz (workload 4: -drive file=IMAGE,format=raw,if=virtio,cache=unsafe instead of -initrd) -append 'console=ttyS0 panic=-1 oops=panic APPEND' (scripts/qemu-run.sh)"
	note vcpus "${SMP:-2}"
	note qemu_niceness "$NICE (QEMU runs under nice -n $NICE; host_other_cpus in runs.csv: CPUs used by all other processes during each boot)"
	for k in "${kinds[@]}"; do note "append[$k]" "${APPEND[$k]}"; done
	note host_calib "$(for _ in 1 2 3 4 5; do nice -n "$NICE" "$BUILD/guest-bin/bench_guest" calib; done | awk '
		{ for (i = 2; i <= NF; i++) { split($i, kv, "="); if (!(kv[1] in m) || kv[2] < m[kv[1]]) m[kv[1]] = kv[2] } }
		END { printf "loop_ns=%s mem_ns=%s syscall_ns=%s", m["loop_ns"], m["mem_ns"], m["syscall_ns"] }') (bench_guest calib on the host, best of 5; the notify guests run the same loops)"
	note host_cpu "$(lscpu | sed -n 's/^Model name: *//p' | head -n 1), $(nproc) CPUs online"
	note host_kernel "$(uname -r)"
	note host_os "$(. /etc/os-release && echo "$PRETTY_NAME")"
	note python "$($PY --version 2>&1); scipy $($PY -c 'import scipy; print(scipy.__version__)'); matplotlib $($PY -c 'import matplotlib; print(matplotlib.__version__)')"
	[ -f "$WORK/systemd-not-run" ] && note workload4_not_run "$(cat "$WORK/systemd-not-run")"
	[ -f "$sd_image" ] && note systemd_image "scripts/rootfs.sh (Debian bookworm minbase + systemd-sysv + udev + the systemd plugin), sha1 $(sha1sum <"$sd_image" | cut -d' ' -f1); a fresh copy per boot"
fi

# --- The schedule: BOOTS rounds, each kind once per round, shuffled.
sched=$WORK/schedule.txt
if [ ! -f "$sched" ]; then
	$PY - "$SEED" "$BOOTS" "${kinds[@]}" >"$sched" <<-'EOF'
		import random, sys
		rng = random.Random(int(sys.argv[1]))
		for r in range(1, int(sys.argv[2]) + 1):
		    ks = sys.argv[3:]
		    rng.shuffle(ks)
		    for k in ks:
		        print(r, k)
	EOF
fi
[ -f "$runs" ] || echo "seq,round,kind,attempt,status,rc,wall_s,host_load1,host_other_cpus,start_utc,log" >"$runs"

# Host CPU time spent so far, all CPUs, in USER_HZ ticks.
host_busy() { awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8 + $9; exit }' /proc/stat; }

# boot SEQ ROUND KIND ATTEMPT: one guest boot; appends a line to runs.csv.
boot() {
	local seq=$1 round=$2 kind=$3 attempt=$4 family=${3%%:*} rc=0 status t0 args=()
	local image=$WORK/bzImage
	[ "$kind" = cgroup:rcu ] && image=$WORK/bzImage-rcu-only
	local log=$WORK/logs/$seq-${kind/:/-}-$attempt.log
	local load start
	load=$(cut -d' ' -f1 /proc/loadavg)
	start=$(date -u +%Y-%m-%dT%H:%M:%SZ)
	if [ "$family" = systemd ] || [ "$family" = cgroup ]; then
		cp --sparse=always "$sd_image" "$WORK/systemd.ext4"
		args=(-d "$WORK/systemd.ext4")
	else
		args=(-i "$WORK/initramfs.cpio.gz")
	fi
	t0=$(date +%s.%N)
	busy0=$(host_busy)
	TIMEFORMAT='%R %U %S'
	{ time nice -n "$NICE" bash "$WORK/scripts/qemu-run.sh" -k "$image" "${args[@]}" \
		-t "${TIMEOUT[$family]}" -l "$log" -a "${APPEND[$kind]}" 2>"$log.qemu" || rc=$?; } 2>"$log.time"
	# CPUs used by everything but this boot, on average over the boot.
	other=$(read -r real user sys <"$log.time"; awk -v b0="$busy0" -v b1="$(host_busy)" -v r="$real" \
		-v q="$(echo "$user + $sys" | bc)" 'BEGIN { printf "%.2f", ((b1 - b0) / 100 - q) / r }')
	if [ $rc -eq 0 ]; then
		status=ok
	elif [ $rc -eq 2 ] && grep -q 'Oops: int3' "$log" && grep -q sched_clock "$log"; then
		status=tcg-int3 # the known TCG fault (MEASURING.md), not the code under test
	else
		status=fail
	fi
	printf '%s,%s,%s,%s,%s,%s,%.1f,%s,%s,%s,%s\n' "$seq" "$round" "$kind" "$attempt" "$status" "$rc" \
		"$(echo "$(date +%s.%N) - $t0" | bc)" "$load" "$other" "$start" "${log#"$WORK"/}" >>"$runs"
	printf '%-5s round %-3s %-13s %-8s %5.1fs  load %s, other CPU use %s\n' "$seq" "$round" "$kind" "$status" \
		"$(echo "$(date +%s.%N) - $t0" | bc)" "$load" "$other" >&2
	[ "$status" = ok ]
}
# run SEQ ROUND KIND: a boot, and once more after the known TCG fault.
run() {
	boot "$1" "$2" "$3" 1 && return 0
	tail -n 1 "$runs" | grep -q ',tcg-int3,' && { boot "$1" "$2" "$3" 2 && return 0; }
	return 1
}

SECONDS=0
total=$(wc -l <"$sched")
log "$total boots ($BOOTS rounds of: ${kinds[*]}); logs in $WORK/logs"
seq=0
while read -r round kind; do
	seq=$((seq + 1))
	grep -q "^$seq," "$runs" && continue # RESUME: done already
	run "$seq" "$round" "$kind" || true
done <"$sched"

# Top up: a kind short of BOOTS good boots gets up to 3 extra tries.
for kind in "${kinds[@]}"; do
	for _ in 1 2 3; do
		good=$(awk -F, -v k="$kind" '$3 == k && $5 == "ok"' "$runs" | wc -l)
		[ "$good" -lt "$BOOTS" ] || break
		seq=$((seq + 1))
		log "$kind: $good good boots of $BOOTS, one more"
		run "$seq" extra "$kind" || true
	done
done
note wall_clock_boots "$((SECONDS / 60)) min $((SECONDS % 60)) s for this invocation's boots"
note date_end "$(date -u +%Y-%m-%dT%H:%M:%SZ)"

log "analysis"
if [ "$WORKLOADS" = 5 ]; then
	$PY "$TOP/bench/analyze_cgroup.py" "$WORK" "$OUT"
else
	$PY "$TOP/bench/analyze.py" parse "$WORK" "$OUT"
	$PY "$TOP/bench/analyze.py" report "$OUT"
fi
log "report: ${OUT#"$TOP"/}/report.md"
