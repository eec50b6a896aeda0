#!/usr/bin/python3
"""Analysis of "make bench" (bench/run.sh).

  analyze.py parse WORKDIR OUTDIR   console logs -> OUTDIR/{wl12,wl3,wl4,runs}.csv, setup.txt
  analyze.py report OUTDIR          CSVs -> OUTDIR/report.md and OUTDIR/*.png

The report stage needs only the committed CSVs and setup.txt, so anyone can
re-run it.  Statistics (see bench/prereg.json, fixed before the data):
medians with distribution-free order-statistic confidence intervals,
Mann-Whitney U p-values between arms, Hodges-Lehmann shift (or ratio, on log
values) with the Moses confidence interval, and Paul McKenney's sign test
for the ratio targets.  Uses scipy, numpy and matplotlib from Debian.
"""
import csv
import json
import lzma
import math
import os
import re
import shutil
import sys

import numpy as np
from scipy import stats

HERE = os.path.dirname(os.path.abspath(__file__))
CONF = 0.95
QUIET = 0.5  # exploratory subset: other processes used at most this many host CPUs

# ---------------------------------------------------------------- parsing

ARMS = {
    "A": "A stock",
    "B": "B reported",
    "C": "C rcu_expedited=1",
    "D": "D timeout 15 s",
}


def kv(s):
    """'a=1 b=x' -> dict; values that look like numbers become floats."""
    out = {}
    for tok in s.split():
        if "=" not in tok:
            continue
        k, v = tok.split("=", 1)
        try:
            out[k] = float(v)
        except ValueError:
            out[k] = v
    return out


RCU_RE = re.compile(r"rcu: userspace boot \(ended: (\w+)\) waited for (\d+) RCU/SRCU grace periods, "
                    r"(\d+) expedited, (\d+) ms in all; init waited for (\d+), (\d+) ms")
END_RE = re.compile(r"\[ *([0-9.]+)\] user_booted: userspace boot ended \((\w+)\) ([0-9.]+) s after "
                    r"init launch, by (.*)\[\d+\]; (?:(\d+) )?subscribers told in (\d+) us")
INIT_RE = re.compile(r"\[ *([0-9.]+)\] Run \S+ as init process")
CRNG_RE = re.compile(r"\[ *([0-9.]+)\] random: crng init done")
PHASE_RE = re.compile(r"\[ *([0-9.]+)\] bench: phase=(\w+)")


SPLIT_RE = re.compile(r"^(BENCH .*?)\[ *\d+\.\d+\] .*$")


def open_log(path):
    """A console log as text: the file itself, or the xz copy that
    bench/run.sh keeps next to the CSVs (bench/results*/logs/WORK/logs/*.log.xz)."""
    if not os.path.exists(path) and os.path.exists(path + ".xz"):
        path += ".xz"
    if path.endswith(".xz"):
        return lzma.open(path, "rt", errors="replace")
    return open(path, errors="replace")


def console_lines(path):
    """The console's lines, with a kernel message that cut into a line of
    ours (printk and userspace share the serial console) taken out again:
    "BENCH load perio[   20.9] bench: phase=end" + "d_ms=100 ..." ->
    "BENCH load period_ms=100 ..."."""
    lines = [l.rstrip("\r\n") for l in open_log(path)]
    out = []
    i = 0
    while i < len(lines):
        line = lines[i]
        m = SPLIT_RE.match(line)
        if m and not line.startswith("BENCH dmesg") and i + 1 < len(lines) and \
                not lines[i + 1].startswith(("BENCH", "[")):
            line = m[1] + lines[i + 1]
            i += 1
        out.append(line)
        i += 1
    return out


def parse_bench_log(path):
    row = {}
    for line in console_lines(path):
        if not line.startswith("BENCH "):
            continue
        body = line[6:]
        if body.startswith("dmesg "):
            m = RCU_RE.search(body)
            if m:
                row.update(rcu_reason=m[1], rcu_waits=int(m[2]), rcu_waits_exp=int(m[3]),
                           rcu_wait_ms=int(m[4]), rcu_init_waits=int(m[5]), rcu_init_wait_ms=int(m[6]))
            m = END_RE.search(body)
            if m:
                row.update(end_ts=float(m[1]), end_reason=m[2], end_after_launch_s=float(m[3]),
                           end_by=m[4], subscribers=int(m[5]) if m[5] else None, told_us=int(m[6]))
            m = INIT_RE.search(body)
            if m:
                row["init_launch_s"] = float(m[1])
            m = PHASE_RE.search(body)
            if m:
                row["phase_%s_s" % m[2]] = float(m[1])
        elif body.startswith(("version ", "cmdline ")):
            k, v = body.split(" ", 1)
            row[k] = v
        elif body.startswith("error="):
            row["error"] = body[6:]
        elif "=" in body.split(" ", 1)[0]:
            row.update(kv(body))
        else:
            word, rest = (body.split(" ", 1) + [""])[:2]
            d = kv(rest)
            if word == "wl1":
                d = {("wl1_" + k if k in ("total_ms", "rounds") else k): v for k, v in d.items()}
            elif word == "load":
                d = {(k if k.startswith("load_") else "load_" + k): v for k, v in d.items()}
            elif word == "trace":
                d = {("trace_lost" if k == "lost" else k): v for k, v in d.items()}
            elif word in ("setup", "after_boot"):
                d = {word + "_" + k: v for k, v in d.items()}
            row.update(d)
    # Derived: when boot mode ended, relative to the loaded window's start.
    if "end_ts" in row and "phase_win_s" in row:
        row["end_minus_win_s"] = round(row["end_ts"] - row["phase_win_s"], 3)
    return row


def parse_systemd_log(path):
    row = {}
    for line in open_log(path):
        line = line.rstrip("\r\n")
        if "E2E| " not in line:
            # The kernel's own lines reach the serial console too.
            m = RCU_RE.search(line)
            if m:
                row.update(rcu_waits=int(m[2]), rcu_waits_exp=int(m[3]), rcu_wait_ms=int(m[4]),
                           rcu_init_waits=int(m[5]), rcu_init_wait_ms=int(m[6]))
            m = END_RE.search(line)
            if m and "end_reason" not in row:
                row.update(end_reason=m[2], end_after_launch_s=float(m[3]), end_by=m[4],
                           subscribers=int(m[5]) if m[5] else None, told_us=int(m[6]))
            continue
        body = line.split("E2E| ", 1)[1]
        if "=" not in body:
            continue
        k, v = body.split("=", 1)
        if k in ("UserspaceTimestampMonotonic", "FinishTimestampMonotonic", "KernelTimestampMonotonic",
                 "GeneratorsStartTimestampMonotonic", "GeneratorsFinishTimestampMonotonic"):
            row[k] = int(v)
        elif k == "analyze" and "Startup finished" in v:
            row["analyze"] = v.strip()
        elif k == "dmesg":
            m = END_RE.search(v)
            if m:
                row.update(end_reason=m[2], end_after_launch_s=float(m[3]), end_by=m[4],
                           subscribers=int(m[5]) if m[5] else None, told_us=int(m[6]))
            m = RCU_RE.search(v)
            if m:
                row.update(rcu_waits=int(m[2]), rcu_waits_exp=int(m[3]), rcu_wait_ms=int(m[4]),
                           rcu_init_waits=int(m[5]), rcu_init_wait_ms=int(m[6]))
        elif k in ("system", "failed", "sysctl"):
            row[k] = v
    if "FinishTimestampMonotonic" in row and "UserspaceTimestampMonotonic" in row:
        row["startup_s"] = (row["FinishTimestampMonotonic"] - row["UserspaceTimestampMonotonic"]) / 1e6
    if "FinishTimestampMonotonic" in row:
        row["finish_s"] = row["FinishTimestampMonotonic"] / 1e6
    return row


def crng_and_init(path):
    """The kernel's own timestamps (s) of "random: crng init done" and of
    init's launch in one boot's console log; None where absent."""
    crng = init = None
    for line in console_lines(path):
        if crng is None and (m := CRNG_RE.search(line)):
            crng = float(m.group(1))
        elif init is None and (m := INIT_RE.search(line)):
            init = float(m.group(1))
    return crng, init


def write_csv(path, rows, first):
    keys = list(first)
    for r in rows:
        for k in r:
            if k not in keys:
                keys.append(k)
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=keys)
        w.writeheader()
        for r in rows:
            w.writerow(r)


