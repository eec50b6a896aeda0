#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Which synchronize_rcu()/synchronize_srcu() callers did userspace boot
# wait for, and how long?  Reads an ftrace text trace (default: the live
# /sys/kernel/tracing/trace) of a boot with
#
#   user_booted_reported trace_event=rcu:rcu_synchronize,user_booted:user_booted
#   trace_options=stacktrace trace_buf_size=16M
#
# and prints the totals and the callers with the longest total wait:
#
#   userspace boot (ended: reported) waited for 31 RCU/SRCU grace periods,
#   31 expedited, 5 ms in all; init waited for 30, 4 ms   (one line)
#     27 waits, 3861 us: cgroup_procs_write_start
#
# Counted: the part of each wait between init launch (the user_booted
# event's time minus its since_launch_ns) and the end of userspace boot.
# Prints nothing unless init reported (or the fallback timeout fired):
# after a "cmdline" or "unreported" boot there is no userspace boot to
# account for.  The caller is the first frame of the event's stack trace
# outside the wrappers (synchronize_*(), and rcu_sync_enter() and
# percpu_down_write(), through which every percpu-rwsem writer waits; -w
# adds a regex of more); without stacktrace, the event's caller field.
#
# Usage: rcu-boot-waits.sh [-n TOP] [-w EXTRA_WRAPPER_REGEX] [TRACE_FILE]

top=10 extra=
while getopts n:w: o; do
	case $o in
	n) top=$OPTARG ;;
	w) extra="|$OPTARG" ;;
	*) echo "usage: $0 [-n TOP] [-w REGEX] [TRACE]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
trace=${1:-/sys/kernel/tracing/trace}

wrappers="synchronize_(rcu|srcu)(_expedited)?|rcu_sync_enter|percpu_down_write"
wrappers="^($wrappers|trace_.*|__traceiter_.*$extra)\$"

awk -v top="$top" -v wrappers="$wrappers" '
# One event line: "comm-pid [cpu] flags ts: event: fields"
/-[0-9]+ +(\([ 0-9-]*\) +)?\[[0-9]+\] .* [0-9]+\.[0-9]+: / {
	cur = 0
	match($0, / [0-9]+\.[0-9]+: /)
	ts = substr($0, RSTART + 1, RLENGTH - 3) + 0
	ev = substr($0, RSTART + RLENGTH)
	match($0, /-[0-9]+ +(\([ 0-9-]*\) +)?\[[0-9]+\] /)
	pid = substr($0, RSTART + 1) + 0
	if (ev ~ /^rcu_synchronize: /) {
		n++
		e_ts[n] = ts; e_init[n] = (pid == 1); e_exp[n] = (ev ~ / expedited=1/)
		match(ev, / wait_ns=[0-9]+/)
		e_ns[n] = substr(ev, RSTART + 9, RLENGTH - 9) + 0
		match(ev, / caller=[^ ]+/)
		c = substr(ev, RSTART + 8, RLENGTH - 8)
		sub(/\+.*/, "", c)
		e_caller[n] = c
		last[pid] = n
	} else if (ev ~ /^<stack trace>/) {
		# The stack of the last event of this task (CPUs may interleave).
		if (last[pid] && !stacked[last[pid]])
			cur = last[pid]
		stacked[cur] = 1
	} else if (ev ~ /^user_booted: /) {
		match(ev, /reason=[a-z]+/)
		reason = substr(ev, RSTART + 7, RLENGTH - 7)
		match(ev, /since_launch_ns=[0-9]+/)
		end = ts
		launch = ts - substr(ev, RSTART + 16, RLENGTH - 16) / 1e9
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
	if (reason != "reported" && reason != "timeout")
		exit 0
	for (i = 1; i <= n; i++) {
		# The part of the wait inside [launch, end].
		lo = e_ts[i] - e_ns[i] / 1e9
		hi = e_ts[i]
		if (lo < launch) lo = launch
		if (hi > end) hi = end
		if (hi <= lo)
			continue
		ns = (hi - lo) * 1e9
		who = e_who[i] != "" ? e_who[i] : e_caller[i]
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
