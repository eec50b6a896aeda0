#!/bin/bash
# make bench: the benchmark study of kernel.user_booted (bench/README.md).
#
# Boots one kernel image (a copy of build/bzImage taken at the start) many
# times under QEMU, in a randomised, interleaved order: every round runs each
# boot kind once, shuffled.  Boot kinds:
#   boot:A..D     workloads 1+2 (scripts/guest/bench-boot.sh), arms
#                 A stock, B user_booted_reported + report, C
#                 rcupdate.rcu_expedited=1, D user_booted_reported
#                 user_booted_timeout=15 and no report
#   notify:0|1|100, notify:100c   workload 3 (scripts/guest/bench-notify.sh),
#                 N subscribers, quiet console; "c": console at the default
#                 loglevel, to show what printing to the serial console costs
#   systemd:A|B   workload 4, real systemd boot on scripts/rootfs.sh's image
#   s262:ARM, s252:ARM   workload 6 (issue 18), the series against what
#                 users can do today, on the systemd image of Debian sid (262)
#                 or bookworm (252), every grace-period wait of every task
#                 traced with its kernel stack: ARM stock (no parameter),
#                 reported (user_booted_reported), knobs (rcu_expedited=1,
#                 cgroup_favordynmods=true and bench/units/bench-knobs.service
#                 writing 0 to /sys/kernel/rcu_expedited after boot),
#                 expedited (rcu_expedited=1, Android's setting); 5 s of
#                 load after boot count the expedited grace periods then
#   i262:ARM, i252:ARM  the same under QEMU's -icount (deterministic: guest
#                 time follows executed instructions, not the host's load),
#                 the image's files as an initramfs, no after-boot window;
#                 these run JOBS at a time, before the wall-clock kinds
#   lazy:stock|reported  workload 6, sid, icount (RAM root), rcu_nocbs=all: how long
#                 call_rcu() callbacks queued during userspace boot wait
#   iboot:A|C     workload 1's arms A and C under -icount: does the
#                 deterministic mode keep expedited and normal apart?
#   c262:ARM, c252:ARM  workloads 7 (issue 26), 12 (issue 37) and 15 (issue
#                 47: the unit ordered last again), what the systemd plugin costs
#                 the boot: sid's or bookworm's image as in i262/i252,
#                 without the grace-period tracing; ARM plugin
#                 (user_booted_reported, the plugin reports) or masked (the
#                 same with systemd.mask=user-booted.service)
#   ifork:stock|reported|favordynmods  workload 8 (issue 25), a fork+exit
#                 microbenchmark and cgroup migrations
#                 (scripts/guest/bench-fork.sh), before and after the report,
#                 under -icount, rounds paired by RTC base: what
#                 cgroup_favordynmods left on costs after boot, and what boot
#                 mode costs and saves per operation meanwhile
# (Workloads 5 and 10, the cgroup subscriber's studies, left with it in
# issue 35; their results stay in bench/results-cgroup*/.)
#   i262:android, lazy:knobs  workload 9 (issue 25), with i262:reported and
#                 lazy:reported: the series against Android's line (the knobs
#                 without cgroup_favordynmods) and, with lazy callbacks,
#                 against the knobs
#   i262:cleared, i262:fdm  workload 13, the headline on the lean series,
#                 with i262:stock, i262:expedited, i262:reported and
#                 lazy:stock, lazy:reported: cleared is rcu_expedited=1
#                 cleared by bench-knobs.service after default.target
#                 (a unit, by hand), expedited rcu_expedited=1 never
#                 cleared (Android's), fdm the report with
#                 cgroup_favordynmods=1 (bench/prereg-headline.json)
#   a262:ARM, a252:ARM, z262:ARM  workload 14 (issue 49), what the series
#                 gives against each knob and what each costs after boot:
#                 sid's and bookworm's images under -icount (as i262),
#                 every grace-period wait traced (no stacks: the arms would
#                 pay them unevenly), expedited and normal grace periods
#                 started, their IPIs and synchronize_rcu_expedited()'s
#                 callers counted; after boot the probe's windows
#                 (bench.w14=QUIET_S,ROUNDS,GAP_MS,MIGRATIONS, W14=): ARM
#                 stock, favordynmods (cgroup_favordynmods=1, no series),
#                 finish (rcu_expedited=1 cleared by bench-finish.service,
#                 ordered and waiting as user-booted.service), expedited
#                 (rcu_expedited=1 for good), reported; z262 with
#                 rcu_nocbs=all: stock, reported, nolazy
#                 (rcutree.enable_rcu_lazy=0: the batching metric's
#                 positive control) (bench/prereg-arms.json)
#   r262:ARM, r252:ARM  workload 16 (issue 62), workload 14's families with
#                 the guest's RNG seeded (qemu-run.sh -r: RDRAND in QEMU's CPU model,
#                 which the kernel trusts by default) so that no window ends
#                 on the entropy pool: ARM stock, reported, favordynmods,
#                 fdmreported (cgroup_favordynmods=1 and the series), finish
#                 (bench/prereg-seeded.json)
#   e262:ARM      workload 17 (issue 62), r262 on 8 vCPUs (qemu-run.sh -s 8),
#                 for the counts only: ARM stock, reported, favordynmods
#                 (bench/prereg-8cpu.json)
#   l262:ARM      workload 18 (issue 62), z262 seeded, CPUs leaving idle
#                 traced (power:cpu_idle) and a 300 s quiet window, no
#                 churn or migrations: ARM stock, reported, nolazy
#                 (bench/prereg-lazy.json)
#   k262:ARM      workload 19 (issue 62), workload 6's i262 seeded (every
#                 grace-period wait with its stack): namespace_unlock()'s
#                 waits; ARM stock, reported, expedited (bench/prereg-nsu.json)
#   p262:ARM, p252:ARM  workload 20 (issue 62), workload 15's c262 and c252
#                 with the RNG seeded and every exec traced (when the
#                 plugin's script ran): ARM plugin, masked
#                 (bench/prereg-plugin-seeded.json)
#   n257:ARM      workload 11 (issues 25, 26), Debian trixie's systemd 257
#                 (the one whose source the mirror has) as c262: ARM stock
#                 and knobs (no plugin), waiting (no plugin, boot mode: nothing
#                 reports), installed (the plugin, no parameter:
#                 its generator's cost), plugin (the plugin reports), native
#                 (no plugin, PID 1 built with systemd-plugin/native's patch
#                 reports; make systemd-native SYSTEMD_SUITE=trixie's library)
# Then bench/analyze.py turns the console logs into CSVs, plots and
# bench/results/report.md (workloads 1-4); bench/analyze_stack.py does the
# same for workload 6 into bench/results-stack/, bench/analyze_plugin.py for workloads 7, 12 and 15
# into bench/results-plugin/, -plugin-static/ and -plugin-cost/, bench/analyze_fork.py for workload 8 into
# bench/results-fork/, bench/analyze_knobs.py for workload 9 into
# bench/results-knobs/; bench/analyze_native.py for workload 11
# into bench/results-native/.
#
# Knobs (environment): BOOTS=24 boots per kind; WORKLOADS="1 3 4" (1 means
# workloads 1 and 2, which share boots; 6 to 9, 11 to 13 and 15 each run on
# their own: WORKLOADS=6); SEED= schedule seed (default: time); FORKS=2000;
# BENCH_WORK=build/bench (logs);
# BENCH_OUT=bench/results (a run with fewer boots or workloads:
# build/bench/results); RESUME=1 continues an interrupted run in build/bench;
# IDLE=10 (s, idle window, arms A and B); WIN=15 (s, loaded window);
# ROUNDS=20 MB=10 (synthetic boot: rounds, membarriers per round);
# ISO=100 (membarriers in isolation first); NICE=-10 (QEMU's niceness: the
# host is shared, and an expedited grace period needs both vCPU threads to
# get a host CPU at once; every boot records the CPU use of everything else);
# JOBS=1 (icount boots at once: they do not disturb each other's results).
set -eu
. "$(dirname "$0")/../scripts/lib.sh"

