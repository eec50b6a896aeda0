#!/usr/bin/python3
"""Analysis of the plugin studies, "WORKLOADS=7 make bench" (issue 26's
plugin, bench/prereg-plugin.json), "WORKLOADS=12 make bench" (the static
unit and its script, bench/prereg-plugin-static.json), "WORKLOADS=15
make bench" (the same, ordered last again: bench/prereg-plugin-cost.json)
and "WORKLOADS=20 make bench" (workload 15 with the RNG seeded and the
script's exec traced: bench/prereg-plugin-seeded.json): what the systemd
plugin costs the boot.  The pre-registration is the one setup.txt names
(its prereg_commit line), so --report reads the same file again.

  analyze_plugin.py WORKDIR OUTDIR
      console logs -> OUTDIR/{plugin,runs}.csv, setup.txt, report.md
  analyze_plugin.py --report OUTDIR
      the report again from the committed CSVs

Two arms on one kernel image and one systemd image per family (Debian sid,
systemd 262; bookworm, 252), under -icount: the plugin reporting, and the
same boot with user-booted.service masked.  Targets and tests are fixed in
the pre-registration; the statistics are analyze.py's, plus the paired
(by round) analysis the pre-registration makes primary.
"""
import csv
import json
import os
import re

import numpy as np

import analyze as A

PREREG_RE = re.compile(r"^prereg_commit: (bench/prereg-plugin[a-z-]*\.json):", re.M)
# Every family's title; a report shows its registration's families.
FAMILIES = {"c262": "Debian sid, systemd 262, -icount", "c252": "Debian bookworm, systemd 252, -icount",
            "p262": "Debian sid, systemd 262, -icount, the RNG seeded",
            "p252": "Debian bookworm, systemd 252, -icount, the RNG seeded"}
# Workload 20's: a boot counts only if the RNG was seeded before init launch.
SEEDED = ("p262", "p252")
ARMS = ("plugin", "masked")
METRICS = (("finish_after_default_s", "default.target -> FinishTimestamp"),
           ("startup_s", "UserspaceTimestamp -> FinishTimestamp (userspace boot)"))
# Issue 26's helper, as the kernel names the reporter (comm: 15 characters);
# a pre-registration's reporter_comm says otherwise.
HELPER_COMM = "user-booted-notify"[:15]
# Registrations whose commit is gone: setup.txt names a commit that no
# longer exists, so "fixed before the data" cannot be checked for them.
LOST_REGISTRATION = {
    "bench/prereg-plugin-static.json": "the registration commit setup.txt names (8282f7c, 12:59:40 UTC, before "
    "the first boot at 13:01) was lost with its session's checkout; the file was committed again in 7b6fa8e, "
    "after the data, so that its targets preceded the data cannot be checked",
}


def prereg_of(out):
    """The pre-registration setup.txt names, and its path as named there."""
    m = PREREG_RE.search(open(os.path.join(out, "setup.txt")).read())
    name = m[1] if m else "bench/prereg-plugin.json"
    return json.load(open(os.path.join(A.HERE, os.path.basename(name)))), name
FIELDS = ["seq", "round", "family", "arm", "startup_s", "default_target_s", "finish_after_default_s",
          "end_reason", "end_by", "report_lag_s", "report_lag_window_ms", "wall_s", "log"]
# Workload 20's columns, written only where a row has them (the earlier
# studies' CSVs keep theirs): the script's exec against FinishTimestamp,
# and the kernel's timestamps of the RNG's seeding and of init's launch.
SEEDED_FIELDS = ["script_exec_s", "crng_s", "init_s"]
SYNC_RE = re.compile(r"^sync\.(\d+)=(\d+) (\d+)$")
EXEC_RE = re.compile(r"^exec=([0-9.]+) \d+ \S*user-booted-report$")
MARK_RE = re.compile(r"^dmesg=\[ *([0-9.]+)\] user-booted-e2e: clock sync (\d+)$")