def cmd_parse(work, out):
    os.makedirs(out, exist_ok=True)
    runs = list(csv.DictReader(open(os.path.join(work, "runs.csv"))))
    tables = {"wl12": [], "wl3": [], "wl4": []}
    for r in runs:
        if r["status"] != "ok":
            continue
        family, arm = r["kind"].split(":")
        log = os.path.join(work, r["log"])
        base = {"seq": int(r["seq"]), "round": r["round"], "arm": arm, "host_load1": r["host_load1"],
                "host_other_cpus": r.get("host_other_cpus", ""), "wall_s": r["wall_s"]}
        if family == "boot":
            row = parse_bench_log(log)
            if "error" in row or "wl1_total_ms" not in row:
                r["status"] = "unparsed"
                continue
            tables["wl12"].append({**base, **row})
        elif family == "notify":
            row = parse_bench_log(log)
            if "write_us" not in row:
                r["status"] = "unparsed"
                continue
            tables["wl3"].append({**base, **row})
        elif family == "systemd":
            row = parse_systemd_log(log)
            if "startup_s" not in row:
                r["status"] = "unparsed"
                continue
            tables["wl4"].append({**base, **row})
    for name, rows in tables.items():
        for r in rows:  # long strings: the same for every boot of an arm
            r.pop("version", None)
        p = os.path.join(out, name + ".csv")
        if rows:
            write_csv(p, rows, ["seq", "round", "arm"])
        elif os.path.exists(p):
            os.remove(p)
    write_csv(os.path.join(out, "runs.csv"), runs, runs[0].keys() if runs else ["seq"])
    shutil.copy(os.path.join(work, "setup.txt"), os.path.join(out, "setup.txt"))
    # One guest's own account of itself (kernel version, command line) per arm.
    with open(os.path.join(out, "guest.txt"), "w") as f:
        seen = set()
        for r in runs:
            if r["status"] == "ok" and r["kind"] not in seen and not r["kind"].startswith("systemd"):
                seen.add(r["kind"])
                for line in open_log(os.path.join(work, r["log"])):
                    if line.startswith(("BENCH version", "BENCH cmdline", "BENCH setup")):
                        f.write("%s: %s\n" % (r["kind"], line[6:].rstrip()))
                    elif line.startswith("BENCH") and r["kind"].startswith("notify") and "hz=" in line:
                        f.write("%s: %s\n" % (r["kind"], line[6:].rstrip()))


# ---------------------------------------------------------------- statistics


