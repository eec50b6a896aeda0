#!/usr/bin/python3
"""Analysis of issue 18's study, "WORKLOADS=6 make bench" (bench/run.sh).

  analyze_stack.py WORKDIR [WORKDIR...] OUTDIR
      console logs -> OUTDIR/{i262,s262,i252,lazy,iboot,callers,runs}.csv,
      setup.txt, report.md, *.png (several WORKDIRs: runs of make bench
      made side by side, e.g. the -icount kinds and the wall-clock ones;
      boot numbers get 100000 x the WORKDIR's index added)
  analyze_stack.py --report OUTDIR
      the report again from the committed CSVs
  analyze_stack.py --summary OUTDIR
      the numbers the hand-written summaries quote, and every comparison
      of the report's tables that the registered rule calls LOSES

Four arms on one kernel image (stock; user_booted_reported; the existing
knobs: rcu_expedited=1 until a unit clears it after boot, plus
cgroup_favordynmods; always expedited), real systemd boots of Debian sid and
bookworm, every grace-period wait of every task traced with its kernel stack.
The statistics are analyze.py's; the targets are in bench/prereg-stack.json.
"""
import collections
import csv
import json
import os
import re
import sys

import numpy as np

import analyze as A
import analyze_cgroup as C

ARMS = {"stock": "stock", "reported": "reported (this series)",
        "knobs": "existing knobs", "expedited": "always expedited"}
FAMILIES = {"i262": "Debian sid, systemd 262, -icount", "s262": "Debian sid, systemd 262, wall clock",
            "i252": "Debian bookworm, systemd 252, -icount"}
LAZY = {"stock": "stock, rcu_nocbs=all", "reported": "reported, rcu_nocbs=all"}
IBOOT = {"A": "stock (A)", "C": "rcu_expedited=1 (C)"}
# The report's tables: per family, each metric for these pairs (x vs y).
FAM_METRICS = (("gp_ms", "ms", "all tasks' grace-period wait in userspace boot"),
               ("gp_n", "", "grace-period waits (count)"),
               ("crit_gp_ms", "ms", "the part of it on the critical chain (a lower bound, see the notes)"),
               ("pid1_gp_ms", "ms", "PID 1's part"),
               ("proc_gp_ms", "ms", "the part waited by processes (not kernel threads)"),
               ("modal_gp_ms", "ms", "the part boot mode can change (outermost call not already *_expedited)"),
               ("unknown_caller_ms", "ms", "the part whose stack was lost (caller ?)"),
               ("startup_s", "s", "userspace boot time (FinishTimestamp - UserspaceTimestamp)"),
               ("default_target_s", "s", "userspace time to the default target"),
               ("finish_after_default_s", "s", "from the default target to FinishTimestamp"),
               ("after_exp", "", "expedited grace periods in 5 s after boot, under load"),
               ("after_ipi", "", "expedited-GP IPIs in those 5 s"))
FAM_PAIRS = [("reported", "stock"), ("reported", "knobs"), ("reported", "expedited"), ("knobs", "stock")]
LAZY_METRICS = (("lz_med_ms", "ms", "median callback wait, per boot"),
                ("lz_p90_ms", "ms", "90th percentile callback wait, per boot"),
                ("lazy_peak", "", "callbacks pending at most"),
                ("lazy_mean", "", "callbacks pending on average over userspace boot"),
                ("lazy_queued", "", "callbacks queued in userspace boot"),
                ("lazy_never_invoked", "", "queued in userspace boot, not invoked when the trace was read (censored)"),
                ("startup_s", "s", "userspace boot time"))
# Frames that only pass the wait on: the caller is the first frame past them.
PASS_ON = re.compile(r"^(synchronize_(rcu|srcu)\w*|__synchronize_srcu|rcu_sync_enter|percpu_down_write|"
                     r"rcu_barrier\w*|_?_?wait_rcu_gp|synchronize_rcu_expedited|kprobe\w*|\w*ftrace\w*|"
                     r"__kretprobe\w*|kretprobe\w*|pre_handler_kretprobe|arch_rethook\w*|rethook\w*)$")
DEFAULT_RE = re.compile(r"reached after (\S+(?: \S+s)?) in userspace")
CHAIN_RE = re.compile(r"([\w@:.\\-]+\.(?:service|socket|mount|swap|path|timer|scope|device))\s+@(\S+(?: \S+s)?)"
                      r"\s+\+(\S+(?: \S+s)?)\s*$")
UNIT_RE = re.compile(r"([\w@:.\\-]+\.(?:service|socket|mount|swap|scope))(?:/|$)")


def timespan_s(text):
    """systemd's "1min 2.345s", "123ms", "4.5s", "7us" -> seconds."""
    total = 0.0
    for num, unit in re.findall(r"([0-9.]+)(min|ms|us|s)", text):
        total += float(num) * {"min": 60, "s": 1, "ms": 1e-3, "us": 1e-6}[unit]
    return total


def caller(info):
    """The frame after the last frame of the wait itself among a stack's
    first 6: the kernel's guess unwinder lists stale text addresses too
    (synchronize_rcu, rcu_sync_enter, _kstrtoull, percpu_down_write,
    cgroup_procs_write_start), so the first frame past the first wait
    frame can be a leftover."""
    m = re.search(r"stack=(\S+)", info)
    if not m:
        return "?"
    frames = [f.split("+")[0] for f in m[1].split(",")]
    last = max((i for i, f in enumerate(frames[:6]) if PASS_ON.match(f)), default=-1)
    return frames[last + 1] if last + 1 < len(frames) else "?"