BOOTS=${BOOTS:-24}
WORKLOADS=${WORKLOADS:-1 3 4}
SEED=${SEED:-$(date +%s)}
WORK=${BENCH_WORK:-$BUILD/bench}
# Only a full run replaces the committed results; a quick one reports under build/.
if [ "$BOOTS" -ge 24 ] && [ "$WORKLOADS" = "1 3 4" ]; then
	OUT=${BENCH_OUT:-$TOP/bench/results}
elif [ "$BOOTS" -ge 24 ] && [ "$WORKLOADS" = 6 ]; then
	OUT=${BENCH_OUT:-$TOP/bench/results-stack}
elif [ "$BOOTS" -ge 24 ] && [ "$WORKLOADS" = 7 ]; then
	OUT=${BENCH_OUT:-$TOP/bench/results-plugin}
elif [ "$BOOTS" -ge 24 ] && [ "$WORKLOADS" = 8 ]; then
	OUT=${BENCH_OUT:-$TOP/bench/results-fork}
elif [ "$BOOTS" -ge 24 ] && [ "$WORKLOADS" = 9 ]; then
	OUT=${BENCH_OUT:-$TOP/bench/results-knobs}
elif [ "$BOOTS" -ge 24 ] && [ "$WORKLOADS" = 11 ]; then
	OUT=${BENCH_OUT:-$TOP/bench/results-native}
elif [ "$BOOTS" -ge 24 ] && [ "$WORKLOADS" = 12 ]; then
	OUT=${BENCH_OUT:-$TOP/bench/results-plugin-static}
elif [ "$BOOTS" -ge 24 ] && [ "$WORKLOADS" = 13 ]; then
	OUT=${BENCH_OUT:-$TOP/bench/results-headline}
elif [ "$BOOTS" -ge 8 ] && [ "$WORKLOADS" = 14 ]; then  # its registration's size
	OUT=${BENCH_OUT:-$TOP/bench/results-arms}
elif [ "$BOOTS" -ge 24 ] && [ "$WORKLOADS" = 15 ]; then
	OUT=${BENCH_OUT:-$TOP/bench/results-plugin-cost}
elif [ "$BOOTS" -ge 20 ] && [ "$WORKLOADS" = 16 ]; then  # its registration's size
	OUT=${BENCH_OUT:-$TOP/bench/results-seeded}
elif [ "$BOOTS" -ge 20 ] && [ "$WORKLOADS" = 17 ]; then
	OUT=${BENCH_OUT:-$TOP/bench/results-8cpu}
elif [ "$BOOTS" -ge 20 ] && [ "$WORKLOADS" = 18 ]; then
	OUT=${BENCH_OUT:-$TOP/bench/results-lazy}
elif [ "$BOOTS" -ge 20 ] && [ "$WORKLOADS" = 19 ]; then
	OUT=${BENCH_OUT:-$TOP/bench/results-nsu}
elif [ "$BOOTS" -ge 24 ] && [ "$WORKLOADS" = 20 ]; then
	OUT=${BENCH_OUT:-$TOP/bench/results-plugin-seeded}
else
	OUT=${BENCH_OUT:-$WORK/results}
fi
IDLE=${IDLE:-10} WIN=${WIN:-15} ROUNDS=${ROUNDS:-20} MB=${MB:-10} ISO=${ISO:-100} W14=${W14:-30,40,250,100}
NICE=${NICE:--10} FORKS=${FORKS:-2000} MIGRATIONS=${MIGRATIONS:-100}
PY=/usr/bin/python3 # Debian's, with the packages from bench/DEPS

mapfile -t deps < <(grep -v '^#' "$TOP/bench/DEPS")
need_packages "${deps[@]}" qemu-system-x86 busybox-static cpio xz-utils
[ -f "$BUILD/bzImage" ] || die "no $BUILD/bzImage: make kernel first"
[ -x "$BUILD/guest-bin/bench_guest" ] || die "no $BUILD/guest-bin/bench_guest: make guest-bin first"