def parse_log(path):
    """One boot: systemd's timestamps, how boot ended, and when relative to
    FinishTimestamp (the probe's clock-sync markers tie printk's clock to
    CLOCK_MONOTONIC; the narrowest window wins, its midpoint is the value)."""
    row = A.parse_systemd_log(path)
    sync, mark, end_ts = {}, {}, None
    for line in A.console_lines(path):
        if "E2E| " not in line:
            m = A.END_RE.search(line)
            if m and end_ts is None:
                end_ts = float(m[1])
            continue
        body = line.split("E2E| ", 1)[1]
        if body.startswith("default.target.ActiveEnterTimestampMonotonic="):
            v = body.split("=", 1)[1]
            if v.isdigit() and int(v) > 0:
                row["DefaultTargetMonotonic"] = int(v)
        elif SYNC_RE.match(body):
            m = SYNC_RE.match(body)
            sync[m[1]] = (int(m[2]), int(m[3]))
        elif MARK_RE.match(body):
            m = MARK_RE.match(body)
            mark[m[2]] = float(m[1])
        elif EXEC_RE.match(body) and "script_exec_ts" not in row:
            row["script_exec_ts"] = float(EXEC_RE.match(body)[1])
        elif end_ts is None and A.END_RE.search(body):
            end_ts = float(A.END_RE.search(body)[1])
    # A boot that never finished starting up shows FinishTimestamp 0.
    if all(row.get(k, 0) > 0 for k in ("DefaultTargetMonotonic", "UserspaceTimestampMonotonic",
                                       "FinishTimestampMonotonic")):
        row["default_target_s"] = (row["DefaultTargetMonotonic"] - row["UserspaceTimestampMonotonic"]) / 1e6
        row["finish_after_default_s"] = (row["FinishTimestampMonotonic"] - row["DefaultTargetMonotonic"]) / 1e6
    else:
        row.pop("startup_s", None)
    both = [i for i in mark if i in sync]
    if both and end_ts is not None and "finish_after_default_s" in row:
        i = min(both, key=lambda i: sync[i][1] - sync[i][0])
        lo = end_ts - mark[i] + sync[i][0] / 1e9 - row["FinishTimestampMonotonic"] / 1e6
        hi = end_ts - mark[i] + sync[i][1] / 1e9 - row["FinishTimestampMonotonic"] / 1e6
        row["report_lag_s"] = round((lo + hi) / 2, 4)
        row["report_lag_window_ms"] = round((hi - lo) * 1e3, 3)
    # The exec trace's clock is CLOCK_MONOTONIC, as FinishTimestamp's:
    # below 0, the script ran inside startup.
    if "script_exec_ts" in row and "finish_after_default_s" in row:
        row["script_exec_s"] = round(row["script_exec_ts"] - row["FinishTimestampMonotonic"] / 1e6, 6)
    return row


def boot_row(r, family, arm, p):
    """A boot's CSV row: runs.csv's line r and its parsed log p."""
    return {"seq": r["seq"], "round": r["round"], "family": family, "arm": arm,
            "startup_s": round(p["startup_s"], 6), "default_target_s": round(p["default_target_s"], 6),
            "finish_after_default_s": round(p["finish_after_default_s"], 6),
            "end_reason": p.get("end_reason", ""), "end_by": p.get("end_by", ""),
            "report_lag_s": p.get("report_lag_s", ""), "report_lag_window_ms": p.get("report_lag_window_ms", ""),
            "wall_s": r["wall_s"], "log": r["log"], **{k: p[k] for k in SEEDED_FIELDS if k in p}}


def cmd_parse(work, out):
    os.makedirs(out, exist_ok=True)
    runs = list(csv.DictReader(open(os.path.join(work, "runs.csv"))))
    rows = []
    for r in runs:
        family, arm = r["kind"].split(":")
        if r["status"] != "ok" or family not in FAMILIES:
            continue
        p = parse_log(os.path.join(work, r["log"]))
        if "finish_after_default_s" not in p:
            r["status"] = "unparsed"
            continue
        if family in SEEDED:
            crng, init = A.crng_and_init(os.path.join(work, r["log"]))
            if crng is None or init is None or crng >= init:
                r["status"] = "unseeded"
                continue
            p.update(crng_s=crng, init_s=init)
        rows.append(boot_row(r, family, arm, p))
    for row in rows:  # where the log is committed, relative to OUT
        row["log"] = A.committed_log(work, out, row["log"])
    A.write_csv(os.path.join(out, "plugin.csv"), rows,
                FIELDS + [k for k in SEEDED_FIELDS if any(k in row for row in rows)])
    A.keep_runs(work, out, runs)