def task_class(pid, comm):
    if pid == 1:
        return "PID 1"
    if comm.startswith("(") and comm != "(udev-worker)":
        return "spawned by PID 1, before exec"
    if comm in ("(udev-worker)", "systemd-udevd"):
        return "udev"
    if comm.startswith(("kworker", "rcu", "ksoftirqd", "kthreadd")):
        return "kernel threads"
    return "other processes"


def parse_stack_log(path):
    lines = A.console_lines(path)
    row = A.parse_systemd_log(path)
    if "startup_s" not in row:
        return row, []
    u0 = row["UserspaceTimestampMonotonic"] / 1e6
    t1 = row["FinishTimestampMonotonic"] / 1e6
    moves, chain = collections.defaultdict(list), []
    for line in lines:
        body = line.split("E2E| ", 1)[1] if "E2E| " in line else ""
        if body.startswith("cg="):
            f = body[3:].split()
            if len(f) == 3:
                moves[int(f[0])].append((float(f[1]), f[2]))
        elif body.startswith("chain="):
            # "@" is when the unit started activating, "+" how long it took.
            m = CHAIN_RE.search(body)
            if m:
                begin = u0 + timespan_s(m[2])
                chain.append((m[1], begin, begin + timespan_s(m[3])))
        elif body.startswith("analyze="):
            m = DEFAULT_RE.search(body)
            if m:
                row["default_target_s"] = round(timespan_s(m[1]), 3)
        elif body.startswith("after.load"):
            d = A.kv(body.replace("after.load", ""))
            row.update(after_gp=d.get("after.gp"), after_exp=d.get("after.exp"),
                       after_ipi=d.get("after.ipi"), after_window_ms=d.get("elapsed_ms"))
        elif body.startswith("gp_lost="):
            row["gp_lost"] = int(body.split("=", 1)[1])
        elif body.startswith("lazy.queued="):
            row.update({k.replace(".", "_"): v for k, v in A.kv(body).items()})
        elif body.startswith("lazy_lost="):
            row["lazy_lost"] = int(body.split("=", 1)[1])
    lzf = [l.split("lz=", 1)[1].split() for l in lines if "E2E| lz=" in l]
    lz = [float(f[0]) for f in lzf]
    row["_lazy_funcs"] = collections.defaultdict(list)
    for f in lzf:
        row["_lazy_funcs"][f[1] if len(f) > 1 else "?"].append(float(f[0]))
    if lz:
        row.update(lz_n=len(lz), lz_med_ms=round(float(np.median(lz)), 3),
                   lz_p90_ms=round(float(np.percentile(lz, 90)), 3), lz_max_ms=round(max(lz), 3))
    waits, unpaired = C.gp_waits(lines)
    inside = [w for w in waits if u0 <= w[1] <= t1]
    crit_units = {u: (a, b) for u, a, b in chain}
    crit_ms, out = 0.0, []
    for pid, start, ms, fn, info in inside:
        m = re.search(r"comm=(\S+)", info)
        comm = m[1] if m else "?"
        # The unit a task works for: where it moved next (a child moving
        # itself into its unit's cgroup waits inside that very move).
        later = [p for t, p in moves.get(pid, []) if t >= start]
        earlier = [p for t, p in moves.get(pid, []) if t < start]
        path = later[0] if later else earlier[-1] if earlier else ""
        um = UNIT_RE.search(path)
        unit = "init" if pid == 1 else um[1] if um else "-"
        on_chain = pid == 1 or (unit in crit_units and crit_units[unit][0] <= start <= crit_units[unit][1])
        if on_chain:
            crit_ms += ms
        out.append({"caller": caller(info), "task": task_class(pid, comm), "unit": unit,
                    "fn": fn, "ms": ms, "critical": int(on_chain)})
    row.update(gp_n=len(inside), gp_ms=round(sum(w[2] for w in inside), 3),
               pid1_gp_ms=round(sum(w[2] for w in inside if w[0] == 1), 3),
               crit_gp_ms=round(crit_ms, 3), chain_units=len(chain), gp_events_unpaired=unpaired,
               # Secondary: what processes wait (kernel threads block nobody
               # directly), and what boot mode can change at all (an
               # outermost synchronize_*_expedited() is expedited in any arm).
               proc_gp_ms=round(sum(o["ms"] for o in out if o["task"] != "kernel threads"), 3),
               modal_gp_ms=round(sum(o["ms"] for o in out if o["fn"] not in ("rcuexp", "srcuexp")), 3),
               unknown_caller_ms=round(sum(o["ms"] for o in out if o["caller"] == "?"), 3))
    if "default_target_s" in row:
        row["finish_after_default_s"] = round(row["startup_s"] - row["default_target_s"], 3)
    return row, out