# The kernel command line for each boot kind.
TRACE="trace_event=rcu:rcu_exp_grace_period,rcu:rcu_grace_period trace_buf_size=8M kprobe_event=p:bench/exp_ipi,rcu_exp_handler"
# Every grace-period wait's entry and return, as MEASURING.md traced them;
# the e2e probe prints them (trace_event= sizes the buffer).
GPTRACE="trace_clock=mono trace_buf_size=4M trace_event=user_booted:* kprobe_event=$(
	for f in rcu:synchronize_rcu rcuexp:synchronize_rcu_expedited srcu:synchronize_srcu \
		srcuexp:synchronize_srcu_expedited barrier:rcu_barrier; do
		printf 'p:gpwait/%s_in,%s;r64:gpwait/%s_out,%s;' "${f%%:*}" "${f#*:}" "${f%%:*}" "${f#*:}"
	done | sed 's/;$//')"
# Workload 6: GPTRACE with each wait's kernel stack and the cgroup moves
# (which unit a task was started for), a larger buffer; and the lazy probes.
STACKTRACE="trace_clock=mono trace_buf_size=8M trace_options=stacktrace trace_event=user_booted:*,cgroup:cgroup_attach_task ${GPTRACE##* }"
LAZYTRACE="trace_clock=mono trace_buf_size=16M trace_event=user_booted:*,rcu:rcu_invoke_callback kprobe_event=p:lazy/q,call_rcu,rhp=%di:x64 rcu_nocbs=all"
# Workload 14: GPTRACE's waits (no stacks), the cgroup moves, grace periods
# started, expedited grace periods' IPIs and synchronize_rcu_expedited()'s
# callers (its return address); Z14TRACE the lazy family's, with grace
# periods started.
W14TRACE="trace_clock=mono trace_buf_size=16M trace_event=user_booted:*,cgroup:cgroup_attach_task,rcu:rcu_exp_grace_period,rcu:rcu_grace_period ${GPTRACE##* };p:count/ipi,rcu_exp_handler;p:count/expreq,synchronize_rcu_expedited,caller=\$stack0:symbol"
Z14TRACE="trace_clock=mono trace_buf_size=32M trace_event=user_booted:*,rcu:rcu_invoke_callback,rcu:rcu_grace_period kprobe_event=p:lazy/q,call_rcu,rhp=%di:x64 rcu_nocbs=all"
# Workload 18: Z14TRACE and every CPU's exit from idle (the wake-ups lazy
# callbacks exist to save); its windows: 300 s quiet, no churn, no migrations.
L18TRACE=${Z14TRACE/rcu:rcu_grace_period/rcu:rcu_grace_period,power:cpu_idle}
W18=300,0,250,0
SD6="root=/dev/vda rw systemd.wants=user-booted-e2e.service"
declare -A ARM=([stock]="" [reported]="user_booted_reported"
	[knobs]="rcupdate.rcu_expedited=1 cgroup_favordynmods=true systemd.wants=bench-knobs.service"
	[expedited]="rcupdate.rcu_expedited=1"
	[android]="rcupdate.rcu_expedited=1 systemd.wants=bench-knobs.service"
	[cleared]="rcupdate.rcu_expedited=1 systemd.wants=bench-knobs.service"
	[fdm]="user_booted_reported cgroup_favordynmods=1"
	[favordynmods]="cgroup_favordynmods=1"
	[fdmreported]="cgroup_favordynmods=1 user_booted_reported"
	[finish]="rcupdate.rcu_expedited=1 systemd.wants=bench-finish.service"
	[nolazy]="rcutree.enable_rcu_lazy=0")
ICOUNT="-icount shift=0,sleep=off"
# The families booted with the guest's RNG seeded (qemu-run.sh -r: RDRAND
# in the CPU model the studies use, qemu64; issue 62).  Without it
# systemd-random-seed.service waits for the entropy pool and startup ends
# when the pool is ready.
SEEDED_FAMILIES="r262 r252 e262 l262 k262 p262 p252"
# Families booted with more vCPUs than SMP's (qemu-run.sh -s).
declare -A VCPUS=([e262]=8)
# The families booted on each suite's systemd image (pack(): stack-SUITE),
# as an initramfs, except s262 and s252 (a disk).
SID_FAMILIES="s262 i262 lazy c262 a262 z262 r262 e262 l262 k262 p262"
BOOKWORM_FAMILIES="s252 i252 c252 a252 r252 p252"
W12="ub.run=bench-boot bench.iso=$ISO bench.rounds=$ROUNDS bench.mb=$MB bench.win=$WIN bench.period=100 bench.spin=1 $TRACE"
declare -A APPEND=(
	[boot:A]="$W12 bench.idle=$IDLE"
	[boot:B]="$W12 bench.idle=$IDLE user_booted_reported bench.report=1"
	[boot:C]="$W12 rcupdate.rcu_expedited=1"
	[boot:D]="$W12 user_booted_reported user_booted_timeout=15"
	[notify:0]="ub.run=bench-notify user_booted_reported quiet bench.subs=0"
	[notify:1]="ub.run=bench-notify user_booted_reported quiet bench.subs=1"
	[notify:100]="ub.run=bench-notify user_booted_reported quiet bench.subs=100"
	[notify:100c]="ub.run=bench-notify user_booted_reported bench.subs=100"
	[systemd:A]="root=/dev/vda rw systemd.wants=user-booted-e2e.service"
	[systemd:B]="root=/dev/vda rw systemd.wants=user-booted-e2e.service user_booted_reported"
)
# Under -icount the root file system is a RAM copy of the image (an
# initramfs): an asynchronous disk read would let the idle guest's virtual
# clock jump to its next timer, by an amount that depends on the host.
RAM6="rdinit=/lib/systemd/systemd systemd.wants=user-booted-e2e.service"
for a in stock reported knobs expedited android cleared fdm; do
	for f in s262 s252; do APPEND[$f:$a]="$SD6 $STACKTRACE bench.after=5 ${ARM[$a]}"; done
	for f in i262 i252; do APPEND[$f:$a]="$RAM6 $STACKTRACE ${ARM[$a]}"; done