def paired(rows, family, metric):
    """d = plugin - masked per round where both arms have a boot."""
    by = {}
    for r in rows:
        if r["family"] == family and r["round"] != "extra":
            by.setdefault(r["round"], {})[r["arm"]] = float(r[metric])
    rounds = sorted((k for k, v in by.items() if len(v) == 2), key=int)
    return rounds, np.array([by[k]["plugin"] - by[k]["masked"] for k in rounds])


def ci_str(lo, hi, cover):
    return "%.4f - %.4f s (%s)" % (lo, hi, cov(cover)) if lo == lo else "none: too few boots"


def cov(cover):
    return "%.1f%%" % (cover * 100) if cover == cover else "n/a"


def short(n, registered):
    return "" if n >= registered else " [%d of the registered %d: not a result]" % (n, registered)


def ms(v):
    return "%+.1f ms" % (v * 1e3) if v == v else "n/a"


def reading(tid, test, bound, d, med, lo, hi, hl, sig):
    """Lines that say what a paired verdict rests on: a LOSES's spread of
    paired differences, a MET on the median alone where the CI is several
    times the bound, a NOT MET where the unpaired estimate is within it."""
    out = []
    if sig == "LOSES" and len(d):
        srt = np.sort(d)
        out.append("- %s LOSES (plugin slower in %d of %d rounds, median d %s), and the paired differences run "
                   "from %s to %s: the two largest %s and %s, the next %s. The median does not bound what a "
                   "single boot can cost." % (
                       tid, int(np.sum(d > 0)), len(d), ms(med), ms(srt[0]), ms(srt[-1]), ms(srt[-1]), ms(srt[-2]),
                       ms(srt[-3])))
    if test == "equivalence" and bound:
        far = max(abs(lo), abs(hi))
        met, equiv = abs(med) <= bound, -bound <= lo and hi <= bound
        if met and not equiv and far > bound:
            out.append("- %s is MET on the median alone: its CI (%s to %s) reaches %.1f times the +-%.1f s bound. "
                       "That is no evidence that the plugin costs less than the bound; only EQUIVALENT (the whole "
                       "CI within it) would be." % (
                           tid, ms(lo), ms(hi), far / bound, bound))
        elif not met and abs(hl) <= bound:
            out.append("- %s is NOT MET on the same weak point: the paired median d is %s, but the unpaired "
                       "Hodges-Lehmann difference only %s, within the +-%.1f s bound, and the CI (%s to %s) spans "
                       "both. It shows neither a cost nor its absence." % (tid, ms(med), ms(hl), bound, ms(lo),
                                                                          ms(hi)))
    return out


