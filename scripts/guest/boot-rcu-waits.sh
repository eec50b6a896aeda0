#!/bin/sh
# Which synchronize_rcu()/synchronize_srcu() callers did userspace boot
# wait for, and how long?  Frederic's question, answered from existing
# tracing (kprobes and kretprobes, no tracepoint of the series): reads an
# ftrace text trace (default: the live /sys/kernel/tracing/trace) of a
# boot with (one line)
#
#   user_booted_reported trace_clock=mono trace_event=user_booted:user_booted
#   trace_options=stacktrace trace_buf_size=2M kprobe_event=KPROBES
#
# where KPROBES is what "boot-rcu-waits.sh -k" prints (the probe names of
# bench/run.sh's GPTRACE), and prints the totals and the callers with the
# longest total wait:
#
#   userspace boot (ended: reported) waited for 31 RCU/SRCU grace periods,
#   31 expedited, 5 ms in all; init waited for 30, 4 ms   (one line)
#     30 waits, 3861 us: __x64_sys_membarrier
#
# A wait is a task's time from the entry of synchronize_rcu() or
# synchronize_srcu() to its return; it is expedited if the task entered
# synchronize_rcu_expedited() or synchronize_srcu_expedited() in between.
# Counted: the part of each wait between init launch (the user_booted
# event's time minus its since_launch_ns) and the end of userspace boot.
# One clock: since_launch_ns is CLOCK_MONOTONIC, so the trace clock must be
# "mono" (checked on the live trace).  Prints nothing after an
# "unreported" boot or one that ended before init launch
# (since_launch_ns=0): there is no userspace boot to account for.  The caller is the first frame
# of the entry's stack trace outside the wrappers (synchronize_*(), and
# rcu_sync_enter() and percpu_down_write(), through which every
# percpu-rwsem writer waits; -w adds a regex of more); without stacktrace,
# the return address in the kretprobe's event.
#
# Usage: boot-rcu-waits.sh [-n TOP] [-w EXTRA_WRAPPER_REGEX] [TRACE_FILE]
#        boot-rcu-waits.sh -k   (print KPROBES)

tracefs=/sys/kernel/tracing
kprobes="p:gpwait/rcu_in,synchronize_rcu;r64:gpwait/rcu_out,synchronize_rcu"
kprobes="$kprobes;p:gpwait/srcu_in,synchronize_srcu;r64:gpwait/srcu_out,synchronize_srcu"
kprobes="$kprobes;p:gpwait/rcuexp_in,synchronize_rcu_expedited"
kprobes="$kprobes;p:gpwait/srcuexp_in,synchronize_srcu_expedited"

top=10 extra=
while getopts kn:w: o; do
	case $o in
	k) echo "$kprobes"; exit 0 ;;
	n) top=$OPTARG ;;
	w) extra="|$OPTARG" ;;
	*) echo "usage: $0 [-n TOP] [-w REGEX] [TRACE] | -k" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
trace=${1:-$tracefs/trace}
fail() { echo "$0: $*" >&2; exit 2; }