# Workload 14's metrics per boot (name, unit, what), shown per arm.
W14_METRICS = (("gp_ms", "ms", "all tasks' grace-period wait in userspace boot"),
               ("crit_gp_ms", "ms", "the part of it on the critical chain"),
               ("exp_boot", "", "expedited grace periods started in userspace boot"),
               ("ipi_boot", "", "their IPIs"),
               ("gp_boot", "", "normal grace periods started in userspace boot"),
               ("sync_boot", "", "synchronize_rcu() calls expedited in userspace boot"),
               ("lag_s", "s", "end of boot mode after FinishTimestamp"),
               ("exp_gap", "", "expedited grace periods from FinishTimestamp to the end of boot mode"),
               ("ipi_gap", "", "their IPIs"),
               ("startup_s", "s", "userspace boot time"),
               ("q_gp", "", "quiet window: normal grace periods started"),
               ("q_cb_per_gp", "", "quiet window: callbacks invoked per grace period"),
               ("q_exp", "", "quiet window: expedited grace periods"),
               ("c_exp", "", "churn: expedited grace periods"),
               ("c_ipi", "", "churn: their IPIs"),
               ("c_gp", "", "churn: normal grace periods"),
               ("c_sync", "", "churn: synchronize_rcu() calls expedited"),
               ("c_wait_ms", "ms", "churn: grace-period wait"),
               ("m_exp", "", "migrations: expedited grace periods"),
               ("m_ipi", "", "migrations: their IPIs"),
               ("m_sync", "", "migrations: synchronize_rcu() calls expedited"),
               ("m_wait_ms", "ms", "migrations: grace-period wait"),
               ("m_s", "s", "migrations: the phase's length"))
Z14_METRICS = (("lz_med_ms", "ms", "median callback wait in userspace boot"),
               ("lazy_queued", "", "callbacks queued in userspace boot"),
               ("q_cb", "", "quiet window: callbacks invoked"),
               ("q_gp", "", "quiet window: grace periods started"),
               ("q_cb_per_gp", "", "quiet window: callbacks invoked per grace period"),
               ("startup_s", "s", "userspace boot time"))
# Workload 18's (l262): workload 14's lazy family seeded, with the CPUs'
# exits from idle counted (wake-ups: what lazy callbacks exist to save).
L18_METRICS = (("gp_boot", "", "normal grace periods started in userspace boot"),
               ("wake_boot", "", "CPU wake-ups from idle in userspace boot"),
               ("lz_med_ms", "ms", "median callback wait in userspace boot"),
               ("lazy_queued", "", "callbacks queued in userspace boot"),
               ("q_gp", "", "quiet window (300 s): normal grace periods started"),
               ("q_wake", "", "quiet window (300 s): CPU wake-ups from idle"),
               ("q_cb", "", "quiet window (300 s): callbacks invoked"),
               ("q_cb_per_gp", "", "quiet window: callbacks invoked per grace period"),
               ("startup_s", "s", "userspace boot time"),
               ("crng_s", "s", "kernel: crng init done"),
               ("init_s", "s", "kernel: init launched"))


# Workload 14's windows after boot, each opened by the probe's trace marker
# and closed by the next one.
W14_WINDOWS = (("q", "quiet", "churn"), ("c", "churn", "migrate"), ("m", "migrate", "end"))


def parse_w14(path):
    """Workload 14's counts of one boot, from the probe's raw events (ev=
    lines): in userspace boot (UserspaceTimestamp..FinishTimestamp), in the
    gap from FinishTimestamp to the end of boot mode (the report or the
    timeout; the finish arm: its unit's marker), and in each window after
    boot; with parse_stack_log()'s grace-period waits."""
    row, _ = parse_stack_log(path)
    if "startup_s" not in row:
        return row
    lines = A.console_lines(path)
    u0 = row["UserspaceTimestampMonotonic"] / 1e6
    t1 = row["FinishTimestampMonotonic"] / 1e6
    ev, marks, ends = collections.defaultdict(list), {}, []
    for line in lines:
        if "E2E| ev=" in line:
            f = line.split("E2E| ev=", 1)[1].split()
            if len(f) < 2:
                continue
            kind, ts, more = f[0], float(f[1]), f[2] if len(f) > 2 else ""
            if kind == "mark":
                marks.setdefault(more, ts)
            elif kind == "end":
                ends.append((ts, more.replace("reason=", "")))
            elif kind == "expreq":
                # The normal API's requests that boot mode or rcu_expedited
                # turned expedited: none on stock after boot.  synchronize_rcu()
                # tail-calls it, so its return address is synchronize_rcu()'s
                # caller's, which the gpwait kretprobe replaced with its
                # trampoline (no other kretprobed function calls it).
                ev["expreq"].append(ts)
                if more.startswith(("caller=synchronize_rcu+", "caller=arch_rethook_trampoline+")):
                    ev["sync"].append(ts)
            else:
                ev[kind].append(ts)
        elif "E2E| ev_lost=" in line:
            row["ev_lost"] = int(line.split("=", 1)[1])

    def count(kind, lo, hi):
        return sum(1 for t in ev[kind] if lo <= t < hi)

    # CPUs' wake-ups where they were traced (workload 18) only: the other
    # families' CSVs keep their columns.
    kinds = ("exp", "gp", "ipi", "sync") + (("wake",) if ev["wake"] else ())
    for k in kinds:
        row["%s_boot" % k] = count(k, u0, t1)
    # When boot mode ended: the finish arm's unit cleared rcu_expedited;
    # the series' report or timeout; elsewhere it ended at init launch, or
    # (rcu_expedited=1 for good) never: no gap.
    end = marks.get("finish-cleared")
    if end is None:
        end = next((t for t, r in ends if r in ("reported", "timeout")), None)
    if end is not None:
        row["lag_s"] = round(end - t1, 6)
        for k in ("exp", "gp", "ipi") + kinds[4:]:
            row["%s_gap" % k] = count(k, t1, end)
    waits, _ = C.gp_waits(lines)
    for p, a, b in W14_WINDOWS:
        if a not in marks or b not in marks:
            continue
        lo, hi = marks[a], marks[b]
        row["%s_s" % p] = round(hi - lo, 6)
        for k in ("exp", "gp", "ipi", "sync", "cb") + kinds[4:]:
            row["%s_%s" % (p, k)] = count(k, lo, hi)
        row["%s_wait_ms" % p] = round(sum(w[2] for w in waits if lo <= w[1] < hi), 3)
        if row["%s_gp" % p] and ev["cb"]:  # callbacks traced (z262)
            row["%s_cb_per_gp" % p] = round(row["%s_cb" % p] / row["%s_gp" % p], 3)
    return row