def cmd_report(out):
    pre, prereg_name = prereg_of(out)
    alpha = pre["alpha"]
    bound_of = {t["id"]: t.get("bound") for t in pre["targets"]}
    test_of = {t["id"]: t["test"] for t in pre["targets"]}
    comm = pre.get("reporter_comm", HELPER_COMM)
    families = {f: FAMILIES[f] for f in pre["families"]}
    rows = list(csv.DictReader(open(os.path.join(out, "plugin.csv"))))
    runs = list(csv.DictReader(open(os.path.join(out, "runs.csv"))))
    L = []
    w = L.append
    w("# %s\n" % pre.get("title", "What the systemd plugin costs the boot (issue 26)"))
    if prereg_name in LOST_REGISTRATION:
        where = "targets and tests in `%s` (unverified: %s)" % (prereg_name, LOST_REGISTRATION[prereg_name])
    else:
        where = "targets and tests fixed before the data in `%s` (commit in `setup.txt`)" % prereg_name
    w("Generated by `bench/analyze_plugin.py` from `plugin.csv` (one row per boot) and `runs.csv`; "
      "%s. Console logs: `logs/` (xz). Setup in full at the end.\n" % where)
    w("Arms: **plugin** (%s) and **masked** (%s). The generator runs in both "
      "arms, so its own cost is in neither difference: this measures the service. Same kernel image, same "
      "systemd image, same kernel mode during startup (boot mode in both). Under `-icount` "
      "the guest's clock counts executed instructions: the numbers are "
      "guest time, not host time, and host load does not change them. Rounds share the RTC base "
      "across arms, so each round gives one paired difference d = plugin - masked.\n" % (
          pre["arms"]["plugin"], pre["arms"]["masked"]))
    # Paired tests first, for Holm over all of them.
    tests, ps = {}, {}
    for fam in families:
        for metric, _ in METRICS:
            rounds, d = paired(rows, fam, metric)
            tests[(fam, metric)] = (rounds, d)
            ps[(fam, metric)] = A.wilcoxon_p(d)
    adj = A.holm(ps)
    n_reg = pre["boots_per_arm"]
    verdicts, readings = [], []
    for fam, title in families.items():
        fr = [r for r in rows if r["family"] == fam]
        w("## %s\n" % title)
        if not fr:
            w("No boots.\n")
            continue
        w("| metric | arm | n | median | CI (its coverage) |")
        w("| --- | --- | --- | --- | --- |")
        for metric, label in METRICS:
            for arm in ARMS:
                x = [float(r[metric]) for r in fr if r["arm"] == arm]
                if not x:
                    continue
                med, lo, hi, cover = A.median_ci(x)
                w("| %s | %s | %d | %.4f s | %s |" % (label, arm, len(x), med, ci_str(lo, hi, cover)))
        w("")
        w("Paired by round (d = plugin - masked), Wilcoxon signed-rank, Holm over the four paired tests; "
          "unpaired Hodges-Lehmann difference with the Moses CI and Mann-Whitney as a check:\n")
        w("| metric | rounds | median d | CI of median d (coverage) | plugin slower in | p | p (Holm) | HL difference (Moses 95% CI) | MWU p | target |")
        w("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
        for metric, label in METRICS:
            rounds, d = tests[(fam, metric)]
            if len(d) == 0:
                w("| %s | 0 | | | | | | | | |" % label)
                continue
            med, lo, hi, cover = A.median_ci(d)
            x = [float(r[metric]) for r in fr if r["arm"] == "plugin"]
            y = [float(r[metric]) for r in fr if r["arm"] == "masked"]
            hl, hlo, hhi = A.hl_ci(x, y)
            tid = "%s-%s" % (fam.upper(), "FINISH" if metric == "finish_after_default_s" else "STARTUP")
            p_adj = adj.get((fam, metric), float("nan"))
            sig = "LOSES" if p_adj < alpha and med > 0 else "BEATS" if p_adj < alpha and med < 0 else \
                "no difference shown"
            if test_of[tid] == "direction":
                verdict = "%s: %s%s" % (tid, sig, short(len(d), n_reg))
            elif test_of[tid] == "noninferior":
                # The plugin costs less than the bound: the CI's upper end
                # below it (workload 15's C252-FINISH).
                b = bound_of[tid]
                verdict = "%s: %s (upper end of the CI %s, bound %s); %s%s" % (
                    tid, "MET" if hi == hi and hi < b else "NOT MET", ms(hi), ms(b), sig, short(len(d), n_reg))
            else:
                b = bound_of[tid]
                met = abs(med) <= b
                equiv = lo == lo and -b <= lo and hi <= b
                verdict = "%s: %s%s; %s%s" % (tid, "MET" if met else "NOT MET", " (EQUIVALENT)" if equiv else "",
                                              sig, short(len(d), n_reg))
            readings.extend(reading(tid, test_of[tid], bound_of[tid], d, med, lo, hi, hl, sig))
            verdicts.append((tid, "%s: median d %s (CI %s to %s; plugin slower in %d of %d rounds, Holm p %s)" % (
                verdict, ms(med), ms(lo), ms(hi), int(np.sum(d > 0)), len(d), A.fmt_p(p_adj))))
            w("| %s | %d | %s | %s to %s (%s) | %d of %d | %s | %s | %s (%s to %s) | %s | %s |" % (
                label, len(d), ms(med), ms(lo), ms(hi), cov(cover), int(np.sum(d > 0)), len(d),
                A.fmt_p(ps[(fam, metric)]), A.fmt_p(p_adj), ms(hl), ms(hlo), ms(hhi), A.fmt_p(A.mwu(x, y)), verdict))
        w("")
        pl = [r for r in fr if r["arm"] == "plugin"]
        lags = [float(r["report_lag_s"]) for r in pl if r["report_lag_s"] != ""]
        reasons = sorted({"%s by %s" % (r["end_reason"] or "?", r["end_by"] or "?") for r in pl})
        tid = "%s-LAG" % fam.upper()
        bound = bound_of[tid]
        # "after FinishTimestamp": also not provably before it (the whole
        # clock-sync window below it).
        bad = [r for r in pl if r["end_reason"] != "reported" or r["end_by"] != comm or
               r["report_lag_s"] == "" or float(r["report_lag_s"]) > bound or
               float(r["report_lag_s"]) + float(r["report_lag_window_ms"] or 0) / 2e3 < 0]
        if lags:
            med, lo, hi, cover = A.median_ci(lags)
            w("Plugin arm, when the kernel's boot ended after FinishTimestamp: median %.3f s (CI %s), min %.3f s, "
              "max %.3f s, n=%d; ended: %s. Masked arm ended: %s.\n" % (
                  med, ci_str(lo, hi, cover), min(lags), max(lags), len(lags), "; ".join(reasons),
                  "; ".join(sorted({r["end_reason"] or "not before the probe ran" for r in fr
                                    if r["arm"] == "masked"}))))
        verdicts.append((tid, "%s: %s%s: %d of %d plugin boots ended 'reported' by %s within %.1f s of "
                         "FinishTimestamp%s" % (
                             tid, "MET" if pl and not bad else "NOT MET", short(len(pl), n_reg),
                             len(pl) - len(bad), len(pl), comm, bound,
                             "; max %.3f s" % max(lags) if lags else "")))
        # Workload 20: the lag where the script's exec came at or after
        # FinishTimestamp (the job forked at startup's end), not before it.
        tid = "%s-LAG-AFTER" % fam.upper()
        if tid in test_of:
            bound = bound_of[tid]
            timed = [r for r in pl if r.get("script_exec_s", "") != ""]
            after = [r for r in timed if float(r["script_exec_s"]) >= 0]
            bad = [r for r in after if r["end_reason"] != "reported" or r["end_by"] != comm or
                   r["report_lag_s"] == "" or float(r["report_lag_s"]) > bound]
            lags = [float(r["report_lag_s"]) for r in after if r["report_lag_s"] != ""]
            w("Plugin arm, the script's exec against FinishTimestamp: at or after it in %d of %d boots with the "
              "exec traced (%d plugin boots)%s.\n" % (
                  len(after), len(timed), len(pl),
                  "; its median %.3f s, range %.3f to %.3f s" % (
                      float(np.median([float(r["script_exec_s"]) for r in timed])),
                      min(float(r["script_exec_s"]) for r in timed), max(float(r["script_exec_s"]) for r in timed))
                  if timed else ""))
            verdicts.append((tid, "%s: %s%s: %d of %d plugin boots whose script's exec came at or after "
                             "FinishTimestamp ended 'reported' by %s within %.1f s of it%s" % (
                                 tid, "MET" if after and not bad else "NOT MET", short(len(pl), n_reg),
                                 len(after) - len(bad), len(after), comm, bound,
                                 "; median %.3f s, max %.3f s" % (float(np.median(lags)), max(lags)) if lags else "")))
    w("## Targets\n")
    for t in pre["targets"]:
        v = [x[1] for x in verdicts if x[0] == t["id"]]
        w("- %s  \n  registered: %s" % (v[0] if v else "%s: no data" % t["id"], t["text"]))
    w("")
    if readings:
        w("## Reading the verdicts (not registered)\n")
        w("The verdicts above are the registered rule's, unchanged. What they do not say by themselves "
          "(the audit of 2 December, section 3, items 3 and 6):\n")
        L.extend(readings)
        w("")
    # The verdicts first, where a reader starts.
    top = L.index("## %s\n" % next(iter(families.values()))) if ("## %s\n" % next(iter(families.values()))) in L \
        else len(L)
    L[top:top] = A.summary_lines([x[1] for x in verdicts])
    w("## Boots\n")
    for kind in sorted({r["kind"] for r in runs}):
        rs = [r for r in runs if r["kind"] == kind]
        bad = [r for r in rs if r["status"] != "ok"]
        w("- %s: %d boots, %d ok%s" % (kind, len(rs), len(rs) - len(bad),
                                       "; not used: " + ", ".join("%s (%s)" % (r["seq"], r["status"]) for r in bad)
                                       if bad else ""))
    for fam in families:
        for metric, _ in METRICS[:1]:
            rounds, _ = tests[(fam, metric)]
            allr = sorted({r["round"] for r in rows if r["family"] == fam and r["round"] != "extra"}, key=int)
            miss = [k for k in allr if k not in rounds]
            if miss:
                w("- %s: rounds without both arms (left out of the paired analysis): %s" % (fam, ", ".join(miss)))
    w("")
    A.finish_report(out, L, [x[1] for x in verdicts])


if __name__ == "__main__":
    A.analyzer_main(__doc__, cmd_parse, cmd_report)