if [ $# -eq 0 ]; then
	[ -r "$trace" ] || fail "no $trace: mount tracefs"
	grep -q '\[mono\]' $tracefs/trace_clock ||
		fail "trace clock is not mono ($(cat $tracefs/trace_clock)): boot with trace_clock=mono"
	for e in rcu_in rcu_out srcu_in srcu_out rcuexp_in srcuexp_in; do
		grep -q 1 $tracefs/events/gpwait/$e/enable 2>/dev/null ||
			fail "kprobe event gpwait/$e not enabled: boot with kprobe_event=$kprobes"
	done
	grep -q 1 $tracefs/events/user_booted/user_booted/enable 2>/dev/null ||
		fail "user_booted:user_booted not enabled: boot with trace_event=user_booted:user_booted"
fi

wrappers="synchronize_(rcu|srcu)(_expedited)?|rcu_sync_enter|percpu_down_write"
wrappers="^($wrappers|.*kprobe.*|.*ftrace.*|trace_.*|__traceiter_.*|0x[0-9a-f]+$extra)\$"

awk -v top="$top" -v wrappers="$wrappers" '
/^# entries-in-buffer\/entries-written: / {
	split($3, e, "/")
	if (e[2] > e[1])
		printf "warning: %d events lost (the trace buffer was full: a larger trace_buf_size=)\n", e[2] - e[1] > "/dev/stderr"
	next
}
# One event line: "comm-pid [cpu] flags ts: event: fields"
/-[0-9]+ +(\([ 0-9-]*\) +)?\[[0-9]+\] .* [0-9]+\.[0-9]+: / {
	cur = 0
	match($0, / [0-9]+\.[0-9]+: /)
	ts = substr($0, RSTART + 1, RLENGTH - 3) + 0
	ev = substr($0, RSTART + RLENGTH)
	match($0, /-[0-9]+ +(\([ 0-9-]*\) +)?\[[0-9]+\] /)
	pid = substr($0, RSTART + 1) + 0
	if (ev ~ /^s?rcu_in: /) {
		# A task does not nest these: a new entry replaces an open one.
		n++
		e_start[n] = ts; e_init[n] = (pid == 1); e_srcu[n] = (ev ~ /^srcu/)
		open[pid] = n
		last[pid] = n
	} else if (ev ~ /^s?rcuexp_in: /) {
		if (open[pid] && e_srcu[open[pid]] == (ev ~ /^srcu/))
			e_exp[open[pid]] = 1
		last[pid] = 0
	} else if (ev ~ /^s?rcu_out: /) {
		i = open[pid]
		if (i && e_srcu[i] == (ev ~ /^srcu/)) {
			e_end[i] = ts
			# "(caller+off/len <- synchronize_rcu)"
			c = ev
			sub(/^[a-z_]+: \(/, "", c)
			sub(/[+ ].*/, "", c)
			e_caller[i] = c
			open[pid] = 0
		}
		last[pid] = 0
	} else if (ev ~ /^<stack trace>/) {
		# The stack of the last entry of this task (CPUs may interleave).
		if (last[pid] && !stacked[last[pid]])
			cur = last[pid]
		stacked[cur] = 1
	} else if (ev ~ /^user_booted: /) {
		match(ev, /reason=[a-z]+/)
		reason = substr(ev, RSTART + 7, RLENGTH - 7)
		match(ev, /since_launch_ns=[0-9]+/)
		end = ts
		launch = ts - substr(ev, RSTART + 16, RLENGTH - 16) / 1e9
	} else {
		last[pid] = 0
	}
	next
}
# A stack trace line: " => func" (with or without +off/len)
/^ => / {
	if (cur && e_who[cur] == "") {
		f = $2
		sub(/\+.*/, "", f)
		if (f !~ wrappers)
			e_who[cur] = f
	}
	next
}
END {
	# No userspace boot to account for: not asked to report, or ended
	# before init launch (sysctl.kernel.user_booted=1 on the command line).
	if (reason == "" || reason == "unreported" || end <= launch)
		exit 0
	for (i = 1; i <= n; i++) {
		# The part of the wait inside [launch, end]; one still open at
		# the end of the trace waited until then.
		lo = e_start[i]
		hi = e_end[i] != "" ? e_end[i] : end
		if (lo < launch) lo = launch
		if (hi > end) hi = end
		if (hi <= lo)
			continue
		ns = (hi - lo) * 1e9
		who = e_who[i] != "" ? e_who[i] : e_caller[i] != "" ? e_caller[i] : "(unknown)"
		waits++; total += ns
		if (e_exp[i]) nexp++
		if (e_init[i]) { iwaits++; itotal += ns }
		cw[who]++; cns[who] += ns
	}
	printf "userspace boot (ended: %s) waited for %d RCU/SRCU grace periods, ", \
		reason, waits
	printf "%d expedited, %d ms in all; init waited for %d, %d ms\n", \
		nexp, total / 1e6 + 0.5, iwaits, itotal / 1e6 + 0.5
	for (k = 0; k < top; k++) {
		best = ""
		for (who in cns)
			if (best == "" || cns[who] > cns[best])
				best = who
		if (best == "")
			break
		printf "  %d waits, %d us: %s\n", cw[best], cns[best] / 1e3 + 0.5, best
		delete cns[best]
	}
}' "$trace"