# Workloads 16 to 18: workload 14's families, the guest's RNG seeded
# (bench/run.sh SEEDED_FAMILIES); e262 on 8 vCPUs; l262 is z262's.
SEEDED = ("r262", "r252", "e262", "l262")
# Workload 19: workload 6's i262 (every wait with its stack), seeded, and
# namespace_unlock()'s synchronize_rcu_expedited() waits per boot.
K19_METRICS = (("nsu_n", "", "namespace_unlock() waits in userspace boot"),
               ("nsu_ms", "ms", "their summed wait"),
               ("nsu_other_ms", "ms", "the part waited by other processes (the review's number)"),
               ("nsu_call_ms", "ms", "one wait, median per boot"),
               ("unknown_caller_ms", "ms", "waits whose stack was lost (no caller: in no nsu_ metric)"),
               ("gp_ms", "ms", "all tasks' grace-period wait in userspace boot"),
               ("startup_s", "s", "userspace boot time"),
               ("crng_s", "s", "kernel: crng init done"),
               ("init_s", "s", "kernel: init launched"))


def cmd_parse(works, out):
    os.makedirs(out, exist_ok=True)
    runs, setup, where = [], [], {}
    for i, work in enumerate(works):
        for r in csv.DictReader(open(os.path.join(work, "runs.csv"))):
            r["seq"] = str(int(r["seq"]) + 100000 * i)
            where[r["seq"]] = (work, r["log"])
            r["log"] = os.path.join(work, r["log"])
            runs.append(r)
        tag = "" if len(works) == 1 else os.path.basename(os.path.normpath(work)) + "."
        setup += [tag + l for l in open(os.path.join(work, "setup.txt"))]
    tables = {k: [] for k in ("i262", "s262", "i252", "lazy", "iboot", "a262", "a252", "z262", "k262") + SEEDED}
    callers, lazy_funcs = [], []
    for r in runs:
        if r["status"] != "ok":
            continue
        family, arm = r["kind"].split(":")
        if family not in tables:
            continue
        log = r["log"]
        base = {"seq": int(r["seq"]), "round": r["round"], "arm": arm,
                "host_other_cpus": r.get("host_other_cpus", ""), "wall_s": r["wall_s"]}
        if family in ("a262", "a252", "z262") + SEEDED:
            row = parse_w14(log)
            row.pop("_lazy_funcs", None)
            # Every window present, nothing lost in the trace buffer.
            if "startup_s" not in row or "m_s" not in row or row.get("ev_lost", 1) or row.get("gp_lost", 0):
                r["status"] = "unparsed"
                continue
            if family in SEEDED:
                # Valid only if the RNG was seeded before init launch: then
                # no window can end on the entropy pool.
                crng, init = A.crng_and_init(log)
                if crng is None or init is None or crng >= init:
                    r["status"] = "unseeded"
                    continue
                row["crng_s"], row["init_s"] = crng, init
                # IPIs per expedited grace period in userspace boot: what
                # the CPU count multiplies.
                row["ipi_per_exp"] = round(row["ipi_boot"] / row["exp_boot"], 3) if row["exp_boot"] else ""
            tables[family].append({**base, **row})
            continue
        if family == "iboot":
            row = A.parse_bench_log(log)
            if "iso_med_ms" not in row:
                r["status"] = "unparsed"
                continue
            row.pop("version", None)
        else:
            row, waits = parse_stack_log(log)
            need = {"lazy": "lz_med_ms", "s262": "after_exp", "s252": "after_exp"}.get(family, "startup_s")
            if "startup_s" not in row or need not in row:
                r["status"] = "unparsed"
                continue
            if family == "k262":
                if row.get("gp_lost", 0):
                    r["status"] = "unparsed"
                    continue
                crng, init = A.crng_and_init(log)
                if crng is None or init is None or crng >= init:
                    r["status"] = "unseeded"
                    continue
                nsu = [w for w in waits if w["caller"] == "namespace_unlock"]
                row.update(crng_s=crng, init_s=init, nsu_n=len(nsu), nsu_ms=round(sum(w["ms"] for w in nsu), 3),
                           nsu_other_ms=round(sum(w["ms"] for w in nsu if w["task"] == "other processes"), 3),
                           nsu_call_ms=round(float(np.median([w["ms"] for w in nsu])), 4) if nsu else "")
            for f, v in row.pop("_lazy_funcs").items():
                lazy_funcs.append({"seq": base["seq"], "arm": arm, "func": f, "n": len(v),
                                   "med_ms": round(float(np.median(v)), 3)})
            agg = collections.defaultdict(lambda: [0, 0.0, 0])
            for w in waits:
                a = agg[(w["caller"], w["task"])]
                a[0] += 1
                a[1] += w["ms"]
                a[2] += w["critical"]
            for (c, t), (n, ms, crit) in agg.items():
                callers.append({"seq": base["seq"], "family": family, "arm": arm, "caller": c, "task": t,
                                "n": n, "ms": round(ms, 3), "critical_n": crit})
        tables[family].append({**base, **row})
    for name, rows in tables.items():
        if rows:
            A.write_csv(os.path.join(out, name + ".csv"), rows, ["seq", "round", "arm"])
    A.write_csv(os.path.join(out, "callers.csv"), callers,
                ["seq", "family", "arm", "caller", "task", "n", "ms", "critical_n"])
    if lazy_funcs:
        A.write_csv(os.path.join(out, "lazy_funcs.csv"), lazy_funcs, ["seq", "arm", "func", "n", "med_ms"])
    for r in runs:
        # The committed copy relative to OUT where there is one; else the
        # path relative to the repository (then the log is not committed).
        work, log = where[r["seq"]]
        rel = A.committed_log(work, out, log)
        r["log"] = rel if rel != log else os.path.relpath(r["log"], os.path.dirname(A.HERE))
    A.write_csv(os.path.join(out, "runs.csv"), runs, runs[0].keys() if runs else ["seq"])
    # One systemd_version row over all runs, as the other reports have.
    versions = sorted({l.split(": ", 1)[0].rsplit("_", 1)[1] + " " + l.split(": ", 1)[1].strip()
                       for l in setup if re.match(r"^(\S+\.)?systemd_version_\w+: ", l)})
    if versions and not any(re.match(r"^(\S+\.)?systemd_version: ", l) for l in setup):
        setup.append("systemd_version: %s\n" % "; ".join(versions))
    open(os.path.join(out, "setup.txt"), "w").writelines(setup)


