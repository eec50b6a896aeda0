#!/usr/bin/python3
"""Analysis of issue 9's study, "WORKLOADS=5 make bench" (bench/run.sh).

  analyze_cgroup.py WORKDIR OUTDIR
      console logs -> OUTDIR/{cgroup,fork,runs}.csv, setup.txt, report.md, *.png
  analyze_cgroup.py --report OUTDIR
      the report again from the committed CSVs

Workload 5 boots the real systemd image in three arms (stock; the series
without its cgroup subscriber, reported; the whole series, reported) with a
kprobe on the entry and return of every grace-period wait, and runs a
fork+exit microbenchmark before and after the report.  The statistics are
analyze.py's; the targets are in bench/prereg-cgroup.json.
"""
import csv
import json
import os
import re
import shutil
import sys

import numpy as np

import analyze as A

SD = {"stock": "stock", "rcu": "RCU subscriber only", "rcu_cgroup": "RCU + cgroup subscribers"}
FORK = {"stock": "stock", "reported": "user_booted_reported", "favordynmods": "stock + cgroup_favordynmods=1"}
GP_RE = re.compile(r"E2E\| gp=(\d+) ([0-9.]+) (\w+)_(in|out):")
FORK_RE = re.compile(r"^BENCH (before|after) fork (.*)$")


def gp_waits(lines):
    """Pair each task's entries and returns into its outermost waits:
    [(pid, start_s, ms, function)], and how many events did not pair."""
    stacks, waits, unpaired = {}, [], 0
    for line in lines:
        m = GP_RE.search(line)
        if not m:
            continue
        pid, ts, fn, edge = int(m[1]), float(m[2]), m[3], m[4]
        st = stacks.setdefault(pid, [])
        if edge == "in":
            st.append((fn, ts))
            continue
        if not any(f == fn for f, _ in st):
            unpaired += 1
            continue
        while st[-1][0] != fn:  # a return lost on the console
            st.pop()
            unpaired += 1
        f, t0 = st.pop()
        if not st:
            waits.append((pid, t0, (ts - t0) * 1e3, f))
    return waits, unpaired + sum(len(s) for s in stacks.values())


def parse_cgroup_log(path):
    lines = A.console_lines(path)
    row = A.parse_systemd_log(path)
    if "startup_s" not in row:
        return row
    t0 = row["UserspaceTimestampMonotonic"] / 1e6
    t1 = row["FinishTimestampMonotonic"] / 1e6
    waits, unpaired = gp_waits(lines)
    inside = [w for w in waits if t0 <= w[1] <= t1]
    pid1 = [w for w in inside if w[0] == 1]
    row.update(gp_events_unpaired=unpaired, gp_waits_traced=len(waits),
               pid1_gp_n=len(pid1), pid1_gp_ms=round(sum(w[2] for w in pid1), 3),
               all_gp_n=len(inside), all_gp_ms=round(sum(w[2] for w in inside), 3))
    for fn in ("rcu", "rcuexp", "srcu", "srcuexp", "barrier"):
        row["pid1_%s_n" % fn] = sum(1 for w in pid1 if w[3] == fn)
    for line in lines:
        if line.startswith("E2E| gp_lost="):
            row["gp_lost"] = int(line.split("=", 1)[1])
    return row


def parse_fork_log(path):
    row = {}
    for line in A.console_lines(path):
        m = FORK_RE.match(line)
        if m:
            row.update({m[1] + "_" + k: v for k, v in A.kv(m[2]).items()})
    if "before_fork_med_ms" in row and "after_fork_med_ms" in row:
        row["before_med_ms"] = row.pop("before_fork_med_ms")
        row["after_med_ms"] = row.pop("after_fork_med_ms")
        row["after_over_before"] = round(row["after_med_ms"] / row["before_med_ms"], 4)
    return row


def cmd_parse(work, out):
    os.makedirs(out, exist_ok=True)
    runs = list(csv.DictReader(open(os.path.join(work, "runs.csv"))))
    tables = {"cgroup": [], "fork": []}
    for r in runs:
        if r["status"] != "ok":
            continue
        family, arm = r["kind"].split(":")
        if family not in tables:
            continue
        log = os.path.join(work, r["log"])
        row = parse_cgroup_log(log) if family == "cgroup" else parse_fork_log(log)
        if ("pid1_gp_ms" if family == "cgroup" else "after_over_before") not in row:
            r["status"] = "unparsed"
            continue
        tables[family].append({"seq": int(r["seq"]), "round": r["round"], "arm": arm,
                               "host_other_cpus": r.get("host_other_cpus", ""), "wall_s": r["wall_s"], **row})
    for name, rows in tables.items():
        if rows:
            A.write_csv(os.path.join(out, name + ".csv"), rows, ["seq", "round", "arm"])
    A.write_csv(os.path.join(out, "runs.csv"), runs, runs[0].keys() if runs else ["seq"])
    shutil.copy(os.path.join(work, "setup.txt"), os.path.join(out, "setup.txt"))