def median_ci(x, conf=CONF):
    """Distribution-free CI of the median: order statistics x(k)..x(n+1-k)."""
    x = np.sort(np.asarray(x, float))
    n = len(x)
    best = None
    for k in range(1, n // 2 + 1):
        cover = 1 - 2 * stats.binom.cdf(k - 1, n, 0.5)
        if cover >= conf:
            best = (k, cover)
    if best is None:
        return float(np.median(x)), float("nan"), float("nan"), float("nan")
    k, cover = best
    return float(np.median(x)), float(x[k - 1]), float(x[n - k]), float(cover)


def hl_ci(x, y, log=False, conf=CONF):
    """Hodges-Lehmann estimate of the shift x - y and its Moses CI
    (Hollander & Wolfe, Nonparametric Statistical Methods, sec. 4.3; normal
    approximation of the Mann-Whitney critical value).  With log=True the
    shift is of log values and the result a ratio x / y."""
    x = np.asarray(x, float)
    y = np.asarray(y, float)
    if log:
        x, y = np.log(x), np.log(y)
    d = np.sort((x[:, None] - y[None, :]).ravel())
    n, m = len(x), len(y)
    z = stats.norm.ppf(1 - (1 - conf) / 2)
    ca = int(math.floor(n * m / 2 - z * math.sqrt(n * m * (n + m + 1) / 12)))
    if ca < 1:  # too few boots for any interval
        return float(np.median(d)) if not log else math.exp(float(np.median(d))), float("nan"), float("nan")
    est, lo, hi = float(np.median(d)), float(d[ca - 1]), float(d[n * m - ca])
    if log:
        est, lo, hi = math.exp(est), math.exp(lo), math.exp(hi)
    return est, lo, hi


def mwu(x, y):
    x = np.asarray(x, float)
    y = np.asarray(y, float)
    if len(x) == 0 or len(y) == 0:
        return float("nan")
    if np.all(x == x[0]) and np.all(y == x[0]):
        return 1.0  # all identical: no difference at all
    return float(stats.mannwhitneyu(x, y, alternative="two-sided").pvalue)


def wilcoxon_p(d):
    """Two-sided Wilcoxon signed-rank p of paired differences d."""
    if len(d) == 0:
        return float("nan")
    if np.all(d == 0):
        return 1.0
    return float(stats.wilcoxon(d).pvalue)


def holm(ps):
    """Holm's step-down adjustment of a dict of p-values (a missing test,
    NaN, counts as p = 1: the registered family keeps its size)."""
    ps = {k: (1.0 if v != v else v) for k, v in ps.items()}
    order = sorted(ps, key=lambda k: ps[k])
    adj, run = {}, 0.0
    for i, k in enumerate(order):
        run = max(run, min(1.0, (len(order) - i) * ps[k]))
        adj[k] = run
    return adj


def paired_by_round(rows, x, y, metric, diff=False):
    """Per round where both arms have a boot (with a value above 0 for a
    ratio): (rounds, x's values, y's values, rounds left out with the
    reason)."""
    by = {}
    for r in rows:
        if r.get(metric, "") != "":
            by.setdefault(r["round"], {})[r["arm"]] = float(r[metric])
    rounds, out = [], []
    for k in sorted(by, key=lambda k: (k == "extra", int(k) if k.isdigit() else 0)):
        v = by[k]
        if x not in v and y not in v:
            continue
        if k == "extra":
            out.append("extra boots (not paired)")
        elif x not in v or y not in v:
            out.append("round %s (no %s boot)" % (k, x if x not in v else y))
        elif not diff and (v[x] <= 0 or v[y] <= 0):
            out.append("round %s (a value of 0: no ratio)" % k)
        else:
            rounds.append(k)
    return rounds, np.array([by[k][x] for k in rounds]), np.array([by[k][y] for k in rounds]), out


def paired_targets(pre, tables, default_table, diff=False):
    """The paired-by-round rule of prereg-fork.json, prereg-knobs.json and
    (diff=True) prereg-native.json: per round r = x / y (or d = x - y), the
    median of r (d) with its CI, Wilcoxon on log r (on d), Holm over all
    targets but the "all_within" ones.  x LOSES where the Holm-adjusted p <
    alpha and the median r > 1 (d > 0), BEATS where p < alpha and r < 1 (d
    < 0), otherwise no difference shown; "equivalence" targets add MET (the
    median within 1 +- bound, 0 +- bound: a point estimate) and EQUIVALENT
    (its whole CI within).  Returns ({id: (rounds, x, y)}, summary lines,
    table lines)."""
    alpha, n_reg = pre["alpha"], pre["boots_per_arm"]
    what, null = ("difference", 0.0) if diff else ("ratio", 1.0)
    effect = (lambda x, y: x - y) if diff else (lambda x, y: x / y)
    res, ps, left = {}, {}, {}
    targets = [t for t in pre["targets"] if t["test"] != "all_within"]
    for t in targets:
        rows = tables.get(t.get("table", default_table), [])
        rounds, x, y, left[t["id"]] = paired_by_round(rows, t["x"], t["y"], t["metric"], diff)
        res[t["id"]] = (rounds, x, y)
        ps[t["id"]] = wilcoxon_p(x - y if diff else np.log(x / y)) if len(x) else float("nan")
    adj = holm(ps)
    summary = []
    table = ["| target | x %s y | metric | rounds | median %s | CI (coverage) | x higher in | p | p (Holm) "
             "| unpaired check: HL %s (Moses CI), MWU p; Spearman of the pairs | verdict |" % (
                 "-" if diff else "/", what, what),
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for t in targets:
        rounds, x, y = res[t["id"]]
        if not rounds:
            summary.append("%s: no data" % t["id"])
            table.append("| %s | %s %s %s | %s | 0 | | | | | | | no data |" % (
                t["id"], t["x"], "-" if diff else "/", t["y"], t["metric"]))
            continue
        med, lo, hi, cover = median_ci(effect(x, y))
        p = adj[t["id"]]
        verdict = "LOSES" if p < alpha and med > null else "BEATS" if p < alpha and med < null else \
            "no difference shown"
        if t["test"] == "equivalence":
            b = t["bound"]
            verdict = "%s%s; %s" % ("MET" if abs(med - null) <= b else "NOT MET",
                                     " (EQUIVALENT)" if lo == lo and null - b <= lo and hi <= null + b else
                                     " (not shown equivalent)", verdict)
        if p < alpha and lo <= null <= hi:
            verdict += " (yet the median %s's CI includes %g: the signed-rank test is about the pseudo-median)" % (
                what, null)
        elif p >= alpha and not lo <= null <= hi:
            verdict += " (yet the median %s's CI excludes %g: the Holm-adjusted signed-rank test does not)" % (
                what, null)
        if len(rounds) < n_reg:
            verdict += " [%d of the registered %d rounds: not a result]" % (len(rounds), n_reg)
        higher = int(np.sum(x > y))
        note = "; left out: %s" % ", ".join(left[t["id"]]) if left[t["id"]] else ""
        num = "%+.4f" if diff else "%.4f"
        summary.append(("%s: %s: %s vs %s, %s: median " + what + " " + num + " (CI " + num + " to " + num +
                        "; medians %s vs %s; %s higher in %d of %d rounds, Holm p %s%s)") % (
                           t["id"], verdict, t["x"], t["y"], t["metric"], med, lo, hi, fmt(float(np.median(x)), 4),
                           fmt(float(np.median(y)), 4), t["x"], higher, len(rounds), fmt_p(p), note))
        # Unpaired, as a check on what the pairing did (the rounds share the
        # RTC base, not the whole seed): Hodges-Lehmann and the pairs' rank
        # correlation (near 0: the pairing removed little variance).
        hl, hlo, hhi = hl_ci(x, y, log=not diff)
        rho = stats.spearmanr(x, y)[0] if len(x) > 2 and np.ptp(x) > 0 and np.ptp(y) > 0 else float("nan")
        table.append(("| %s | %s %s %s | %s | %d | " + num + " | " + num + " - " + num + " (%.1f%%) | %d of %d | %s | %s | "
                      + num + " (" + num + " - " + num + "), %s; %.2f | %s |") % (
                         t["id"], t["x"], "-" if diff else "/", t["y"], t["metric"], len(rounds), med, lo, hi,
                         cover * 100, higher, len(rounds), fmt_p(ps[t["id"]]), fmt_p(p), hl, hlo, hhi,
                         fmt_p(mwu(x, y)), rho, verdict + note))
    return res, summary, table


def u_side(x, y):
    """Which of x and y tends higher, from the Mann-Whitney U statistic
    (the Hodges-Lehmann median of differences can be 0 when most pairs
    tie, while U sees the side): 1 (x), -1 (y) or 0."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    u = float(stats.mannwhitneyu(x, y, alternative="two-sided").statistic)
    half = len(x) * len(y) / 2
    return 1 if u > half else -1 if u < half else 0


def rounds_to_resolve(x, y, rel, alpha=0.05, power=0.8):
    """Boots per arm a two-sided Mann-Whitney test needs for power at a
    shift of rel times the pooled median (normal approximation with the
    test's asymptotic efficiency 3/pi; spread from the pooled MAD, each
    arm's about its own median)."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    dev = np.concatenate([x - np.median(x), y - np.median(y)])
    sd = 1.4826 * float(np.median(np.abs(dev)))
    delta = rel * float(np.median(np.concatenate([x, y])))
    if not delta or not sd:
        return float("nan")
    z = stats.norm.ppf(1 - alpha / 2) + stats.norm.ppf(power)
    return math.ceil(2 * (z * sd / delta) ** 2 / (3 / math.pi))


def unpaired_targets(pre, tables, default_table):
    """Workload 14's rule (prereg-arms.json): arms compared unpaired, boot
    against boot.  Per target, the Hodges-Lehmann shift x - y (a ratio x / y
    where the target's scale is "ratio" and every value is above 0) with
    its Moses 95% CI, and the two-sided Mann-Whitney p.  "direction"
    targets, Holm over all of them: where the adjusted p < alpha, the side
    the U statistic says is higher is x's or y's; x LOSES (higher) or
    BEATS (lower) where lower is better, HIGHER or LOWER where the target
    says "better": "none"; otherwise no difference shown.  "equivalence":
    EQUIVALENT where the whole CI lies within the bound (0 +- bound, or
    1 +- bound for a ratio), else not shown equivalent.  "noninferior":
    MET where the CI's upper end is below the bound.  Returns (summary
    lines, table lines)."""
    alpha, n_reg = pre["alpha"], pre["boots_per_arm"]
    res, ps = {}, {}
    for t in pre["targets"]:
        rows = tables.get(t.get("table", default_table), [])
        x, y = values(rows, t["x"], t["metric"]), values(rows, t["y"], t["metric"])
        res[t["id"]] = (x, y)
        if t["test"] == "direction":
            ps[t["id"]] = mwu(x, y) if len(x) and len(y) else float("nan")
    adj = holm(ps)
    summary = []
    table = ["| target | x vs y | metric | n x, y | medians x, y | shift (Moses 95% CI) | MWU p | p (Holm) | verdict |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for t in pre["targets"]:
        x, y = res[t["id"]]
        if not len(x) or not len(y):
            summary.append("%s: no data" % t["id"])
            table.append("| %s | %s vs %s | %s | %d, %d | | | | | no data |" % (
                t["id"], t["x"], t["y"], t["metric"], len(x), len(y)))
            continue
        ratio = t.get("scale") == "ratio" and np.all(x > 0) and np.all(y > 0)
        est, lo, hi = hl_ci(x, y, log=ratio)
        null, what = (1.0, "ratio") if ratio else (0.0, "difference")
        p = mwu(x, y)
        if t["test"] == "direction":
            pa = adj[t["id"]]
            side = u_side(x, y) if pa < alpha else 0
            words = ("LOSES", "BEATS") if t.get("better", "lower") == "lower" else ("HIGHER", "LOWER")
            verdict = words[0] if side > 0 else words[1] if side < 0 else "no difference shown"
        else:
            pa = float("nan")
            b = t["bound"]
            if t["test"] == "equivalence":
                verdict = "EQUIVALENT" if lo == lo and null - b <= lo and hi <= null + b else "not shown equivalent"
            else:
                verdict = "MET" if hi == hi and hi < null + b else "NOT MET"
            verdict += " (bound %s%g)" % ("1 +- " if ratio and t["test"] == "equivalence" else
                                           "1 + " if ratio else "+-" if t["test"] == "equivalence" else "",
                                           b)
        if min(len(x), len(y)) < n_reg:
            verdict += " [%d and %d of the registered %d boots: not a result]" % (len(x), len(y), n_reg)
        summary.append("%s: %s: %s vs %s, %s: %s %s (95%% CI %s to %s; medians %s vs %s; MWU p %s%s)" % (
            t["id"], verdict, t["x"], t["y"], t["metric"], what, fmt(est, 4), fmt(lo, 4), fmt(hi, 4),
            fmt(float(np.median(x)), 4), fmt(float(np.median(y)), 4), fmt_p(p),
            ", Holm p %s" % fmt_p(pa) if pa == pa else ""))
        table.append("| %s | %s vs %s | %s | %d, %d | %s, %s | %s %s (%s - %s) | %s | %s | %s |" % (
            t["id"], t["x"], t["y"], t["metric"], len(x), len(y), fmt(float(np.median(x)), 4),
            fmt(float(np.median(y)), 4), what, fmt(est, 4), fmt(lo, 4), fmt(hi, 4), fmt_p(p),
            fmt_p(pa) if pa == pa else "-", verdict))
    return summary, table


def summary_lines(summary):
    """A report's summary: one bullet per verdict."""
    return ["## Summary\n"] + ["- " + s for s in summary] + [""]


def targets_lines(pre, table, heading="## Targets\n"):
    """A report's registered targets: the table, then each one's text."""
    return [heading] + table + [""] + ["- %s: %s" % (t["id"], t["text"]) for t in pre["targets"]] + [""]


def sign_test_below(x, threshold):
    """Paul's sign test: are more of x below threshold than chance (1/2)?"""
    k = int(np.sum(np.asarray(x, float) < threshold))
    return k, len(x), float(stats.binomtest(k, len(x), 0.5, alternative="greater").pvalue)


def fmt(v, digits=3):
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "n/a"
    if v == 0:
        return "0"
    a = abs(v)
    if a >= 100:
        return "%.0f" % v
    return ("%%.%dg" % digits) % v


def fmt_p(p):
    if p is None or math.isnan(p):
        return "n/a"
    if p < 1e-4:
        return "%.1e" % p
    return "%.4f" % p


# ---------------------------------------------------------------- report


def load_table(out, name):
    p = os.path.join(out, name + ".csv")
    if not os.path.exists(p):
        return []
    rows = list(csv.DictReader(open(p)))
    return rows


def values(rows, arm, metric):
    v = []
    for r in rows:
        if r["arm"] == arm and r.get(metric, "") not in ("", None):
            v.append(float(r[metric]))
    return np.asarray(v, float)


def arm_table(rows, arms, metric, unit, labels=None):
    lines = ["| arm | n | median | 95% CI of median | min | max |", "|---|---|---|---|---|---|"]
    for a in arms:
        v = values(rows, a, metric)
        if len(v) == 0:
            lines.append("| %s | 0 | | | | |" % (labels or ARMS).get(a, a))
            continue
        med, lo, hi, _ = median_ci(v)
        lines.append("| %s | %d | %s %s | %s .. %s | %s | %s |" % (
            (labels or ARMS).get(a, a), len(v), fmt(med), unit, fmt(lo), fmt(hi), fmt(v.min()), fmt(v.max())))
    return "\n".join(lines)


def pair_table(rows, pairs, metric, unit, log=True, labels=None):
    lab = labels or ARMS
    what = "ratio x/y (HL)" if log else "difference x-y (HL, %s)" % unit
    lines = ["| x vs y | %s | 95%% CI | Mann-Whitney U p (two-sided) |" % what, "|---|---|---|---|"]
    for x, y in pairs:
        vx, vy = values(rows, x, metric), values(rows, y, metric)
        if len(vx) == 0 or len(vy) == 0:
            continue
        use_log = log and np.all(vx > 0) and np.all(vy > 0)
        est, lo, hi = hl_ci(vx, vy, log=use_log)
        if log and not use_log:
            what_note = " (difference: zeros present)"
        else:
            what_note = ""
        lines.append("| %s vs %s | %s%s | %s .. %s | %s |" % (
            lab.get(x, x), lab.get(y, y), fmt(est), what_note, fmt(lo), fmt(hi), fmt_p(mwu(vx, vy))))
    return "\n".join(lines)


def metric_section(rows, arms, pairs, metric, unit, log=True, labels=None, image=None, alt=""):
    """An arm table and a pair table of one metric (and its plot): report lines."""
    lines = [arm_table(rows, arms, metric, unit, labels), "", pair_table(rows, pairs, metric, unit, log, labels), ""]
    if image:
        lines += ["![%s](%s)" % (alt, image), ""]
    return lines


def judge(t, tables, alpha):
    rows = tables.get(t["table"], [])
    vx = values(rows, t["x"], t["metric"])
    vy = values(rows, t["y"], t["metric"]) if "y" in t else None
    if len(vx) == 0 or (vy is not None and len(vy) == 0):
        return "NOT MEASURED", "no data"
    test, b = t["test"], t.get("bound")
    if test == "ratio_below":
        est, lo, hi = hl_ci(vx, vy, log=True)
        _, ylo, _, _ = median_ci(vy)
        k, n, p = sign_test_below(vx, b * ylo)
        ok = hi < b and p < alpha
        detail = ("ratio %s/%s = %s (95%% CI %s .. %s, bound < %s); sign test: %d/%d of %s below %s x %s "
                  "(lower CI bound of %s's median), p = %s; Mann-Whitney p = %s" % (
                      t["x"], t["y"], fmt(est), fmt(lo), fmt(hi), b, k, n, t["x"], b, fmt(ylo), t["y"],
                      fmt_p(p), fmt_p(mwu(vx, vy))))
    elif test == "diff_within":
        est, lo, hi = hl_ci(vx, vy)
        ok = lo >= -b and hi <= b
        detail = "difference %s-%s = %s (95%% CI %s .. %s, bound +-%s); medians %s vs %s; Mann-Whitney p = %s" % (
            t["x"], t["y"], fmt(est), fmt(lo), fmt(hi), b, fmt(np.median(vx)), fmt(np.median(vy)),
            fmt_p(mwu(vx, vy)))
    elif test == "diff_above":
        est, lo, hi = hl_ci(vx, vy)
        p = mwu(vx, vy)
        ok = lo >= b and p < alpha
        detail = "difference %s-%s = %s (95%% CI %s .. %s, bound >= %s); medians %s vs %s; Mann-Whitney p = %s" % (
            t["x"], t["y"], fmt(est), fmt(lo), fmt(hi), b, fmt(np.median(vx)), fmt(np.median(vy)), fmt_p(p))
    elif test == "median_ratio_below":  # valid with zeros, where a log ratio is not
        mx, _, xhi, _ = median_ci(vx)
        my, ylo, _, _ = median_ci(vy)
        p = mwu(vx, vy)
        ok = xhi < b * ylo and p < alpha
        detail = ("median %s = %s (95%% CI upper bound %s) vs %s = %s (lower bound %s): ratio of medians %s, "
                  "bound %s x %s = %s; Mann-Whitney p = %s" % (
                      t["x"], fmt(mx), fmt(xhi), t["y"], fmt(my), fmt(ylo), fmt(mx / my if my else float("nan")),
                      b, fmt(ylo), fmt(b * ylo), fmt_p(p)))
    elif test == "ratio_within":
        est, lo, hi = hl_ci(vx, vy, log=True)
        ok = 1 - b <= lo and hi <= 1 + b
        detail = "ratio %s/%s = %s (95%% CI %s .. %s, bound 1 +- %s); Mann-Whitney p = %s" % (
            t["x"], t["y"], fmt(est), fmt(lo), fmt(hi), b, fmt_p(mwu(vx, vy)))
    elif test == "classify":  # lower is better: which arm wins, if either
        use_log = np.all(vx > 0) and np.all(vy > 0)
        est, lo, hi = hl_ci(vx, vy, log=use_log)
        one, p = (1.0 if use_log else 0.0), mwu(vx, vy)
        verdict = ("BEATS" if hi < one and p < alpha else "LOSES" if lo > one and p < alpha else "MATCHES")
        detail = "%s %s%s%s = %s (95%% CI %s .. %s); medians %s vs %s; Mann-Whitney p = %s" % (
            "ratio" if use_log else "difference", t["x"], "/" if use_log else "-", t["y"], fmt(est), fmt(lo),
            fmt(hi), fmt(np.median(vx)), fmt(np.median(vy)), fmt_p(p))
        if "expect" in t:
            detail += "; expected before the data: %s" % t["expect"]
        if "n/a" in detail.split("Mann-Whitney")[0]:
            return "INCONCLUSIVE (too few boots)", detail
        return verdict, detail
    elif test == "rel_ci_below":  # how tightly the median is known, relative to it
        med, lo, hi, cover = median_ci(vx)
        rel = (hi - lo) / med if med else float("nan")
        ok = rel < b
        detail = "median %s (95%% CI %s .. %s, n=%d): CI width / median = %s, bound < %s" % (
            fmt(med), fmt(lo), fmt(hi), len(vx), fmt(rel), b)
    elif test == "median_below":
        med, lo, hi, cover = median_ci(vx)
        ok = hi < b
        detail = "median %s (95%% CI %s .. %s, coverage %.1f%%, n=%d), bound < %s" % (
            fmt(med), fmt(lo), fmt(hi), 100 * cover, len(vx), b)
    else:
        return "?", "unknown test " + test
    if "n/a" in detail.split("Mann-Whitney")[0]:
        return "INCONCLUSIVE (too few boots)", detail
    return ("MET" if ok else "NOT MET"), detail


def plot_hist(path, rows, arms, metric, xlabel, title, logx=False, labels=None):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    lab = labels or ARMS
    data = [(a, values(rows, a, metric)) for a in arms]
    data = [(a, v) for a, v in data if len(v)]
    if not data:
        return False
    allv = np.concatenate([v for _, v in data])
    if logx and np.all(allv > 0):
        bins = np.logspace(np.log10(allv.min() * 0.9), np.log10(allv.max() * 1.1), 40)
    else:
        logx = False
        lo, hi = allv.min(), allv.max()
        if lo == hi:
            lo, hi = lo - 0.5, hi + 0.5
        if np.all(allv == np.round(allv)) and hi - lo <= 60:
            bins = np.arange(lo - 0.5, hi + 1.5, 1.0)
        else:
            bins = np.linspace(lo, hi, 40)
    fig, axes = plt.subplots(len(data), 1, figsize=(8, 1.6 * len(data) + 0.8), sharex=True, squeeze=False)
    for ax, (a, v) in zip(axes[:, 0], data):
        med, lo, hi, _ = median_ci(v)
        ax.hist(v, bins=bins, color="C%d" % (list(lab).index(a) % 10 if a in lab else 0), alpha=0.8)
        ax.axvline(med, color="k", lw=1)
        if not math.isnan(lo):
            ax.axvspan(lo, hi, color="k", alpha=0.12, lw=0)
        ax.set_ylabel("boots")
        ax.text(0.99, 0.85, "%s  n=%d  median %s [%s, %s]" % (lab.get(a, a), len(v), fmt(med), fmt(lo), fmt(hi)),
                transform=ax.transAxes, ha="right", va="top", fontsize=8)
        if logx:
            ax.set_xscale("log")
    axes[-1, 0].set_xlabel(xlabel)
    fig.suptitle(title + "\n(line: median; band: its 95% CI)", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return True


def plot_strip(path, rows, arms, metric, xlabel, title):
    """Every boot's value of @metric, one row of dots per arm, with the
    median and its 95% CI: the spread a verdict rests on.  SVG, the same
    bytes from the same CSV (no date, fixed ids)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    matplotlib.rcParams["svg.hashsalt"] = "user_booted"
    data = [(a, values(rows, a, metric)) for a in arms]
    data = [(a, v) for a, v in data if len(v)]
    if not data:
        return False
    fig, ax = plt.subplots(figsize=(8, 0.55 * len(data) + 1.4))
    for i, (a, v) in enumerate(data):
        # A fixed jitter per boot (its rank), so that equal values stay visible.
        jit = (np.argsort(np.argsort(v)) % 5 - 2) * 0.06
        ax.plot(v, i + jit, "o", ms=4, alpha=0.7, color="C%d" % (i % 10))
        med, lo, hi, _ = median_ci(v)
        ax.plot([med, med], [i - 0.3, i + 0.3], color="k", lw=1.5)
        if not math.isnan(lo):
            ax.plot([lo, hi], [i - 0.35, i - 0.35], color="k", lw=1)
    ax.set_yticks(range(len(data)))
    ax.set_yticklabels(["%s (n=%d)" % (a, len(v)) for a, v in data])
    ax.invert_yaxis()
    ax.set_xlabel(xlabel)
    ax.set_title(title + "\n(dot: a boot; bar: median; line below: its 95% CI)", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, format="svg", metadata={"Date": None})
    plt.close(fig)
    return True


def plot_sequence(path, tables):
    """Each boot's value against its position in the run: drift, order effects."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    panels = [("wl12", "wl1_total_ms", "workload 1: userspace boot (ms)", list(ARMS), True),
              ("wl12", "iso_med_ms", "issue 4: membarrier latency at boot start (ms)", list(ARMS), True),
              ("wl12", "win_exp", "workload 2: expedited GPs in window", list(ARMS), False),
              ("wl3", "write_us", "workload 3: write latency (us)", ["0", "1", "100", "100c"], True),
              ("wl4", "startup_s", "workload 4: systemd startup (s)", ["A", "B"], False)]
    panels = [p for p in panels if tables.get(p[0])]
    if not panels:
        return False
    runs = tables.get("runs") or []
    fig, axes = plt.subplots(len(panels) + 1, 1, figsize=(9, 2.2 * (len(panels) + 1)), squeeze=False)
    ax = axes[-1, 0]
    if runs:
        pts = [(int(r["seq"]), float(r["host_other_cpus"])) for r in runs if r.get("host_other_cpus")]
        if pts:
            ax.plot(*zip(*pts), ".-", ms=3, lw=0.5, color="k")
        bad = [r for r in runs if r["status"] != "ok" and r.get("host_other_cpus")]
        if bad:
            ax.plot([int(r["seq"]) for r in bad], [float(r["host_other_cpus"]) for r in bad], "rx", label="failed boot")
            ax.legend(fontsize=7)
    ax.set_title("CPUs used by other processes on the host during each boot (of 2)", fontsize=9)
    for ax, (tab, metric, title, arms, logy) in zip(axes[:-1, 0], panels):
        for i, a in enumerate(arms):
            pts = [(int(r["seq"]), float(r[metric])) for r in tables[tab] if r["arm"] == a and r.get(metric)]
            if pts:
                s, v = zip(*pts)
                ax.plot(s, v, "o", ms=3, label=a, color="C%d" % i)
        if logy and ax.lines:
            ax.set_yscale("log")
        ax.set_title(title, fontsize=9)
        if ax.lines:
            ax.legend(fontsize=7, ncol=4)
    axes[-1, 0].set_xlabel("boot sequence number (interleaved, shuffled per round)")
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return True


def committed_log(work, out, log):
    """A console log's path relative to OUT, where it is committed: the log
    itself if it lies under OUT, else the xz copy bench/run.sh keeps in
    OUT/logs/WORK/logs/.  Unchanged (WORKDIR's own path) if neither exists:
    then the log is not in the repository."""
    for p in (os.path.join(work, log), os.path.join(out, "logs", os.path.basename(os.path.normpath(work)), log)):
        for q in (p, p + ".xz"):
            rel = os.path.relpath(q, out)
            if os.path.exists(q) and not rel.startswith(".."):
                return rel
    return log


def keep_runs(work, out, runs):
    """An analyzer's record of its run: runs.csv (statuses as judged) and
    setup.txt, next to the CSVs.  Its log paths point at the committed
    copies, relative to OUT, where there are any."""
    for r in runs:
        if r.get("log"):
            r["log"] = committed_log(work, out, r["log"])
    write_csv(os.path.join(out, "runs.csv"), runs, runs[0].keys() if runs else ["seq"])
    shutil.copy(os.path.join(work, "setup.txt"), os.path.join(out, "setup.txt"))


def finish_report(out, lines, summary):
    """Append the setup, write OUT/report.md, print the summary lines."""
    lines.extend(setup_lines(read_setup(out)))
    open(os.path.join(out, "report.md"), "w").write("\n".join(lines) + "\n")
    print("\n".join(summary))


def analyzer_main(doc, parse, report):
    """The command line the analyzers share: WORKDIR OUTDIR, or --report OUTDIR."""
    if len(sys.argv) == 3 and sys.argv[1] == "--report":
        report(sys.argv[2])
    elif len(sys.argv) == 3:
        parse(sys.argv[1], sys.argv[2])
        report(sys.argv[2])
    else:
        sys.exit(doc)


def boots_lines(runs):
    """The report's table of boots per kind and status."""
    by = {}
    for r in runs:
        by[(r["kind"], r["status"])] = by.get((r["kind"], r["status"]), 0) + 1
    return (["| kind | status | boots |", "|---|---|---|"] +
            ["| %s | %s | %d |" % (k, s, n) for (k, s), n in sorted(by.items())] + [""])


def setup_lines(setup):
    """The report's setup section, in full."""
    return ["## Setup\n", "```"] + ["%s: %s" % kv for kv in setup.items()] + ["```"]


def read_setup(out):
    setup = {}
    p = os.path.join(out, "setup.txt")
    if os.path.exists(p):
        for line in open(p):
            if ": " in line:
                k, v = line.rstrip("\n").split(": ", 1)
                setup.setdefault(k, v) if not k.startswith(("wall_clock", "date_end")) else setup.update({k: v})
    return setup


def cmd_report(out):
    prereg = json.load(open(os.path.join(HERE, "prereg.json")))
    alpha = prereg["alpha"]
    setup = read_setup(out)
    tables = {n: load_table(out, n) for n in ("wl12", "wl3", "wl4")}
    runs = load_table(out, "runs")
    wl12, wl3, wl4 = tables["wl12"], tables["wl3"], tables["wl4"]
    W3 = {"0": "0 subscribers", "1": "1 subscriber", "100": "100 subscribers", "100c": "100 subscribers, console"}
    W4 = {"A": "A stock", "B": "B reported (plugin)"}
    md = []
    w = md.append

    w("# user_booted benchmark report")
    w("")
    w("Generated by `make bench` (bench/run.sh, bench/analyze.py) from the raw data in this "
      "directory. Method, targets and tests were fixed in `bench/prereg.json` before the data "
      "(commit %s). The boot is the unit: every number below is one value per boot." % setup.get("prereg_commit", "?"))
    w("")

    # ------------------------------------------------------------ headline
    w("## Headline")
    w("")
    for line in headline(tables):
        w("- " + line)
    w("")

    # ------------------------------------------------------------ targets
    w("## Targets (fixed before the data)")
    w("")
    w("| target | source | verdict | evidence |")
    w("|---|---|---|---|")
    verdicts = []
    for t in prereg["targets"]:
        v, detail = judge(t, tables, alpha)
        verdicts.append((t, v, detail))
        w("| %s: %s | %s | **%s** | %s |" % (t["id"], t["text"], t["source"], v, detail))
    w("| W4: real systemd boot, A vs B | issue 7, workload 4 | (no target: report the effect) | %s |" % (
        w4_summary(wl4) if wl4 else "not measured: " + setup.get("workload4_not_run", "see below")))
    w("")
    for a in prereg.get("amendments", []):
        w("Amendment, also before the data: " + a)
        w("")

    # ------------------------------------------------------------ setup
    w("## Setup")
    w("")
    w("| item | value |")
    w("|---|---|")
    for k, v in setup.items():
        w("| %s | `%s` |" % (k, v.replace("|", "\\|")))
    w("")
    w("Arms (same kernel image for all, command lines above):")
    w("")
    w("- **A stock**: no `user_booted_reported`; userspace boot ends, for the kernel, at init launch, as today.")
    w("- **B reported**: `user_booted_reported`; the guest writes 1 to /proc/sys/kernel/user_booted "
      "when its synthetic boot is done (the write is timed).")
    w("- **C `rcupdate.rcu_expedited=1`**: every grace period expedited, always (the lower bound during boot; Android's setting).")
    w("- **D timeout**: `user_booted_reported user_booted_timeout=15` and no report: what the rejected "
      "`rcu_boot_end_delay` patch did (boot mode for a fixed 15 s after init launch).")
    w("")
    w("Run order: %s rounds; each round boots every kind once, in an order shuffled per round "
      "(seed in the setup); the sequence plot below shows every boot in run order." % setup.get("boots_per_kind", "?"))
    w("")
    guest = os.path.join(out, "guest.txt")
    if os.path.exists(guest):
        w("What the guests said about themselves (one boot per kind):")
        w("")
        w("```")
        for line in open(guest):
            w(line.rstrip())
        w("```")
        w("")

    # ------------------------------------------------------------ failures
    w("## Boots, failures, exclusions")
    w("")
    counts = {}
    for r in runs:
        counts.setdefault(r["kind"], {}).setdefault(r["status"], 0)
        counts[r["kind"]][r["status"]] += 1
    w("| kind | " + " | ".join(["ok", "fail", "tcg-int3", "unparsed"]) + " |")
    w("|---|---|---|---|---|")
    for k in sorted(counts):
        c = counts[k]
        w("| %s | %s |" % (k, " | ".join(str(c.get(s, 0)) for s in ["ok", "fail", "tcg-int3", "unparsed"])))
    w("")
    bad = [r for r in runs if r["status"] != "ok"]
    if bad:
        w("Not ok (excluded from the statistics; logs stay in build/bench/logs):")
        w("")
        for r in bad:
            w("- boot %s (%s, attempt %s): %s, qemu-run.sh exit %s" % (r["seq"], r["kind"], r["attempt"], r["status"], r["rc"]))
        w("")
    else:
        w("No boot failed.")
        w("")
    w("%s" % prereg["exclusions"])
    w("")
    other = [float(r["host_other_cpus"]) for r in runs if r.get("host_other_cpus")]
    w("The host has 2 CPUs and is shared with other work (kernel builds). QEMU ran at nice %s. CPUs used "
      "by all other processes during a boot (from /proc/stat, minus QEMU's own CPU time): median %s, "
      "90th percentile %s, max %s; 1-min load average at boot start: median %s, max %s." % (
          setup.get("qemu_niceness", "0").split()[0],
          fmt(np.median(other)) if other else "n/a", fmt(np.percentile(other, 90)) if other else "n/a",
          fmt(max(other)) if other else "n/a",
          fmt(np.median([float(r["host_load1"]) for r in runs])) if runs else "n/a",
          fmt(max([float(r["host_load1"]) for r in runs])) if runs else "n/a"))
    w("")
    sens = sensitivity(tables)
    if sens:
        w("Sensitivity to that contention: Spearman rank correlation between the other processes' CPU use "
          "during a boot and the boot's value, per arm (|rho| near 1 and small p: contention moved the metric):")
        w("")
        w("| metric | " + " | ".join("arm %s" % a for a in sens["arms"]) + " |")
        w("|---|" + "---|" * len(sens["arms"]))
        for metric, cells in sens["rows"]:
            w("| %s | %s |" % (metric, " | ".join(cells)))
        w("")

    # ------------------------------------------------------------ workload 1
    arms = [a for a in ARMS if len(values(wl12, a, "wl1_total_ms"))]
    pairs = [("B", "A"), ("B", "C"), ("B", "D"), ("C", "A"), ("D", "A"), ("D", "C")]
    if wl12:
        r0 = wl12[0]
        w("## Workload 1: synthetic userspace boot")
        w("")
        w("`bench_guest boot %s %s` (bench/bench_guest.c) in PID 1's child, right after init: %s rounds, each "
          "of %s membarrier(MEMBARRIER_CMD_GLOBAL) calls (one synchronize_rcu() each), a tmpfs mount+umount, "
          "a namespace set (mnt, uts, ipc, net, pid) created by unshare() in a child and destroyed by its exit, "
          "a cgroup created, entered, left and removed (the cgroup.procs writes wait in rcu_sync_enter(), "
          "systemd's top grace-period wait per MEASURING.md); every 5th round loads and unloads the sample "
          "module. Metric: wall time of the whole synthetic boot." % (
              fmt(float(r0["wl1_rounds"])), fmt(float(r0["mb_n"]) / float(r0["wl1_rounds"])),
              fmt(float(r0["wl1_rounds"])), fmt(float(r0["mb_n"]) / float(r0["wl1_rounds"]))))
        w("")
        w("Userspace boot duration:")
        w("")
        md.extend(metric_section(wl12, arms, pairs, "wl1_total_ms", "ms", image="wl1_boot.png", alt="workload 1"))
        w("Issue 4: per-boot median latency of one membarrier(GLOBAL), 100 calls back to back at the start "
          "of userspace boot, before the synthetic boot (`bench_guest mb 100`):")
        w("")
        md.extend(metric_section(wl12, arms, pairs, "iso_med_ms", "ms", image="iso_membarrier.png", alt="membarrier latency at the start of boot"))
        w("The same inside the synthetic boot (its 200 membarrier calls, between the other operations, "
          "whose background work keeps the other CPU busy):")
        w("")
        md.extend(metric_section(wl12, arms, pairs, "mb_med_ms", "ms", image="wl1_membarrier.png", alt="membarrier latency during boot"))
        w("Where the time goes (medians over boots of each boot's total per operation kind, ms):")
        w("")
        kinds = [("mb", "membarrier"), ("cg", "cgroup cycle"), ("ns", "namespaces"), ("mount", "mount+umount"),
                 ("modload", "module load"), ("modunload", "module unload")]
        w("| arm | " + " | ".join(k[1] for k in kinds) + " | grace periods: expedited / normal (tracepoints) |")
        w("|---|" + "---|" * (len(kinds) + 1))
        for a in arms:
            cells = [fmt(np.median(values(wl12, a, k + "_sum_ms"))) for k, _ in kinds]
            w("| %s | %s | %s / %s |" % (ARMS[a], " | ".join(cells), fmt(np.median(values(wl12, a, "wl1_exp"))),
                                         fmt(np.median(values(wl12, a, "wl1_gp")))))
        w("")
        rb = [r for r in wl12 if r["arm"] == "B" and r.get("rcu_waits")]
        if rb:
            w("The kernel's own account in arm B (median per boot of the `rcu: userspace boot` line): %s "
              "grace-period waits, %s expedited, %s ms in all; init itself %s waits." % (
                  fmt(np.median([float(r["rcu_waits"]) for r in rb])),
                  fmt(np.median([float(r["rcu_waits_exp"]) for r in rb])),
                  fmt(np.median([float(r["rcu_wait_ms"]) for r in rb])),
                  fmt(np.median([float(r["rcu_init_waits"]) for r in rb]))))
            w("")

        # -------------------------------------------------------- workload 2
        w("## Workload 2: after the end of boot")
        w("")
        w("Right after the synthetic boot (and, in B, the report), a window of %s s: `bench_guest load 100 "
          "MS spin` makes one membarrier(GLOBAL) every 100 ms on CPU 0 while a CPU-bound task spins in "
          "userspace on CPU 1 (the work the machine was booted for). Counted from the trace (ring buffer on from "
          "boot via `trace_event=`, phases marked with trace_marker): expedited grace periods "
          "(`rcu:rcu_exp_grace_period` \"start\"), normal grace periods (`rcu:rcu_grace_period` \"start\"), "
          "and expedited-GP IPIs (kprobe on `rcu_exp_handler`, which runs once per IPI). Every boot's "
          "trace is checked for lost events (max lost: %s)." % (
              fmt(round(np.median([float(r["load_elapsed_ms"]) for r in wl12]) / 1000, 1)),
              fmt(max(float(r.get("trace_lost", 0) or 0) for r in wl12))))
        w("")
        w("Expedited grace periods in the window:")
        w("")
        w(arm_table(wl12, arms, "win_exp", ""))
        w("")
        w(pair_table(wl12, pairs, "win_exp", "GPs", log=False))
        w("")
        w("![workload 2](wl2_expedited.png)")
        w("")
        w("Expedited-GP IPIs in the window (the CPU-bound task keeps the other CPU out of idle, so each "
          "expedited grace period must interrupt it):")
        w("")
        w(arm_table(wl12, arms, "win_ipi", ""))
        w("")
        w(pair_table(wl12, [("B", "A"), ("D", "B"), ("C", "B")], "win_ipi", "IPIs", log=False))
        w("")
        w("Also in the window (medians per boot):")
        w("")
        w("| arm | expedited GPs | normal GPs | expedited-GP IPIs | membarrier calls | membarrier median latency (ms) | boot mode ended (s after the window started) |")
        w("|---|---|---|---|---|---|---|")
        for a in arms:
            em = [float(r["end_minus_win_s"]) for r in wl12
                  if r["arm"] == a and r.get("end_minus_win_s") and r.get("end_reason") in ("reported", "timeout")]
            w("| %s | %s | %s | %s | %s | %s | %s |" % (
                ARMS[a], fmt(np.median(values(wl12, a, "win_exp"))), fmt(np.median(values(wl12, a, "win_gp"))),
                fmt(np.median(values(wl12, a, "win_ipi"))), fmt(np.median(values(wl12, a, "load_n"))),
                fmt(np.median(values(wl12, a, "load_med_ms"))),
                fmt(np.median(em)) if len(em) else ("at init launch" if a in "AC" else "after the window")))
        w("")
        w("Who started the expedited grace periods after boot end (the task that drove each one, summed "
          "over all boots of the arm; window / idle):")
        w("")
        w("| arm | in the window | in the idle window |")
        w("|---|---|---|")
        for a in arms:
            cells = []
            for ph in ("win", "idle"):
                tot = {}
                for r in wl12:
                    if r["arm"] == a and r.get(ph + "_exp_by"):
                        for item in r[ph + "_exp_by"].split(","):
                            c, _, n = item.rpartition(":")
                            tot[c] = tot.get(c, 0) + int(float(n))
                top = sorted(tot.items(), key=lambda kv_: -kv_[1])
                cells.append(", ".join("%s %d" % kv_ for kv_ in top[:6]) or "none")
            w("| %s | %s | %s |" % (ARMS[a], cells[0], cells[1]))
        w("")
        idle_arms = [a for a in arms if len(values(wl12, a, "idle_exp"))]
        if idle_arms:
            w("Idle window after it (issue 4; nothing runs in the guest; arms %s):" % ", ".join(idle_arms))
            w("")
            w("| arm | n | expedited GPs (median, max) | normal GPs (median) | expedited-GP IPIs (median, max) |")
            w("|---|---|---|---|---|")
            for a in idle_arms:
                e, g, i = values(wl12, a, "idle_exp"), values(wl12, a, "idle_gp"), values(wl12, a, "idle_ipi")
                w("| %s | %d | %s, %s | %s | %s, %s |" % (ARMS[a], len(e), fmt(np.median(e)), fmt(e.max()),
                                                     fmt(np.median(g)), fmt(np.median(i)), fmt(i.max())))
            w("")
            w(pair_table(wl12, [("B", "A")], "idle_exp", "GPs", log=False))
            w("")
        wb = values(wl12, "B", "write_us")
        if len(wb):
            med, lo, hi, _ = median_ci(wb)
            w("The report write in arm B (the sample module is unloaded by then: only the kernel's own "
              "subscribers, %s of them per the kernel's line): median %s us (95%% CI %s .. %s), n=%d." % (
                  fmt(np.median(values(wl12, "B", "subscribers"))), fmt(med), fmt(lo), fmt(hi), len(wb)))
            w("")

    # ------------------------------------------------------------ workload 3
    if wl3:
        w("## Workload 3: the cost of the notification")
        w("")
        v0 = values(wl3, "0", "subscribers")
        w("Boots with `user_booted_reported`; the sample module (kernel/samples/user_booted) registers N "
          "subscribers on top of the kernel's own (%s in this kernel, per its line with N=0: RCU and "
          "cgroup), then `bench_guest write` times the write(2) of \"1\" to "
          "/proc/sys/kernel/user_booted (open not timed, CLOCK_MONOTONIC around the syscall). `quiet` on "
          "the command line: the kernel's info lines go to the log buffer only, as on a distribution boot; "
          "the `100c` kind keeps the default console loglevel, so the write also pays for printing the "
          "kernel's lines on the emulated serial console." % (fmt(np.median(v0)) if len(v0) else "?"))
        w("")
        w3arms = [a for a in W3 if len(values(wl3, a, "write_us"))]
        w("write(2) latency:")
        w("")
        w(arm_table(wl3, w3arms, "write_us", "us", labels=W3))
        w("")
        w("The kernel's own figure (`N subscribers told in X us`: the notifier chain, from "
          "user_booted_end()'s start to its pr_info, all subscribers including the kernel's own):")
        w("")
        w(arm_table(wl3, w3arms, "told_us", "us", labels=W3))
        w("")
        w("A second write after boot ended (nothing to do but the checks): ")
        w("")
        w(arm_table(wl3, w3arms, "write2_us", "us", labels=W3))
        w("")
        w(pair_table(wl3, [("1", "0"), ("100", "0"), ("100", "1"), ("100c", "100")], "write_us", "us", labels=W3))
        w("")
        w("![workload 3](wl3_write.png)")
        w("")
        host = kv(setup.get("host_calib", "").split(" (")[0])
        cal = []
        for key, what in (("loop_ns", "register-only loop step"), ("mem_ns", "loop step with a load and a store"),
                          ("syscall_ns", "getppid() system call")):
            g = np.concatenate([values(wl3, a, key) for a in W3])
            if len(g) and isinstance(host.get(key), float):
                cal.append("| %s | %s ns | %s ns | %sx |" % (what, fmt(np.median(g)), fmt(host[key]),
                                                            fmt(np.median(g) / host[key])))
        if cal:
            w("How slow the emulated machine is (`bench_guest calib`, the same static binary in the notify "
              "guests, median, and on the host, best of 5; the host runs its own kernel, so the system call "
              "row compares two kernels too). A yardstick for reading the absolute times, not a conversion "
              "factor:")
            w("")
            w("| operation | guest (TCG) | host | guest/host |")
            w("|---|---|---|---|")
            for line in cal:
                w(line)
            w("")
        w("`user_booted()` itself is one `smp_load_acquire()` of a bool (kernel/user_booted.c): a plain "
          "load on x86, with no measurable cost to time from userspace; it is not benchmarked.")
        w("")

    # ------------------------------------------------------------ workload 4
    w("## Workload 4: real systemd boot")
    w("")
    if wl4:
        w("Debian bookworm with systemd 252 and the systemd plugin (scripts/rootfs.sh), booted from a fresh "
          "copy of the same image each time; the e2e probe unit (systemd-plugin/tests/e2e) prints "
          "systemd's timestamps. Metric: FinishTimestampMonotonic - UserspaceTimestampMonotonic "
          "(StartupFinished, userspace part). A: stock; B: `user_booted_reported`, the plugin "
          "reports at StartupFinished.")
        w("")
        w(arm_table(wl4, ["A", "B"], "startup_s", "s", labels=W4))
        w("")
        w(pair_table(wl4, [("B", "A")], "startup_s", "s", log=False, labels=W4))
        w("")
        states = {}
        for r in wl4:
            k = (r["arm"], r.get("system", "?"), r.get("failed", "?"), r.get("end_reason", "?"))
            states[k] = states.get(k, 0) + 1
        w("Every boot's end state (arm, `systemctl is-system-running`, failed units, why the kernel ended "
          "boot): " + "; ".join("%s %s, %s failed, %s: %d boots" % (k + (n,)) for k, n in sorted(states.items())) + ".")
        w("")
        rb = [r for r in wl4 if r["arm"] == "B" and r.get("rcu_waits")]
        if rb:
            w("The kernel's account in arm B (`rcu: userspace boot` line, median per boot): %s grace-period "
              "waits during userspace boot, %s expedited, %s ms waited in all by all tasks; systemd (PID 1) "
              "itself waited for %s. The report came %s s after init launch (median); telling the "
              "subscribers took %s us." % (
                  fmt(np.median([float(r["rcu_waits"]) for r in rb])),
                  fmt(np.median([float(r["rcu_waits_exp"]) for r in rb])),
                  fmt(np.median([float(r["rcu_wait_ms"]) for r in rb])),
                  fmt(np.median([float(r["rcu_init_waits"]) for r in rb])),
                  fmt(np.median(values(wl4, "B", "end_after_launch_s"))),
                  fmt(np.median(values(wl4, "B", "told_us")))))
            w("")
        w("![workload 4](wl4_systemd.png)")
        w("")
    else:
        w("**Not done**: %s" % setup.get("workload4_not_run", "no successful systemd boots."))
        w("")

    # ------------------------------------------------------------ exploratory
    quiet = {n: [r for r in rows if r.get("host_other_cpus") and float(r["host_other_cpus"]) <= QUIET]
             for n, rows in tables.items()}
    if any(quiet.values()):
        w("## Exploratory, not pre-registered: boots on a quiet host")
        w("")
        w("Only the boots during which all other processes together used at most %s CPU (of 2): what the "
          "numbers look like with little host contention. Selected by a condition outside the guest's "
          "control, but it may still go with the arm (a guest that idles leaves more CPU to the others); the "
          "subsets are small and were not planned for; no test here counts for a target." % QUIET)
        w("")
        w("| metric | " + " | ".join(ARMS.values()) + " |")
        w("|---|---|---|---|---|")
        for metric, unit in (("wl1_total_ms", " ms"), ("iso_med_ms", " ms"), ("mb_med_ms", " ms"), ("win_exp", "")):
            cells = []
            for a in ARMS:
                v = values(quiet["wl12"], a, metric)
                cells.append("%s%s (n=%d)" % (fmt(np.median(v)), unit, len(v)) if len(v) else "n=0")
            w("| %s | %s |" % (metric, " | ".join(cells)))
        w("")
        for metric in ("wl1_total_ms", "iso_med_ms", "mb_med_ms"):
            w("- %s on a quiet host: B/A = %s; B/C = %s." % (
                metric, ratio_str(quiet["wl12"], "B", "A", metric), ratio_str(quiet["wl12"], "B", "C", metric)))
        w("")
        if quiet.get("wl3"):
            cells = []
            for a in W3:
                v = values(quiet["wl3"], a, "write_us")
                cells.append("%s: %s us (n=%d)" % (W3[a], fmt(np.median(v)), len(v)) if len(v) else "%s: n=0" % W3[a])
            w("Workload 3 write(2) latency on a quiet host: " + "; ".join(cells) + ".")
            w("")

    notes = os.path.join(out, "notes.md")
    if os.path.exists(notes):
        w("## Notes from diagnosis (outside the data)")
        w("")
        w(open(notes).read().strip())
        w("")

    w("## Run order and drift")
    w("")
    w("![sequence](sequence.png)")
    w("")
    w("## Statistics used")
    w("")
    for k, v in prereg["tests"].items():
        w("- **%s**: %s" % (k, v))
    w("- Hodges-Lehmann/Moses intervals use the normal approximation of the Mann-Whitney critical value, "
      "fine from n=20 per arm; with many ties (counts) they are conservative.")
    w("")
    w("Raw data: `runs.csv` (every boot attempt), `wl12.csv`, `wl3.csv`, `wl4.csv` (one row per good boot), "
      "`setup.txt`, `guest.txt`. `bench/analyze.py report bench/results` regenerates this file.")
    w("")

    open(os.path.join(out, "report.md"), "w").write("\n".join(md))

    # ------------------------------------------------------------ plots
    for f in ("iso_membarrier.png", "wl1_boot.png", "wl1_membarrier.png", "wl2_expedited.png", "wl3_write.png", "wl4_systemd.png", "sequence.png"):
        p = os.path.join(out, f)
        if os.path.exists(p):
            os.remove(p)
    if wl12:
        plot_hist(os.path.join(out, "wl1_boot.png"), wl12, arms, "wl1_total_ms", "synthetic userspace boot (ms, log scale)",
                  "Workload 1: userspace boot duration per arm", logx=True)
        plot_hist(os.path.join(out, "iso_membarrier.png"), wl12, arms, "iso_med_ms",
                  "per-boot median membarrier(GLOBAL) latency, 100 back to back (ms, log scale)",
                  "Issue 4: synchronize_rcu() from userspace at the start of boot", logx=True)
        plot_hist(os.path.join(out, "wl1_membarrier.png"), wl12, arms, "mb_med_ms",
                  "per-boot median membarrier(GLOBAL) latency during boot (ms, log scale)",
                  "synchronize_rcu() from userspace inside the synthetic boot", logx=True)
        plot_hist(os.path.join(out, "wl2_expedited.png"), wl12, arms, "win_exp",
                  "expedited grace periods in the window after boot end",
                  "Workload 2: expedited GPs under light load after boot")
    if wl3:
        plot_hist(os.path.join(out, "wl3_write.png"), wl3, [a for a in W3 if len(values(wl3, a, "write_us"))], "write_us",
                  "write(2) of 1 to kernel.user_booted (us, log scale)", "Workload 3: notification latency",
                  logx=True, labels=W3)
    if wl4:
        plot_hist(os.path.join(out, "wl4_systemd.png"), wl4, ["A", "B"], "startup_s", "systemd userspace startup (s)",
                  "Workload 4: time to StartupFinished", labels=W4)
    plot_sequence(os.path.join(out, "sequence.png"), {**tables, "runs": runs})
    for t, v, d in verdicts:
        print("%-12s %-12s %s" % (t["id"], v, d))


def sensitivity(tables):
    specs = [("wl12", "wl1_total_ms", list(ARMS)), ("wl12", "iso_med_ms", list(ARMS)),
             ("wl12", "mb_med_ms", list(ARMS)), ("wl3", "write_us", ["0", "1", "100", "100c"]),
             ("wl4", "startup_s", ["A", "B"])]
    arms_all = []
    rows = []
    for tab, metric, arms in specs:
        data = tables.get(tab) or []
        if not data:
            continue
        cells = {}
        for a in arms:
            pts = [(float(r["host_other_cpus"]), float(r[metric])) for r in data
                   if r["arm"] == a and r.get("host_other_cpus") and r.get(metric)]
            if len(pts) >= 5 and len(set(p[0] for p in pts)) > 1 and len(set(p[1] for p in pts)) > 1:
                rho, p = stats.spearmanr([q[0] for q in pts], [q[1] for q in pts])
                cells[a] = "%+.2f (p %s)" % (rho, fmt_p(p))
            if a not in arms_all:
                arms_all.append(a)
        rows.append((metric, cells))
    if not rows:
        return None
    return {"arms": arms_all, "rows": [(m, [c.get(a, "") for a in arms_all]) for m, c in rows]}


def med_str(rows, arm, metric, unit=""):
    v = values(rows, arm, metric)
    if not len(v):
        return "n/a"
    med, lo, hi, _ = median_ci(v)
    return "%s%s [%s, %s]" % (fmt(med), unit, fmt(lo), fmt(hi))


def ratio_str(rows, x, y, metric):
    vx, vy = values(rows, x, metric), values(rows, y, metric)
    if not len(vx) or not len(vy):
        return "n/a"
    est, lo, hi = hl_ci(vx, vy, log=True)
    return "%s [%s, %s], Mann-Whitney p = %s" % (fmt(est), fmt(lo), fmt(hi), fmt_p(mwu(vx, vy)))


def headline(tables):
    """A few lines with the main numbers: medians [95% CI], effects [95% CI]."""
    wl12, wl3, wl4 = tables["wl12"], tables["wl3"], tables["wl4"]
    out = []
    if wl12:
        out.append("Synthetic userspace boot (workload 1), median [95%% CI]: A stock %s, B reported %s, "
                   "C always expedited %s, D timeout %s; B/A = %s; B/C = %s." % (
                       med_str(wl12, "A", "wl1_total_ms", " ms"), med_str(wl12, "B", "wl1_total_ms", " ms"),
                       med_str(wl12, "C", "wl1_total_ms", " ms"), med_str(wl12, "D", "wl1_total_ms", " ms"),
                       ratio_str(wl12, "B", "A", "wl1_total_ms"), ratio_str(wl12, "B", "C", "wl1_total_ms")))
        out.append("One membarrier(GLOBAL) = synchronize_rcu() during userspace boot, 100 back to back "
                   "(issue 4), per-boot median: A %s, B %s, C %s; B/A = %s; B/C = %s. Inside the synthetic "
                   "boot: A %s, B %s, C %s." % (
                       med_str(wl12, "A", "iso_med_ms", " ms"), med_str(wl12, "B", "iso_med_ms", " ms"),
                       med_str(wl12, "C", "iso_med_ms", " ms"), ratio_str(wl12, "B", "A", "iso_med_ms"),
                       ratio_str(wl12, "B", "C", "iso_med_ms"), med_str(wl12, "A", "mb_med_ms", " ms"),
                       med_str(wl12, "B", "mb_med_ms", " ms"), med_str(wl12, "C", "mb_med_ms", " ms")))
        out.append("Expedited grace periods in the 15 s after boot end (workload 2): A %s, B %s, C %s, D %s; "
                   "IPIs they sent to the busy CPU: A %s, B %s, C %s, D %s. Idle 10 s after that: A %s, B %s." % (
                       med_str(wl12, "A", "win_exp"), med_str(wl12, "B", "win_exp"), med_str(wl12, "C", "win_exp"),
                       med_str(wl12, "D", "win_exp"), med_str(wl12, "A", "win_ipi"), med_str(wl12, "B", "win_ipi"),
                       med_str(wl12, "C", "win_ipi"), med_str(wl12, "D", "win_ipi"),
                       med_str(wl12, "A", "idle_exp"), med_str(wl12, "B", "idle_exp")))
    if wl3:
        out.append("write(2) of kernel.user_booted=1 (workload 3), median [95%% CI]: 0 subscribers %s, 1 %s, "
                   "100 %s; 100 with the serial console printing %s (a second write, no notification: %s)." % (
                       med_str(wl3, "0", "write_us", " us"), med_str(wl3, "1", "write_us", " us"),
                       med_str(wl3, "100", "write_us", " us"), med_str(wl3, "100c", "write_us", " us"),
                       med_str(wl3, "100", "write2_us", " us")))
    if wl4:
        out.append("Real systemd boot, userspace startup (workload 4): A %s, B %s; %s." % (
            med_str(wl4, "A", "startup_s", " s"), med_str(wl4, "B", "startup_s", " s"), w4_summary(wl4)))
    out.append("Guest under QEMU TCG (no KVM on this host) on a shared 2-CPU host: absolute times are "
               "emulation times, many times native; compare arms, not absolutes.")
    return out


def w4_summary(wl4):
    va, vb = values(wl4, "A", "startup_s"), values(wl4, "B", "startup_s")
    if not len(va) or not len(vb):
        return "no data"
    est, lo, hi = hl_ci(vb, va)
    return "B - A = %s s (95%% CI %s .. %s), medians %s vs %s s, Mann-Whitney p = %s, n = %d/%d" % (
        fmt(est), fmt(lo), fmt(hi), fmt(np.median(vb)), fmt(np.median(va)), fmt_p(mwu(vb, va)), len(vb), len(va))


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "parse":
        cmd_parse(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 3 and sys.argv[1] == "report":
        cmd_report(sys.argv[2])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