def caller_table(callers, family, arms, tables, top=12):
    """Median per boot of each caller's wait (ms), boots without it counting 0."""
    boots = {a: [r["seq"] for r in tables.get(family, []) if r["arm"] == a] for a in arms}
    per = collections.defaultdict(lambda: collections.defaultdict(float))
    for c in callers:
        if c["family"] == family:
            per[(c["caller"], c["task"])][(c["arm"], c["seq"])] += float(c["ms"])
    med = {}
    for key, d in per.items():
        med[key] = {a: float(np.median([d.get((a, s), 0.0) for s in boots[a]])) if boots[a] else float("nan")
                    for a in arms}
    order = sorted(med, key=lambda k: -max(v for v in med[k].values() if v == v) if med[k] else 0)[:top]
    lines = ["| caller (first frame past the wait) | task | " + " | ".join(ARMS[a] for a in arms) + " |",
             "|---|---|" + "---|" * len(arms)]
    for k in order:
        lines.append("| `%s` | %s | %s |" % (k[0], k[1], " | ".join(A.fmt(med[k][a]) for a in arms)))
    return "\n".join(lines), order, med


def plot_callers(path, order, med, arms, title):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    if not order:
        return False
    fig, ax = plt.subplots(figsize=(9, 0.45 * len(order) + 1.5))
    h = 0.8 / len(arms)
    for i, a in enumerate(arms):
        ax.barh([j + i * h for j in range(len(order))], [med[k][a] for k in order], height=h, label=ARMS[a])
    ax.set_yticks([j + 0.4 - h / 2 for j in range(len(order))])
    ax.set_yticklabels(["%s (%s)" % k for k in order], fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel("grace-period wait per boot, median (ms)")
    ax.set_title(title)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return True


def paired_table(rows, pairs, metrics):
    """-icount arms of one round start from the same RTC date, hence the
    same randomness: per-round differences x - y, Wilcoxon signed-rank
    (exploratory: the pre-registered tests are unpaired)."""
    from scipy import stats
    lines = ["| metric | x vs y | rounds | median of per-round x - y | x < y in | x > y in | Wilcoxon p |",
             "|---|---|---|---|---|---|---|"]
    for metric in metrics:
        for x, y in pairs:
            bx = {r["round"]: float(r[metric]) for r in rows if r["arm"] == x and r.get(metric) not in ("", None)}
            by = {r["round"]: float(r[metric]) for r in rows if r["arm"] == y and r.get(metric) not in ("", None)}
            d = [bx[k] - by[k] for k in bx if k in by]
            if len(d) < 2:
                continue
            p = stats.wilcoxon(d).pvalue if any(d) else 1.0
            lines.append("| %s | %s vs %s | %d | %s | %d/%d | %d/%d | %s |" % (
                metric, ARMS.get(x, x), ARMS.get(y, y), len(d), A.fmt(float(np.median(d))),
                sum(1 for v in d if v < 0), len(d), sum(1 for v in d if v > 0), len(d), A.fmt_p(p)))
    return "\n".join(lines)


def fmt_b(v):
    """A CI bound: 4 digits where 3 would print a bound next to 1 as 1."""
    return A.fmt(v, 4) if v != 1 and abs(v - 1) < 0.005 else A.fmt(v)


def classify(rows, x, y, metric, alpha):
    """The registered decision rule (prereg-stack.json "classify"), applied
    to any comparison in the tables: (verdict, estimate, lo, hi, p, is_ratio)."""
    vx, vy = A.values(rows, x, metric), A.values(rows, y, metric)
    if len(vx) == 0 or len(vy) == 0:
        return None
    use_log = bool(np.all(vx > 0) and np.all(vy > 0))
    est, lo, hi = A.hl_ci(vx, vy, log=use_log)
    one, p = (1.0 if use_log else 0.0), A.mwu(vx, vy)
    v = "BEATS" if hi < one and p < alpha else "LOSES" if lo > one and p < alpha else "MATCHES"
    return v, est, lo, hi, p, use_log


def all_comparisons(tables, alpha):
    """Every comparison of the report's tables, judged by the registered rule."""
    out = []
    for fam in FAMILIES:
        for metric, _, what in FAM_METRICS:
            for x, y in FAM_PAIRS:
                c = classify(tables.get(fam, []), x, y, metric, alpha)
                if c:
                    out.append((fam, metric, what, ARMS[x], ARMS[y]) + c)
    for metric, _, what in LAZY_METRICS:
        c = classify(tables.get("lazy", []), "reported", "stock", metric, alpha)
        if c:
            out.append(("lazy", metric, what, LAZY["reported"], LAZY["stock"]) + c)
    c = classify(tables.get("iboot", []), "C", "A", "iso_med_ms", alpha)
    if c:
        out.append(("iboot", "iso_med_ms", "membarrier latency", IBOOT["C"], IBOOT["A"]) + c)
    return out


def loses_table(tables, alpha):
    """Every comparison in the tables that the registered rule calls LOSES
    (x worse than y: lower is better for every metric)."""
    lines = ["| family | metric | x vs y | ratio x/y (HL) or difference | 95% CI | Mann-Whitney p | registered target |",
             "|---|---|---|---|---|---|---|"]
    prereg = json.load(open(os.path.join(A.HERE, "prereg-stack.json")))
    reg = {(t["table"], t["metric"], t.get("x"), t.get("y")): t["id"] for t in prereg["targets"]}
    back = {v: k for k, v in list(ARMS.items()) + list(LAZY.items()) + list(IBOOT.items())}
    for fam, metric, what, x, y, v, est, lo, hi, p, is_ratio in all_comparisons(tables, alpha):
        if v != "LOSES":
            continue
        lines.append("| %s | %s (%s) | %s vs %s | %s%s | %s .. %s | %s | %s |" % (
            fam, metric, what, x, y, A.fmt(est), "" if is_ratio else " (difference)", fmt_b(lo), fmt_b(hi),
            A.fmt_p(p), reg.get((fam, metric, back.get(x), back.get(y)), "no (table only)")))
    return "\n".join(lines)


def summary_lines(tables, alpha):
    """The numbers the hand-written summaries quote that the tables do not
    show as such (bench/analyze_stack.py --summary bench/results-stack)."""
    L = []
    w = L.append
    w("Grace-period wait in userspace boot, all tasks (gp_ms), stock vs reported:")
    for fam in FAMILIES:
        rows = tables.get(fam, [])
        s, r = A.values(rows, "stock", "gp_ms"), A.values(rows, "reported", "gp_ms")
        if len(s) == 0 or len(r) == 0:
            continue
        est, lo, hi = A.hl_ci(r, s, log=True)
        w("- %s: medians %s -> %s ms, stock/reported %.2fx (ratio of medians); HL ratio reported/stock %s "
          "(CI %s .. %s), i.e. %.2fx (CI %.2f .. %.2f)" % (
              fam, A.fmt(np.median(s)), A.fmt(np.median(r)), np.median(s) / np.median(r), A.fmt(est), A.fmt(lo),
              A.fmt(hi), 1 / est, 1 / hi, 1 / lo))
    w("")
    w("Number of grace-period waits in userspace boot (gp_n), reported vs stock:")
    for fam in FAMILIES:
        rows = tables.get(fam, [])
        s, r = A.values(rows, "stock", "gp_n"), A.values(rows, "reported", "gp_n")
        if len(s) == 0 or len(r) == 0:
            continue
        est, lo, hi = A.hl_ci(r, s, log=True)
        w("- %s: medians %s -> %s (%+.1f %%); HL ratio %s (CI %s .. %s), %+.1f %% (CI %+.1f .. %+.1f %%); "
          "Mann-Whitney p = %s" % (
              fam, A.fmt(np.median(s)), A.fmt(np.median(r)), 100 * (np.median(r) / np.median(s) - 1), A.fmt(est),
              A.fmt(lo), A.fmt(hi), 100 * (est - 1), 100 * (lo - 1), 100 * (hi - 1), A.fmt_p(A.mwu(r, s))))
    w("")
    w("Reported vs the other arms under the registered rule, per family (gp_ms, crit_gp_ms, startup_s, "
      "default_target_s):")
    for fam in FAMILIES:
        for metric in ("gp_ms", "crit_gp_ms", "startup_s", "default_target_s"):
            for y in ("stock", "knobs", "expedited"):
                c = classify(tables.get(fam, []), "reported", y, metric, alpha)
                if c:
                    v, est, lo, hi, p, _ = c
                    w("- %s %s reported vs %s: %s %s (CI %s .. %s, p = %s)" % (
                        fam, metric, y, v, A.fmt(est), fmt_b(lo), fmt_b(hi), A.fmt_p(p)))
    w("")
    w("Paired by round (-icount; exploratory), both ways:")
    for fam in ("i262", "i252"):
        rows = tables.get(fam, [])
        for metric in ("gp_ms", "startup_s"):
            for y in ("stock", "knobs", "expedited"):
                bx = {r["round"]: float(r[metric]) for r in rows if r["arm"] == "reported"}
                by = {r["round"]: float(r[metric]) for r in rows if r["arm"] == y}
                d = [bx[k] - by[k] for k in bx if k in by]
                if d:
                    w("- %s %s: reported lower than %s in %d of %d rounds, higher in %d, equal in %d" % (
                        fam, metric, y, sum(v < 0 for v in d), len(d), sum(v > 0 for v in d),
                        sum(v == 0 for v in d)))
    w("")
    rows = tables.get("i262", [])
    st = A.values(rows, "stock", "startup_s")
    if len(st):
        w("-icount, seed to seed: the stock arm's userspace boot (i262, one boot per round date) ranges "
          "%.2f .. %.2f s (%.2f s; 5th-95th percentile %.2f s; IQR %.2f s) over %d round dates." % (
              st.min(), st.max(), st.max() - st.min(), np.percentile(st, 95) - np.percentile(st, 5),
              np.percentile(st, 75) - np.percentile(st, 25), len(st)))
        same = [r for r in rows if r["arm"] == "stock" and r["round"] == "3"]
        if same:
            w("Round 3's stock boot in the committed data: FinishTimestampMonotonic %s us (its re-boot with the "
              "same date is not in the committed data)." % same[0]["FinishTimestampMonotonic"])
    fork = A.load_table(os.path.join(A.HERE, "results-cgroup"), "fork")
    if fork:
        f, s = A.values(fork, "favordynmods", "after_med_ms"), A.values(fork, "stock", "after_med_ms")
        est, lo, hi = A.hl_ci(f, s, log=True)
        w("")
        w("bench/results-cgroup (workload 5), fork+exit after boot, cgroup_favordynmods=1 vs stock: HL ratio %s "
          "(CI %s .. %s), Mann-Whitney p = %s" % (A.fmt(est), A.fmt(lo), A.fmt(hi), A.fmt_p(A.mwu(f, s))))
    return L


def sget(setup, key):
    """A setup value, from whichever run of several recorded it first."""
    return next((v for k, v in setup.items() if k == key or k.endswith("." + key)), "?")


def cmd_report(out):
    prereg = json.load(open(os.path.join(A.HERE, "prereg-stack.json")))
    tables = {k: A.load_table(out, k) for k in ("i262", "s262", "i252", "lazy", "iboot")}
    callers = A.load_table(out, "callers")
    setup, runs = A.read_setup(out), A.load_table(out, "runs")
    text = []
    w = text.append
    w("# Issue 18: the series against what users can already do (workload 6)\n")
    w("Generated by bench/analyze_stack.py from the CSVs in this directory. Targets and decision rules "
      "fixed before the data in bench/prereg-stack.json. Medians with distribution-free 95%% CIs; "
      "Hodges-Lehmann ratios (differences where a value is 0) with Moses CIs; Mann-Whitney U, two-sided. "
      "The boot is the unit. Kernel %s; %s.\n" % (
          sget(setup, "kernel_version"),
          ", ".join("%s: systemd %s" % (s, sget(setup, "systemd_version_" + s)) for s in ("sid", "bookworm"))))
    verdicts = []
    w("## Targets and verdicts\n")
    w("| target | verdict | detail |")
    w("|---|---|---|")
    for t in prereg["targets"]:
        v, d = A.judge(t, tables, prereg["alpha"])
        verdicts.append((t, v))
        w("| %s: %s | **%s** | %s |" % (t["id"], t["text"], v, d))
    w("")
    w("## Every comparison that the registered rule calls LOSES\n")
    w("The rule of bench/prereg-stack.json (\"classify\": x LOSES to y if the 95%% CI of the "
      "Hodges-Lehmann ratio x/y, or difference x-y where a value is 0, lies above 1 (0) and Mann-Whitney "
      "p < %s; lower is better for every metric) applied to every comparison in the tables below, "
      "registered target or not. Only the registered targets above were fixed before the data; the "
      "others are listed so that no loss is left out, and about %d comparisons at alpha = %s "
      "without a multiplicity correction yield some by chance.\n" % (
          prereg["alpha"], len(all_comparisons(tables, prereg["alpha"])), prereg["alpha"]))
    w(loses_table(tables, prereg["alpha"]) + "\n")
    w("## Against the existing knobs, plainly\n")
    w("The registered rule on each comparison of the reported arm with the knobs (registered targets "
      "and table-only comparisons alike):\n")
    for fam in FAMILIES:
        for metric, word in (("gp_ms", "grace-period wait, all tasks"), ("crit_gp_ms", "on the critical chain"),
                             ("startup_s", "userspace boot time"),
                             ("default_target_s", "time to the default target")):
            c = classify(tables.get(fam, []), "reported", "knobs", metric, prereg["alpha"])
            if not c:
                continue
            v, est, lo, hi, p, is_ratio = c
            reg = [t["id"] for t in prereg["targets"] if (t["table"], t["metric"], t.get("x"), t.get("y"))
                   == (fam, metric, "reported", "knobs")]
            w("- %s, %s: reported **%s** the knobs (%s %s, CI %s .. %s, p = %s; %s)." % (
                FAMILIES[fam], word, {"BEATS": "beats", "MATCHES": "matches", "LOSES": "loses to"}[v],
                "ratio" if is_ratio else "difference", A.fmt(est), fmt_b(lo), fmt_b(hi), A.fmt_p(p),
                "registered target " + reg[0] if reg else "table only, not a registered target"))
    w("- Not compared with the knobs at all: lazy callbacks (the lazy runs have a stock and a reported arm, "
      "no knobs arm), and what `cgroup_favordynmods=true` costs after boot. On 7.3 it cannot be switched "
      "fully off once on (kernel/cgroup/cgroup.c: \"per threadgroup rwsem mechanism can't be disabled\"), "
      "but its cost is not measured: workload 5 (bench/results-cgroup) found no resolvable difference in "
      "fork+exit after boot with it vs stock under TCG (see *Numbers the summaries quote*).\n")
    w("## Numbers the summaries quote\n")
    w("Printed by `bench/analyze_stack.py --summary bench/results-stack` from the committed CSVs (and "
      "bench/results-cgroup/fork.csv for the last line).\n")
    text.extend(summary_lines(tables, prereg["alpha"]))
    w("")
    for fam, title in FAMILIES.items():
        rows = tables[fam]
        if not rows:
            continue
        arms = [a for a in ARMS if any(r["arm"] == a for r in rows)]
        w("## %s\n" % title)
        for metric, unit, what in FAM_METRICS:
            w("### %s\n" % what)
            text.extend(A.metric_section(rows, arms, FAM_PAIRS, metric, unit, log=True, labels=ARMS))
        if fam.startswith("i"):
            w("### Paired by round (exploratory)\n")
            w("Under -icount the arms of one round boot from the same RTC date, so the same kernel "
              "randomness; rounds differ. Per-round differences remove that between-round spread.\n")
            w(paired_table(rows, [("reported", "stock"), ("reported", "knobs"), ("reported", "expedited"),
                                  ("knobs", "stock")], ["gp_ms", "modal_gp_ms", "startup_s"]) + "\n")
        tab, order, med = caller_table(callers, fam, arms, tables)
        w("### Who waits: by caller and task, median ms per boot\n")
        w(tab + "\n")
        if plot_callers(os.path.join(out, "callers_%s.png" % fam), order, med, arms, title):
            w("![callers](callers_%s.png)\n" % fam)
        for metric, xl in (("gp_ms", "grace-period wait in userspace boot, all tasks (ms)"),
                           ("startup_s", "userspace boot time (s)")):
            if A.plot_hist(os.path.join(out, "%s_%s.png" % (fam, metric)), rows, arms, metric, xl, title,
                           labels=ARMS):
                w("![%s](%s_%s.png)\n" % (metric, fam, metric))
    if tables["lazy"]:
        w("## Lazy callbacks (sid, -icount, rcu_nocbs=all)\n")
        w("CONFIG_RCU_LAZY=y batches call_rcu() callbacks on offloaded CPUs for up to 10 s, except while "
          "RCU hurries them: until init is launched on stock, until the report with the series. A kprobe "
          "on call_rcu() and the rcu_invoke_callback tracepoint, paired by rcu_head in the guest, give "
          "each callback's wait; callbacks queued between UserspaceTimestamp and FinishTimestamp count.\n")
        w("Paired by round (exploratory):\n")
        w(paired_table(tables["lazy"], [("reported", "stock")], ["lz_med_ms", "lazy_peak", "startup_s"]) + "\n")
        for metric, unit, what in LAZY_METRICS:
            w("### %s\n" % what)
            text.extend(A.metric_section(tables["lazy"], list(LAZY), [("reported", "stock")], metric, unit,
                                         labels=LAZY))
    lf = A.load_table(out, "lazy_funcs")
    if lf:
        w("### Per callback function: median wait (ms), median over boots of each boot's median\n")
        w("The arms queue different callbacks (more in the reported arm), so the per-boot medians above "
          "mix different sets; here the same function is compared with itself.\n")
        cnt = collections.Counter()
        for r in lf:
            cnt[r["func"]] += int(r["n"])
        w("| callback | callbacks (all boots) | " + " | ".join(LAZY.values()) + " |")
        w("|---|---|" + "---|" * len(LAZY))
        for f, n in cnt.most_common(10):
            w("| `%s` | %d | %s |" % (f, n, " | ".join(
                A.fmt(float(np.median([float(r["med_ms"]) for r in lf if r["func"] == f and r["arm"] == a])))
                if any(r["func"] == f and r["arm"] == a for r in lf) else "-" for a in LAZY)))
        w("")
    if tables["iboot"]:
        w("## Does -icount keep expedited and normal apart?\n")
        w("Workload 1's busybox boot (bench-boot.sh) under -icount: 100 membarrier(GLOBAL) calls back to "
          "back at the start of userspace boot, per-boot median latency.\n")
        text.extend(A.metric_section(tables["iboot"], list(IBOOT), [("C", "A")], "iso_med_ms", "ms",
                                     labels=IBOOT))
    w("## Boots\n")
    text.extend(A.boots_lines(runs))
    lost = sum(int(float(r.get("gp_lost") or 0)) for f in FAMILIES for r in tables[f])
    unpaired = sum(int(float(r.get("gp_events_unpaired") or 0)) for f in FAMILIES for r in tables[f])
    w("Trace quality: ring-buffer overruns %d, unpaired wait events %d, over all systemd boots.\n" % (lost, unpaired))
    notes = os.path.join(out, "notes.md")
    if os.path.exists(notes):
        w(open(notes).read())
    text.extend(A.setup_lines(setup))
    open(os.path.join(out, "report.md"), "w").write("\n".join(text) + "\n")


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--report":
        cmd_report(sys.argv[2])
    elif len(sys.argv) == 3 and sys.argv[1] == "--summary":
        out = sys.argv[2]
        alpha = json.load(open(os.path.join(A.HERE, "prereg-stack.json")))["alpha"]
        tables = {k: A.load_table(out, k) for k in ("i262", "s262", "i252", "lazy", "iboot")}
        print("\n".join(summary_lines(tables, alpha)))
        print("\nEvery comparison in the report's tables that the registered rule calls LOSES:\n")
        print(loses_table(tables, alpha))
    elif len(sys.argv) >= 3:
        cmd_parse(sys.argv[1:-1], sys.argv[-1])
        cmd_report(sys.argv[-1])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