def judge(t, rows):
    vx, vy = A.values(rows, t["x"], t["metric"]), A.values(rows, t["y"], t["metric"])
    if len(vx) == 0 or len(vy) == 0:
        return "NOT MEASURED", "no data"
    p = A.mwu(vx, vy)
    if t["test"] == "median_ratio_below":
        mx, _, xhi, _ = A.median_ci(vx)
        my, ylo, _, _ = A.median_ci(vy)
        ok = xhi < t["bound"] * ylo and p < 0.05
        detail = ("median %s = %s (95%% CI upper bound %s) vs %s = %s (lower bound %s): ratio of medians %s, "
                  "bound %s x %s = %s; Mann-Whitney p = %s" % (
                      t["x"], A.fmt(mx), A.fmt(xhi), t["y"], A.fmt(my), A.fmt(ylo),
                      A.fmt(mx / my if my else float("nan")), t["bound"], A.fmt(ylo),
                      A.fmt(t["bound"] * ylo), A.fmt_p(p)))
    elif t["test"] == "ratio_within":
        est, lo, hi = A.hl_ci(vx, vy, log=True)
        ok = 1 - t["bound"] <= lo and hi <= 1 + t["bound"]
        detail = "ratio %s/%s = %s (95%% CI %s .. %s, bound 1 +- %s); Mann-Whitney p = %s" % (
            t["x"], t["y"], A.fmt(est), A.fmt(lo), A.fmt(hi), t["bound"], A.fmt_p(p))
    else:
        return "?", "unknown test " + t["test"]
    if "n/a" in detail.split("Mann-Whitney")[0]:
        return "INCONCLUSIVE (too few boots)", detail
    return ("MET" if ok else "NOT MET"), detail