done
# The deterministic mode's check: workload 1's stock and expedited arms.
APPEND[iboot:A]=${APPEND[boot:A]}
APPEND[iboot:C]=${APPEND[boot:C]}
# Workload 7: the plugin against itself masked, nothing else traced.
APPEND[c262:plugin]="$RAM6 user_booted_reported"
APPEND[c262:masked]="$RAM6 user_booted_reported systemd.mask=user-booted.service e2e.nowait"
APPEND[c252:plugin]=${APPEND[c262:plugin]}
APPEND[c252:masked]=${APPEND[c262:masked]}
# Workload 20: the same, seeded, each exec traced on systemd's clock (the
# probe prints when the plugin's script ran; scripts/systemd-e2e.sh's trace).
EXECTRACE="trace_event=sched:sched_process_exec trace_clock=mono trace_buf_size=1M"
for f in p262 p252; do
	APPEND[$f:plugin]="${APPEND[c262:plugin]} $EXECTRACE"
	APPEND[$f:masked]="${APPEND[c262:masked]} $EXECTRACE"
done
# Workload 8: fork+exit and migrations, under -icount.
declare -A FORK_ARM=([stock]="" [reported]="user_booted_reported" [favordynmods]="cgroup_favordynmods=1")
for a in stock reported favordynmods; do
	APPEND[ifork:$a]="ub.run=bench-fork bench.fork=$FORKS ${FORK_ARM[$a]:+${FORK_ARM[$a]} }bench.migrate=$MIGRATIONS"
done
APPEND[lazy:stock]="$RAM6 $LAZYTRACE"
APPEND[lazy:reported]="$RAM6 $LAZYTRACE user_booted_reported"
APPEND[lazy:knobs]="$RAM6 $LAZYTRACE ${ARM[knobs]}"
# Workload 14.
for a in stock favordynmods finish expedited reported; do
	for f in a262 a252; do APPEND[$f:$a]="$RAM6 $W14TRACE bench.w14=$W14 ${ARM[$a]}"; done
done
for a in stock reported nolazy; do APPEND[z262:$a]="$RAM6 $Z14TRACE bench.w14=$W14 ${ARM[$a]}"; done
# Workload 16: workload 14's trace and windows, seeded.
for a in stock reported favordynmods fdmreported finish; do
	for f in r262 r252; do APPEND[$f:$a]="$RAM6 $W14TRACE bench.w14=$W14 ${ARM[$a]}"; done
done
# Workload 17: the same on 8 vCPUs.
for a in stock reported favordynmods; do APPEND[e262:$a]="$RAM6 $W14TRACE bench.w14=$W14 ${ARM[$a]}"; done
# Workload 18: workload 14's lazy family, seeded, wake-ups traced.
for a in stock reported nolazy; do APPEND[l262:$a]="$RAM6 $L18TRACE bench.w14=$W18 ${ARM[$a]}"; done
# Workload 19: workload 6's i262, seeded.
for a in stock reported expedited; do APPEND[k262:$a]="$RAM6 $STACKTRACE ${ARM[$a]}"; done
# Workload 11: each arm's image is in IMAGE_OF (boot()).
APPEND[n257:stock]=$RAM6
APPEND[n257:knobs]="$RAM6 ${ARM[knobs]}"
APPEND[n257:installed]=$RAM6
APPEND[n257:plugin]="$RAM6 user_booted_reported"
APPEND[n257:native]="$RAM6 user_booted_reported"
APPEND[n257:waiting]="$RAM6 user_booted_reported e2e.nowait"
declare -A IMAGE_OF=([n257:stock]=n257-stock [n257:knobs]=n257-stock [n257:waiting]=n257-stock [n257:installed]=n257-plugin
	[n257:plugin]=n257-plugin [n257:native]=n257-native)
declare -A TIMEOUT=([boot]=240 [notify]=120 [systemd]=300
	[s262]=400 [s252]=400 [i262]=900 [i252]=900 [lazy]=900 [iboot]=600 [c262]=900 [c252]=900 [ifork]=600 [n257]=900
	[a262]=900 [a252]=900 [z262]=900 [r262]=900 [r252]=900 [e262]=2400 [l262]=900 [k262]=900 [p262]=900 [p252]=900)
# The -icount families: deterministic, so they may run JOBS at a time.
DETERMINISTIC="i262 i252 lazy iboot c262 c252 ifork n257 a262 a252 z262 r262 r252 e262 l262 k262 p262 p252"
deterministic() { [[ " $DETERMINISTIC " == *" ${1%%:*} "* ]]; }

kinds=()
for w in $WORKLOADS; do
	case $w in
	1 | 2) kinds+=(boot:A boot:B boot:C boot:D) ;;
	3) kinds+=(notify:0 notify:1 notify:100 notify:100c) ;;
	4) kinds+=(systemd:A systemd:B) ;;
	6) for f in ${STACK_FAMILIES:-iboot i262 lazy s262 i252}; do
		case $f in lazy) kinds+=(lazy:stock lazy:reported) ;;
		iboot) kinds+=(iboot:A iboot:C) ;;
		*) kinds+=("$f:stock" "$f:reported" "$f:knobs" "$f:expedited") ;; esac
	   done ;;
	7 | 12 | 15) for f in ${PLUGIN_FAMILIES:-c262 c252}; do
		case $f in c262 | c252) kinds+=("$f:plugin" "$f:masked") ;;
		*) die "PLUGIN_FAMILIES: c262, c252" ;; esac
	   done ;;
	8) kinds+=(ifork:stock ifork:reported ifork:favordynmods) ;;
	9) kinds+=(i262:android i262:reported lazy:knobs lazy:reported) ;;
	13) kinds+=(i262:stock i262:cleared i262:expedited i262:reported i262:fdm lazy:stock lazy:reported) ;;
	11) kinds+=(n257:stock n257:knobs n257:waiting n257:installed n257:plugin n257:native) ;;
	14) for f in a262 a252; do
		for a in stock favordynmods finish expedited reported; do kinds+=("$f:$a"); done
	   done
	   kinds+=(z262:stock z262:reported z262:nolazy) ;;
	16) for f in r262 r252; do
		for a in stock reported favordynmods fdmreported finish; do kinds+=("$f:$a"); done
	   done ;;
	17) kinds+=(e262:stock e262:reported e262:favordynmods) ;;
	18) kinds+=(l262:stock l262:reported l262:nolazy) ;;
	19) kinds+=(k262:stock k262:reported k262:expedited) ;;
	20) kinds+=(p262:plugin p262:masked p252:plugin p252:masked) ;;
	*) die "WORKLOADS: 1 (with 2), 3, 4, 6, 7, 8, 9, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20" ;;
	esac
