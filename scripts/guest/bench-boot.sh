# Guest side of "make bench" (bench/run.sh), workloads 1 and 2: a synthetic
# userspace boot, the end of boot (reported or not, by the arm), then a 15 s
# window under light load and, optionally, an idle window.  Grace periods and
# expedited-GP IPIs are counted per phase from the rcu tracepoints and a
# kprobe that bench/run.sh sets on the kernel command line; trace_marker
# lines mark the phases.  Prints "BENCH key=value ..." lines for the host.
# Parameters (kernel command line): bench.iso=N (membarriers in isolation
# first) bench.rounds= bench.mb= bench.report=0|1
# bench.win=SECONDS bench.period=MS bench.spin=1 (a CPU-bound task on the last
# CPU during the window) bench.idle=SECONDS.
# Not a "make test" suite: it has no append line.
T=/sys/kernel/tracing
iso=100 rounds=20 mb=10 report=0 win=15 period=100 idle=0 spin=
for arg in $(cat /proc/cmdline); do
	case $arg in
	bench.iso=*) iso=${arg#*=} ;; bench.rounds=*) rounds=${arg#*=} ;; bench.mb=*) mb=${arg#*=} ;;
	bench.report=*) report=${arg#*=} ;; bench.win=*) win=${arg#*=} ;;
	bench.period=*) period=${arg#*=} ;; bench.idle=*) idle=${arg#*=} ;;
	bench.spin=1) spin=spin ;;
	esac
done
bad() { echo "BENCH error=$*"; exit 1; }
phase() {
	echo "BENCH phase=$1" > $T/trace_marker || bad "trace_marker"
	echo "bench: phase=$1" > /dev/kmsg
}

[ -w $T/trace_marker ] || bad "no tracefs at $T"
[ -d $T/events/rcu/rcu_exp_grace_period ] || bad "no rcu tracepoints (CONFIG_RCU_TRACE)"
[ -d $T/events/bench/exp_ipi ] || bad "no kprobe event bench/exp_ipi (kprobe_event= on the command line)"
ko=$(find /lib/modules -name user_booted_subscriber.ko | head -n 1)
[ -n "$ko" ] || bad "no user_booted_subscriber.ko"
mkdir -p /sys/fs/cgroup && mount -t cgroup2 none /sys/fs/cgroup || bad "cgroup2 mount"
echo "BENCH setup uname=$(uname -r | tr ' ' _) ncpu=$(nproc) user_booted=$(cat /proc/sys/kernel/user_booted) expedited=$(cat /sys/kernel/rcu_expedited 2>/dev/null || echo na)"
echo "BENCH version $(cat /proc/version)"
echo "BENCH cmdline $(cat /proc/cmdline)"

# Issue 4: synchronize_rcu() from userspace during boot, in isolation.
phase iso
out=$(bench_guest mb "$iso") || bad "bench_guest mb"
echo "BENCH $out"

# Workload 1: the synthetic userspace boot.
phase wl1
out=$(bench_guest boot "$rounds" "$mb" "$ko") || bad "bench_guest boot"
phase report
echo "BENCH $out"
# The end of userspace boot: arm B reports it (timing the write).
if [ "$report" = 1 ]; then
	out=$(bench_guest write) || bad "bench_guest write"
	echo "BENCH $out"
fi
echo "BENCH after_boot user_booted=$(cat /proc/sys/kernel/user_booted)"

# Workload 2: light load for $win s after the end of boot.
phase win
out=$(bench_guest load "$period" "$((win * 1000))" $spin) || bad "bench_guest load"
echo "BENCH $out"
# Issue 4: an idle window after that.
if [ "$idle" -gt 0 ]; then
	phase idle
	sleep "$idle"
fi
phase end

# Count per phase: expedited GPs (rcu_exp_grace_period "start"), normal GPs
# (rcu_grace_period "start"), expedited-GP IPIs (rcu_exp_handler runs).
cat $T/trace > /tmp/trace || bad "reading the trace"
grep -q '^# entries-in-buffer' /tmp/trace || bad "no trace header"
counts=$(awk '
/entries-in-buffer\/entries-written:/ { split($3, e, "/"); lost = e[2] - e[1] }
/tracing_mark_write: BENCH phase=/ { sub(/.*BENCH phase=/, ""); ph = $1; seen[ph] = 1; next }
ph == "" { next }
/ rcu_exp_grace_period: / && $NF == "start" {
	nexp[ph]++
	# Who asked, after boot end: the task that started the expedited GP.
	if (ph == "win" || ph == "idle") {
		c = $1; sub(/-[0-9]+$/, "", c); sub(/\/.*$/, "", c); gsub(/[,:=]/, "_", c)
		if (!((ph, c) in by)) order[ph] = order[ph] " " c
		by[ph, c]++
	}
}
/ rcu_grace_period: / && $NF == "start" { gp[ph]++ }
/ exp_ipi: / { ipi[ph]++ }
END {
	printf "trace lost=%d", lost
	n = split("iso wl1 report win idle", p, " ")
	for (i = 1; i <= n; i++)
		if (seen[p[i]])
			printf " %s_exp=%d %s_gp=%d %s_ipi=%d", p[i], nexp[p[i]], p[i], gp[p[i]], p[i], ipi[p[i]]
	for (i = 1; i <= n; i++) {
		if (order[p[i]] == "")
			continue
		m = split(order[p[i]], cs, " "); sep = ""
		printf " %s_exp_by=", p[i]
		for (j = 1; j <= m; j++) { printf "%s%s:%d", sep, cs[j], by[p[i], cs[j]]; sep = "," }
	}
	printf "\n"
}' /tmp/trace) || bad "counting the trace"
echo "BENCH $counts"

# The kernel's own account, and anything at warning level or worse (the
# host looks for those on the console).
dmesg | grep -E 'Run /init|user_booted: |rcu: userspace boot|bench: phase' | sed 's/^/BENCH dmesg /'
dmesg -r | sed -n 's/^<[0-4]>//p'
exit 0