def cmd_report(out):
    prereg = json.load(open(os.path.join(A.HERE, "prereg-cgroup.json")))
    cg, fk = A.load_table(out, "cgroup"), A.load_table(out, "fork")
    setup = A.read_setup(out)
    runs = A.load_table(out, "runs")
    text = []
    w = text.append
    w("# Issue 9: cgroup migrations while userspace boots (workload 5)\n")
    w("Generated by bench/analyze_cgroup.py from the CSVs in this directory. Targets fixed before the "
      "data in bench/prereg-cgroup.json. Medians with distribution-free 95% CIs; Hodges-Lehmann "
      "shifts (ratios on log values) with Moses CIs; Mann-Whitney U, two-sided. Per-boot values: the "
      "boot is the unit.\n")
    w("## Targets\n")
    w("| target | result | detail |")
    w("|---|---|---|")
    for t in prereg["targets"]:
        verdict, detail = judge(t, cg if t["table"] == "cgroup" else fk)
        w("| %s: %s | **%s** | %s |" % (t["id"], t["text"], verdict, detail))
    w("")
    w("## Real systemd boot, three arms\n")
    w("Debian bookworm + systemd 252 + the project's plugin (scripts/rootfs.sh), a fresh copy of the "
      "image per boot. Every synchronize_rcu, synchronize_rcu_expedited, synchronize_srcu, "
      "synchronize_srcu_expedited and rcu_barrier is traced on entry and return (kprobe events on the "
      "kernel command line, trace_clock=mono as MEASURING.md did, the same in every arm); the e2e "
      "probe prints the events, the host pairs them per task (outermost call only) and keeps the waits "
      "that start between systemd's UserspaceTimestamp and FinishTimestamp. Arm *RCU subscriber only* "
      "boots a kernel built from the series up to rcu-boot-report (make bisect-check's prefix image, "
      "same config recipe).\n")
    for metric, unit, title in (("pid1_gp_ms", "ms", "PID 1's grace-period wait during userspace boot"),
                                ("pid1_gp_n", "", "PID 1's grace-period waits (count)"),
                                ("all_gp_ms", "ms", "all tasks' grace-period wait during userspace boot"),
                                ("all_gp_n", "", "all tasks' grace-period waits (count)"),
                                ("startup_s", "s", "time to StartupFinished (userspace part)")):
        w("### %s\n" % title)
        w(A.arm_table(cg, list(SD), metric, unit, labels=SD))
        w("")
        w(A.pair_table(cg, [("rcu_cgroup", "stock"), ("rcu", "stock"), ("rcu_cgroup", "rcu")], metric, unit,
                       log=False, labels=SD))
        w("")
    w("PID 1's waits by function (median per boot):\n")
    w("| arm | " + " | ".join(("rcu", "rcuexp", "srcu", "srcuexp", "barrier")) + " |")
    w("|---|---|---|---|---|---|")
    for a in SD:
        w("| %s | %s |" % (SD[a], " | ".join(A.fmt(float(np.median(A.values(cg, a, "pid1_%s_n" % f))))
                                           if len(A.values(cg, a, "pid1_%s_n" % f)) else "n/a"
                                           for f in ("rcu", "rcuexp", "srcu", "srcuexp", "barrier"))))
    w("")
    unpaired = sum(int(float(r.get("gp_events_unpaired") or 0)) for r in cg)
    lost = sum(int(float(r.get("gp_lost") or 0)) for r in cg)
    w("Trace quality: %d events did not pair up over all boots (a console line cut by a kernel message); "
      "ring-buffer overruns: %d.\n" % (unpaired, lost))
    w("Cross-check, the kernel's own boot-phase report (`rcu: userspace boot ... init waited for N, X ms`, "
      "counted from init launch to the report, so a wider window than systemd's):\n")
    w(A.arm_table(cg, ["rcu", "rcu_cgroup"], "rcu_init_wait_ms", "ms", labels=SD))
    w("")
    if A.plot_hist(os.path.join(out, "pid1_gp_ms.png"), cg, list(SD), "pid1_gp_ms",
                   "PID 1 grace-period wait during userspace boot (ms)", "Workload 5: PID 1", labels=SD):
        w("![PID 1](pid1_gp_ms.png)\n")
    m = re.search(r"bench\.fork=(\d+)", setup.get("append[fork:stock]", ""))
    forks = m[1] if m else "N"
    w("## fork+exit, before and after the report\n")
    w("scripts/guest/bench-fork.sh on the busybox initramfs: %s fork+exit pairs per phase after a "
      "warm-up; per boot the median of each phase. *before* runs while userspace boots (for arm "
      "user_booted_reported: the cgroup subscriber holds cgroup_threadgroup_rwsem's readers on the slow "
      "path), then the report, then *after*. Stock arms write nothing: their two phases control for order. "
      "cgroup_favordynmods=1 is the positive control: the slow path for the life of the system.\n" % forks)
    for metric, title in (("before_med_ms", "before the report (median per boot, ms)"),
                          ("after_med_ms", "after the report (median per boot, ms)"),
                          ("after_over_before", "after / before, per boot")):
        w("### %s\n" % title)
        w(A.arm_table(fk, list(FORK), metric, "", labels=FORK))
        w("")
    w(A.pair_table(fk, [("reported", "stock"), ("favordynmods", "stock")], "before_med_ms", "ms", labels=FORK)
      .replace("| x vs y |", "| before: x vs y |"))
    w("")
    w(A.pair_table(fk, [("reported", "stock"), ("favordynmods", "stock")], "after_med_ms", "ms", labels=FORK)
      .replace("| x vs y |", "| after: x vs y |"))
    w("")
    if A.plot_hist(os.path.join(out, "fork_after_over_before.png"), fk, list(FORK), "after_over_before",
                   "fork+exit median after / before the report, per boot", "Workload 5: fork+exit", labels=FORK):
        w("![fork](fork_after_over_before.png)\n")
    w("## Boots\n")
    by = {}
    for r in runs:
        by.setdefault((r["kind"], r["status"]), 0)
        by[(r["kind"], r["status"])] += 1
    w("| kind | status | boots |")
    w("|---|---|---|")
    for (k, s), n in sorted(by.items()):
        w("| %s | %s | %d |" % (k, s, n))
    w("")
    w("## Setup\n")
    w("```")
    for k, v in setup.items():
        w("%s: %s" % (k, v))
    w("```")
    open(os.path.join(out, "report.md"), "w").write("\n".join(text) + "\n")


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--report":
        cmd_report(sys.argv[2])
    elif len(sys.argv) == 3:
        cmd_parse(sys.argv[1], sys.argv[2])
        cmd_report(sys.argv[2])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