done
mapfile -t kinds < <(printf '%s\n' "${kinds[@]}" | sort -u)
# Workload 14's pilot sets its registration's margins: a study run needs it.
[ "$WORKLOADS" != 14 ] || [ "$BOOTS" -lt 8 ] || ! grep -q '"status": "DRAFT' "$TOP/bench/prereg-arms.json" ||
	die "workload 14 is not registered yet (bench/prereg-arms.json is a draft): a pilot runs with BOOTS < 8"
[ "$WORKLOADS" != 16 ] || [ "$BOOTS" -lt 20 ] || [ -n "$(git -C "$TOP" log -1 --format=%H -- bench/prereg-seeded.json)" ] ||
	die "workload 16 is not registered yet (bench/prereg-seeded.json is not committed): a pilot runs with BOOTS < 20"
[ "$WORKLOADS" != 17 ] || [ "$BOOTS" -lt 20 ] || [ -n "$(git -C "$TOP" log -1 --format=%H -- bench/prereg-8cpu.json)" ] ||
	die "workload 17 is not registered yet (bench/prereg-8cpu.json is not committed): a pilot runs with BOOTS < 20"
[ "$WORKLOADS" != 18 ] || [ "$BOOTS" -lt 20 ] || [ -n "$(git -C "$TOP" log -1 --format=%H -- bench/prereg-lazy.json)" ] ||
	die "workload 18 is not registered yet (bench/prereg-lazy.json is not committed): a pilot runs with BOOTS < 20"
[ "$WORKLOADS" != 19 ] || [ "$BOOTS" -lt 20 ] || [ -n "$(git -C "$TOP" log -1 --format=%H -- bench/prereg-nsu.json)" ] ||
	die "workload 19 is not registered yet (bench/prereg-nsu.json is not committed): a pilot runs with BOOTS < 20"
[ "$WORKLOADS" != 20 ] || [ "$BOOTS" -lt 24 ] || [ -n "$(git -C "$TOP" log -1 --format=%H -- bench/prereg-plugin-seeded.json)" ] ||
	die "workload 20 is not registered yet (bench/prereg-plugin-seeded.json is not committed): a pilot runs with BOOTS < 24"

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
		# For qemu-run.sh's report on a hung guest (none if the build predates it).
		cp "$BUILD/System.map" "$WORK/System.map" 2>/dev/null || rm -f "$WORK/System.map"
		cp "$BUILD/obj-$KERNEL-qemu/.config" "$WORK/config" 2>/dev/null || : >"$WORK/config"
		"$TOP/scripts/initramfs.sh" qemu "$WORK/initramfs.cpio.gz"
		# The modules in the initramfs must come from the same build.
		cmp -s "$BUILD/bzImage" "$WORK/bzImage" && break
		log "build/bzImage changed while packing the initramfs: again"
	done
	cmp -s "$BUILD/bzImage" "$WORK/bzImage" || die "build/bzImage keeps changing; try later"
fi

# --- Workload 4 needs the systemd image; without it, say why and go on.
sd_image=$WORK/systemd-pristine.ext4
if [[ " ${kinds[*]} " == *" systemd:"* ]] && [ ! -f "$sd_image" ]; then
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
		mapfile -t kinds < <(printf '%s\n' "${kinds[@]}" | grep -v '^systemd:')
	fi
fi

# systemd_version SUITE: the systemd version in scripts/rootfs.sh's SUITE image.
systemd_version() {
	tar -xOf "$BUILD"/rootfs/base-"$1"-*.tar ./var/lib/dpkg/status |
		awk '/^Package: systemd$/ { p = 1 } p && /^Version:/ { print $2; exit }'
}
# pack SRC NAME [LIB FILE]: SRC's image with the tools of the after-boot
# window and bench/units/' services written in by debugfs (and FILE as LIB),
# as WORK/NAME.ext4 and, its files, WORK/NAME.cpio.
pack() {
	local src=$1 name=$2 lib=${3:-} file=${4:-} rc=0
	cp --sparse=always "$src" "$WORK/$name.ext4.tmp"
	debugfs -w -f - "$WORK/$name.ext4.tmp" >/dev/null <<-EOF || die "debugfs on $name"
		write $BUILD/guest-bin/bench_guest /usr/local/bin/bench_guest
		sif /usr/local/bin/bench_guest mode 0100755
		write $TOP/bench/units/bench-knobs.service /etc/systemd/system/bench-knobs.service
		sif /etc/systemd/system/bench-knobs.service mode 0100644
		write $TOP/bench/units/bench-finish.service /etc/systemd/system/bench-finish.service
		sif /etc/systemd/system/bench-finish.service mode 0100644
		write $TOP/bench/units/bench-churn.service /etc/systemd/system/bench-churn.service
		sif /etc/systemd/system/bench-churn.service mode 0100644
		${lib:+rm $lib}
		${lib:+write $file $lib}
		${lib:+sif $lib mode 0100644}
	EOF
	mkdir -p "$WORK/mnt"
	mount -o loop,ro "$WORK/$name.ext4.tmp" "$WORK/mnt"
	# debugfs says little when a command fails: check what it wrote.
	cmp -s "$BUILD/guest-bin/bench_guest" "$WORK/mnt/usr/local/bin/bench_guest" || rc=1
	for u in bench-knobs bench-finish bench-churn; do
		cmp -s "$TOP/bench/units/$u.service" "$WORK/mnt/etc/systemd/system/$u.service" || rc=1
	done
	[ -z "$lib" ] || cmp -s "$file" "$WORK/mnt$lib" || rc=1
	# Sorted: the order of an ext4 directory depends on its image's hash seed.
	[ $rc != 0 ] || (cd "$WORK/mnt" && find . -xdev | LC_ALL=C sort | cpio -o -H newc --quiet) >"$WORK/$name.cpio" ||
		rc=$?
	umount "$WORK/mnt"
	[ $rc = 0 ] || die "packing $name as an initramfs"
	mv "$WORK/$name.ext4.tmp" "$WORK/$name.ext4"
}
# --- Workload 6: the systemd images of both suites.
for suite in sid bookworm; do
	case $suite in sid) fams=$SID_FAMILIES ;; *) fams=$BOOKWORM_FAMILIES ;; esac
	printf '%s\n' "${kinds[@]}" | grep -qE "^(${fams// /|}):" || continue
	[ -f "$WORK/stack-$suite.ext4" ] && continue
	img=$(bash "$TOP/scripts/rootfs.sh" "$suite") || die "scripts/rootfs.sh $suite failed"
	pack "$img/enabled.ext4" "stack-$suite"
done
# --- Workload 11: trixie's images.  make systemd-native (which first boots
# its library through its own e2e checks) builds PID 1's library twice, with
# systemd-plugin/native's patch and without it, the same way; the native
# image (no plugin) has the first, the stock image (the native one) and the
# plugin's image the second: the stock and native images differ by the
# patch alone, the stock and plugin images by the plugin alone.
native_core=$BUILD/native/trixie/libsystemd-core-257.so
unpatched_core=$BUILD/native/trixie/unpatched/libsystemd-core-257.so
if printf '%s\n' "${kinds[@]}" | grep -q '^n257:' && [ ! -f "$WORK/n257-stock.ext4" ]; then
	# Built from this patch (systemd-native.sh's stamp), both libraries.
	stamp=$(sha256sum <"$TOP"/systemd-plugin/native/0001-*.patch | cut -c1-16)
	[ "$(cut -d' ' -f1 "${native_core%/*}/built" 2>/dev/null)" = "$stamp" ] && [ "$unpatched_core" -nt "$native_core" ] ||
		SYSTEMD_SUITE=trixie "$TOP/scripts/systemd-native.sh" >&2 || die "make systemd-native SYSTEMD_SUITE=trixie failed"
	cmp -s "$native_core" "$unpatched_core" && die "the libraries with and without the patch are the same"
	img=$(NATIVE_CORE=$native_core bash "$TOP/scripts/rootfs.sh" trixie) || die "scripts/rootfs.sh trixie failed"
	# libsystemd-shared has no ABI promise across versions: the same one.
	image_version=$(systemd_version trixie)
	[ "$(cut -d' ' -f2 "${native_core%/*}/built")" = "$image_version" ] ||
		die "PID 1's library was built from systemd $(cut -d' ' -f2 "${native_core%/*}/built"), the image has $image_version"
	mkdir -p "$WORK/mnt"
	mount -o loop,ro "$img/native.ext4" "$WORK/mnt"
	lib=$(cd "$WORK/mnt" && ls -d usr/lib/*/systemd/"${native_core##*/}" 2>/dev/null) && lib=/$lib || lib=
	umount "$WORK/mnt"
	[ -n "$lib" ] || die "no ${native_core##*/} in trixie's image"
	pack "$img/native.ext4" n257-native
	pack "$img/native.ext4" n257-stock "$lib" "$unpatched_core"
	pack "$img/enabled.ext4" n257-plugin "$lib" "$unpatched_core"
fi
# --- The setup, printed in full in the report.
if [ ! -f "$setup" ]; then
	: >"$setup"
	note date "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
	note boots_per_kind "$BOOTS"
	note seed "$SEED"
	note kinds "${kinds[*]}"
	note project_commit "$(git -C "$TOP" rev-parse HEAD); uncommitted then in kernel/ uapi/ configs/ bench/ scripts/ systemd-plugin/: $(git -C "$TOP" status --short -- kernel uapi configs bench scripts systemd-plugin | awk '{ printf "%s ", $2 }')"
	prereg=bench/prereg.json
	[ "$WORKLOADS" = 6 ] && prereg=bench/prereg-stack.json
	[ "$WORKLOADS" = 7 ] && prereg=bench/prereg-plugin.json
	[ "$WORKLOADS" = 8 ] && prereg=bench/prereg-fork.json
	[ "$WORKLOADS" = 9 ] && prereg=bench/prereg-knobs.json
	[ "$WORKLOADS" = 11 ] && prereg=bench/prereg-native.json
	[ "$WORKLOADS" = 12 ] && prereg=bench/prereg-plugin-static.json
	[ "$WORKLOADS" = 13 ] && prereg=bench/prereg-headline.json
	[ "$WORKLOADS" = 14 ] && prereg=bench/prereg-arms.json
	[ "$WORKLOADS" = 15 ] && prereg=bench/prereg-plugin-cost.json
	[ "$WORKLOADS" = 16 ] && prereg=bench/prereg-seeded.json
	[ "$WORKLOADS" = 17 ] && prereg=bench/prereg-8cpu.json
	[ "$WORKLOADS" = 18 ] && prereg=bench/prereg-lazy.json
	[ "$WORKLOADS" = 19 ] && prereg=bench/prereg-nsu.json
	[ "$WORKLOADS" = 20 ] && prereg=bench/prereg-plugin-seeded.json
	note prereg_commit "$prereg: $(git -C "$TOP" log -1 --format='%H %cI' -- "$prereg")"
	note kernel_image "$WORK/bzImage sha1 $(sha1sum <"$WORK/bzImage" | cut -d' ' -f1), from build/bzImage of $(date -u -r "$BUILD/bzImage" +%Y-%m-%dT%H:%M:%SZ)"
	note rootfs_updated "${ROOTFS_UPDATED:-1}: scripts/rootfs.sh's images are past their first boot (/etc/.updated, /var/.updated) where the suite has systemd-update-done (sid, trixie; not bookworm); ROOTFS_UPDATED=0 boots a first boot every time, as workloads 4 to 12 did"
	note kernel_version "$(file -b "$WORK/bzImage" | sed -n 's/.*version \([^,]*\),.*/\1/p')"
	note initramfs "sha1 $(sha1sum <"$WORK/initramfs.cpio.gz" | cut -d' ' -f1) (scripts/initramfs.sh qemu: busybox, scripts/guest/*.sh, build/guest-bin/*, modules)"
	for c in CONFIG_HZ CONFIG_PREEMPT CONFIG_PREEMPT_VOLUNTARY CONFIG_PREEMPT_NONE CONFIG_PREEMPT_RCU \
		CONFIG_NR_CPUS CONFIG_NO_HZ_IDLE CONFIG_NO_HZ_FULL CONFIG_RCU_LAZY CONFIG_RCU_NOCB_CPU \
		CONFIG_RCU_TRACE CONFIG_USER_BOOTED_REPORTED CONFIG_CGROUP_FAVOR_DYNMODS; do
		note "$c" "$(sed -n "s/^$c=//p; s/^# $c is not set/n/p" "$WORK/config" | head -n 1)"
	done
	note kernel_config "build/obj-$KERNEL-qemu/.config at the copy (tinyconfig + configs/qemu.config + configs/rootfs.config), sha1 $(sha1sum <"$WORK/config" | cut -d' ' -f1)"
	note qemu_run "scripts/qemu-run.sh sha1 $(sha1sum <"$WORK/scripts/qemu-run.sh" | cut -d' ' -f1) (copied at the start)"
	note accelerator "$(cat "$BUILD/.accel" 2>/dev/null || echo 'probed at the first boot')"
	note qemu "$(qemu-system-x86_64 --version | head -n 1)"
	note qemu_cmdline "qemu-system-x86_64 -accel ACCEL -smp ${SMP:-2} -m 1G -nodefaults -no-reboot -display none -serial stdio -kernel bzImage -initrd initramfs.cpio.gz (workload 4: -drive file=IMAGE,format=raw,if=virtio,cache=unsafe instead of -initrd) -append 'console=ttyS0 panic=-1 oops=panic APPEND' -monitor pipe:LOG.mon (scripts/qemu-run.sh)"
	note vcpus "${SMP:-2}$(for f in "${!VCPUS[@]}"; do printf '; %s: %s' "$f" "${VCPUS[$f]}"; done)"
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
	for suite in sid bookworm; do
		[ -f "$WORK/stack-$suite.ext4" ] || continue
		note "systemd_image_$suite" "scripts/rootfs.sh $suite (Debian $suite minbase + systemd-sysv + udev + the systemd plugin, enabled) + bench_guest + bench/units/bench-knobs.service, sha1 $(sha1sum <"$WORK/stack-$suite.ext4" | cut -d' ' -f1); a fresh copy per boot"
		note "systemd_version_$suite" "$(systemd_version "$suite")"
	done
	[ ! -f "$WORK/stack-sid.ext4" ] && [ ! -f "$WORK/stack-bookworm.ext4" ] ||
		note systemd_version "$(grep '^systemd_version_' "$setup" | sed 's/^systemd_version_\([a-z]*\): /\1 /' | paste -sd ';' | sed 's/;/; /g')"
	note qemu_seeded "scripts/qemu-run.sh -r, under TCG -cpu qemu64,+rdrand (kinds of $SEEDED_FAMILIES: the guest's RNG seeded at boot)"
	note qemu_icount "$ICOUNT -rtc base=2026-01-01T00:00:00 + ROUND hours,clock=vm (kinds of $DETERMINISTIC; JOBS=${JOBS:-1} at a time)"
	if [ -f "$WORK/n257-stock.ext4" ]; then
		note systemd_version_trixie "$(systemd_version trixie)"
		note native_core "$native_core sha1 $(sha1sum <"$native_core" | cut -d' ' -f1), without the patch $unpatched_core sha1 $(sha1sum <"$unpatched_core" | cut -d' ' -f1) (make systemd-native SYSTEMD_SUITE=trixie: Debian's source of systemd $(cut -d' ' -f2 "${native_core%/*}/built"), built as debian/rules configures it, LTO off, stripped as dh_strip does; systemd-plugin/native's patch, sha256 prefix $(cut -d' ' -f1 "${native_core%/*}/built"))"
		for i in n257-stock n257-plugin n257-native; do
			note "systemd_image_$i" "scripts/rootfs.sh trixie (NATIVE_CORE=): $i (bench/prereg-native.json) + bench_guest + bench/units/bench-knobs.service, as an initramfs, sha1 $(sha1sum <"$WORK/$i.cpio" | cut -d' ' -f1)"
		done
	fi
	[ -f "$sd_image" ] && note systemd_image "scripts/rootfs.sh (Debian bookworm minbase + systemd-sysv + udev + the systemd plugin), sha1 $(sha1sum <"$sd_image" | cut -d' ' -f1); a fresh copy per boot"
fi

# --- The schedule: BOOTS rounds, each kind once per round, shuffled.
sched=$WORK/schedule.txt
if [ ! -f "$sched" ]; then
	# Deterministic (icount) kinds first: they may run JOBS at a time.
	$PY - "$SEED" "$BOOTS" "$DETERMINISTIC" "${kinds[@]}" >"$sched" <<-'EOF'
		import random, sys
		rng = random.Random(int(sys.argv[1]))
		det = lambda k: k.split(":")[0] in sys.argv[3].split()
		for group in ([k for k in sys.argv[4:] if det(k)], [k for k in sys.argv[4:] if not det(k)]):
		    for r in range(1, int(sys.argv[2]) + 1):
		        ks = list(group)
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
	local image=$WORK/bzImage disk=$WORK/disk-$seq.ext4 extra=
	local log=$WORK/logs/$seq-${kind/:/-}-$attempt.log
	local load start
	load=$(cut -d' ' -f1 /proc/loadavg)
	start=$(date -u +%Y-%m-%dT%H:%M:%SZ)
	# -icount: the guest's clock, RTC included, follows the virtual clock
	# from a date fixed per round, so that host time leaks into nothing
	# (the RTC seeds the kernel's randomness, hence ASLR and hash layouts).
	# Rounds differ, arms within a round start alike.
	deterministic "$kind" &&
		extra="$ICOUNT -rtc base=$(date -u -d "2026-01-01 00:00 UTC + ${round/extra/$seq} hours" +%Y-%m-%dT%H:%M:%S),clock=vm"
	if [ "$family" = systemd ]; then
		cp --sparse=always "$sd_image" "$disk"
		args=(-d "$disk")
	elif [[ $family == s262 ]]; then
		cp --sparse=always "$WORK/stack-sid.ext4" "$disk"
		args=(-d "$disk")
	elif [[ $family == s252 ]]; then
		cp --sparse=always "$WORK/stack-bookworm.ext4" "$disk"
		args=(-d "$disk")
	elif [[ " $SID_FAMILIES " == *" $family "* ]]; then
		args=(-i "$WORK/stack-sid.cpio")
	elif [ -n "${IMAGE_OF[$kind]:-}" ]; then
		args=(-i "$WORK/${IMAGE_OF[$kind]}.cpio")
	elif [[ " $BOOKWORM_FAMILIES " == *" $family "* ]]; then
		args=(-i "$WORK/stack-bookworm.cpio")
	else
		args=(-i "$WORK/initramfs.cpio.gz")
	fi
	[[ " $SEEDED_FAMILIES " == *" $family "* ]] && args+=(-r)
	[ -z "${VCPUS[$family]:-}" ] || args+=(-s "${VCPUS[$family]}")
	t0=$(date +%s.%N)
	busy0=$(host_busy)
	TIMEFORMAT='%R %U %S'
	{ time nice -n "$NICE" bash "$WORK/scripts/qemu-run.sh" -k "$image" "${args[@]}" \
		${extra:+-x "$extra"} -t "${TIMEOUT[$family]}" -l "$log" -a "${APPEND[$kind]}" 2>"$log.qemu" || rc=$?; } 2>"$log.time"
	rm -f "$disk"
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
	case $status in ok) return 0 ;; tcg-int3) return 3 ;; *) return 1 ;; esac
}
# run SEQ ROUND KIND: a boot, and once more after the known TCG fault.
run() {
	local rc=0
	boot "$1" "$2" "$3" 1 || rc=$?
	[ $rc -eq 3 ] && { boot "$1" "$2" "$3" 2 && return 0; }
	return $rc
}

SECONDS=0
total=$(wc -l <"$sched")
log "$total boots ($BOOTS rounds of: ${kinds[*]}); logs in $WORK/logs"
seq=0
while read -r round kind; do
	seq=$((seq + 1))
	grep -q "^$seq," "$runs" && continue # RESUME: done already
	if deterministic "$kind"; then
		while [ "$(jobs -rp | wc -l)" -ge "${JOBS:-1}" ]; do wait -n || true; done
		run "$seq" "$round" "$kind" </dev/null &
	else
		wait
		run "$seq" "$round" "$kind" || true
	fi
done <"$sched"
wait

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

# Every boot's console log, xz-compressed, next to the CSVs, with this
# invocation's runs.csv and setup.txt: OUT/logs/NAME is a WORKDIR that
# bench/analyze*.py read again (they open LOG.xz where LOG is gone).
keep=$OUT/logs/$(basename "$WORK")
mkdir -p "$keep/logs"
cp "$runs" "$setup" "$keep/"
for f in "$WORK"/logs/*.log; do
	[ -e "$f" ] || continue
	z=$keep/logs/${f##*/}.xz
	[ -f "$z" ] && [ ! "$f" -nt "$z" ] && continue # kept already (RESUME)
	nice -n 19 xz -T1 -c "$f" >"$z.tmp"
	mv "$z.tmp" "$z"
done
log "console logs: ${keep#"$TOP"/}/logs/ (xz)"

log "analysis"
if [ "$WORKLOADS" = 6 ]; then
	$PY "$TOP/bench/analyze_stack.py" "$WORK" "$OUT"
elif [ "$WORKLOADS" = 7 ] || [ "$WORKLOADS" = 12 ] || [ "$WORKLOADS" = 15 ] || [ "$WORKLOADS" = 20 ]; then
	$PY "$TOP/bench/analyze_plugin.py" "$WORK" "$OUT"
elif [ "$WORKLOADS" = 8 ]; then
	$PY "$TOP/bench/analyze_fork.py" "$WORK" "$OUT"
elif [ "$WORKLOADS" = 9 ]; then
	$PY "$TOP/bench/analyze_knobs.py" "$WORK" "$OUT"
elif [ "$WORKLOADS" = 13 ]; then
	$PY "$TOP/bench/analyze_knobs.py" --prereg "$TOP/bench/prereg-headline.json" "$WORK" "$OUT"
elif [ "$WORKLOADS" = 11 ]; then
	$PY "$TOP/bench/analyze_native.py" "$WORK" "$OUT"
elif [ "$WORKLOADS" = 14 ]; then
	$PY "$TOP/bench/analyze_knobs.py" --prereg "$TOP/bench/prereg-arms.json" "$WORK" "$OUT"
elif [ "$WORKLOADS" = 16 ]; then
	$PY "$TOP/bench/analyze_knobs.py" --prereg "$TOP/bench/prereg-seeded.json" "$WORK" "$OUT"
elif [ "$WORKLOADS" = 17 ]; then
	$PY "$TOP/bench/analyze_knobs.py" --prereg "$TOP/bench/prereg-8cpu.json" "$WORK" "$OUT"
elif [ "$WORKLOADS" = 18 ]; then
	$PY "$TOP/bench/analyze_knobs.py" --prereg "$TOP/bench/prereg-lazy.json" "$WORK" "$OUT"
elif [ "$WORKLOADS" = 19 ]; then
	$PY "$TOP/bench/analyze_knobs.py" --prereg "$TOP/bench/prereg-nsu.json" "$WORK" "$OUT"
else
	$PY "$TOP/bench/analyze.py" parse "$WORK" "$OUT"
	$PY "$TOP/bench/analyze.py" report "$OUT"
fi
log "report: ${OUT#"$TOP"/}/report.md"
