#!/usr/bin/python3
"""What the report would buy on real hardware: a projection, not a
measurement (issue 25).

  project_hw.py [RESULTS_STACK_DIR]    -> RESULTS_STACK_DIR/projection.md
  project_hw.py --arms RESULTS_ARMS_DIR -> RESULTS_ARMS_DIR/projection.md
      the same projection from workload 14's counts (issue 49), read from
      its committed console logs with analyze_stack's parser

Counts come from workload 6's CSVs (bench/results-stack/): how many grace-
period waits boot mode turned expedited during userspace boot (the
kernel's own count in the reported arm, "waited for N RCU/SRCU grace
periods, M expedited"), and how many waits were on systemd's critical
chain per boot in each arm.  Counts do not depend on the accelerator as
the times do (an assumption: a faster machine may reorder units and move
waits on or off the chain).  Latencies of a normal and of an expedited
grace period on real machines come from published measurements, cited in
SOURCES; the projection multiplies one by the other and says so.
"""
import collections
import csv
import os
import statistics
import sys

import analyze_stack as S

HERE = os.path.dirname(os.path.abspath(__file__))
# Published latencies on real hardware, ms: (low, high, source keys).  The
# normal grace period's range is what Linux 7.3 has: Joel Fernandes' early
# quiescent-state report (mean 6.04 ms on 32 CPUs) and rcu_normal_wake_from_gp
# on by default (about 4 ms on 36 CPUs) are both in 7.3.4's kernel/rcu/tree.c,
# so the earlier 8.05-10.16 ms baseline no longer applies.  The expedited one
# spans the one source's two means: 0.151 ms with the expedited work in a
# real-time kthread_worker, 2.75 ms with it in SCHED_OTHER workqueues (7.3 runs
# it in a kthread_worker, at real-time priority only with CONFIG_RCU_EXP_KTHREAD,
# which needs RCU_BOOST and RCU_EXPERT); the same source's maximum with the
# kthread_worker is 2.33 ms.
NORMAL_MS = (4.0, 6.04, ("joel-wake", "joel-qs"))
EXPEDITED_MS = (0.151, 2.75, ("kalesh",))
# The previous version of this script (commit 4100c31 and before): kept to
# print what changed.
OLD_NORMAL_MS, OLD_EXPEDITED_MS = (4.0, 10.16), (0.151, 0.151)
# Callers that call synchronize_rcu_expedited() themselves: their waits are
# expedited in every arm, stock included, so boot mode saves nothing on them.
# namespace_unlock(): fs/namespace.c of 7.3.4 (line 1798 of the tree the
# Makefile unpacks into build/linux-7.3); in the committed traces its waits
# start with an outermost rcuexp_in, e.g. bench/results-knobs/logs/bench-knobs/
# logs/*-i262-android-1.log.xz: "rcuexp_in: comm=systemd
# stack=synchronize_rcu_expedited,namespace_unlock,path_umount,...".
DIRECT_EXPEDITED = ("namespace_unlock",)
SOURCES = {
    "joel-qs": "Joel Fernandes, \"rcu: Reduce synchronize_rcu() latency by reporting GP kthread's CPU QS early\", "
               "[PATCH -next 6/8], 1 January 2026, "
               "https://lore.kernel.org/r/20260101163417.1065705-7-joelagnelf@nvidia.com : 100 synchronize_rcu() "
               "calls with 32 CPUs, ten runs, 1000 HZ: mean latency 9.75 -> 6.04 ms (the runs' means 8.05-10.16 ms "
               "before, 6.01-6.08 ms after). The change is in Linux 7.3 (7.3.4's rcu_gp_init() ends with "
               "\"Immediately report QS for the GP kthread's CPU\"). Pinned to the lore message, not to a commit: "
               "the patch carries several commit ids in the RCU maintainers' rebased dev/next branches "
               "(e.g. bc3705e20988778791a4a5e9e2700fbc22cc942d, 168b3670254e707a2d8f46166aff34d70cd3652e in "
               "linux-next's logs of January 2026), and which of them reached mainline could not be established offline",
    "joel-wake": "Joel Fernandes, \"rcu: Fix synchronize_rcu latency by removing CPU threshold for "
                 "wake_from_gp\": synchronize_rcu() about 9.5 ms on a 36-CPU system without rcu_normal_wake_from_gp "
                 "(then off by default above 16 CPUs), about 4 ms with it. 7.3.4's kernel/rcu/tree.c has "
                 "\"static int rcu_normal_wake_from_gp = 1;\" (on by default on every system). **Unpinned**: the "
                 "patch was seen only as the head of the moving branch refs/heads/hp-per-task of "
                 "https://kernel.googlesource.com/pub/scm/linux/kernel/git/jfern/linux.git ; no lore message or "
                 "commit id for it was found offline, so the 4 ms cannot be checked against a fixed text",
    "kalesh": "Kalesh Singh, \"rcu: Move expedited grace period (GP) work to RT kthread_worker\", mainline commit "
              "9621fbee44df940e2e1b94b0676460a538dffefa (Linux 5.19); as posted in "
              "https://lore.kernel.org/r/20220419002014.3951121-2-paulmck@kernel.org : synchronize_rcu_expedited() "
              "on arm64 Android devices, Linux 5.10, traced in critical user-level code: mean 151,242 ns with the "
              "real-time kthread_worker, 2,746,353 ns with SCHED_OTHER workqueues; maximum 2,329,671 ns with the "
              "kthread_worker (372.8 ms with workqueues); medians 69,743 and 98,225 ns",
}
FAMILIES = {"i262": "sid, systemd 262, -icount", "s262": "sid, systemd 262, wall clock",
            "i252": "bookworm, systemd 252, -icount"}


def med(rows, arm, key):
    v = [float(r[key]) for r in rows if r["arm"] == arm and r.get(key, "") != ""]
    return statistics.median(v) if v else float("nan")


def per_boot(d, fam, arm, rows):
    """Per boot of one arm: waits on the critical chain, split into those of
    DIRECT_EXPEDITED callers and all others (boots with none count 0)."""
    n, x = collections.Counter(), collections.Counter()
    for r in csv.DictReader(open(os.path.join(d, "callers.csv"))):
        if r["family"] == fam and r["arm"] == arm:
            (x if r["caller"] in DIRECT_EXPEDITED else n)[r["seq"]] += int(r["critical_n"])
    seqs = [r["seq"] for r in rows if r["arm"] == arm]
    return [n[s] for s in seqs], [x[s] for s in seqs]


def project(n_exp, c_st, c_rp, normal, expedited):
    """(low, high) of the all-tasks and the critical-chain saving, ms: the
    low end pairs the slowest expedited with the fastest normal grace
    period, the high end the other way round."""
    save = (n_exp * (normal[0] - expedited[1]), n_exp * (normal[1] - expedited[0]))
    chain = (c_st * normal[0] - c_rp * expedited[1], c_st * normal[1] - c_rp * expedited[0])
    return save, chain


# Workload 14 (issue 49): only sources pinned to a fixed text.  The normal
# grace period: joel-qs's runs' means after its change (6.01-6.08 ms, 32
# CPUs, 1000 HZ, rcu_normal_wake_from_gp then off above 16 CPUs); the
# unpinned joel-wake figure (about 4 ms with it on, as 7.3 has it) is shown
# apart, as what would lower the low end.
ARMS_NORMAL_MS = (6.01, 6.08, ("joel-qs",))
ARMS_UNPINNED_NORMAL_MS = 4.0
# The expedited grace period: kalesh's mean with the expedited work at
# normal priority (SCHED_OTHER workqueues), as in this kernel's config and
# distributions' (CONFIG_RCU_EXP_KTHREAD needs RCU_BOOST, which they leave
# off); the real-time kthread_worker's 0.151 ms is shown apart.
ARMS_EXPEDITED_MS = (EXPEDITED_MS[1], EXPEDITED_MS[1])
ARMS_RT_EXPEDITED_MS = (EXPEDITED_MS[0], EXPEDITED_MS[0])
ARMS_FAMILIES = {"a262": "sid, systemd 262, -icount", "a252": "bookworm, systemd 252, -icount"}
# Waits boot mode changes: an outermost synchronize_rcu(), normal on stock
# and expedited in boot mode.  Left out: outermost _expedited() calls
# (expedited in every arm), rcu_barrier() (waits for callbacks) and
# synchronize_srcu(), which SRCU also expedites on its own when it looks
# idle, so how many of its waits boot mode changes is not known.
MODAL = ("rcu",)


def arms_counts(d, fam, arm):
    """Per boot of one arm: (the waits boot mode changes, those on the
    critical chain, whether the probe's sync_boot count agrees), from the
    committed console logs of the boots the CSV has."""
    logs = {r["seq"]: r["log"] for r in csv.DictReader(open(os.path.join(d, "runs.csv")))}
    out = []
    for r in csv.DictReader(open(os.path.join(d, fam + ".csv"))):
        if r["arm"] != arm:
            continue
        _, waits = S.parse_stack_log(os.path.join(d, logs[r["seq"]]))
        modal = [w for w in waits if w["fn"] in MODAL]
        out.append((len(modal), sum(w["critical"] for w in modal), int(r["sync_boot"]) == len(modal)))
    return out


def arms_main(d):
    L = ["# What the report would buy on real hardware, from workload 14's counts: a PROJECTION (issue 49)\n",
         "Generated by `bench/project_hw.py --arms` from this directory's CSVs and console logs and the "
         "published latencies below. **Not a measurement**: counts measured here under QEMU TCG times "
         "latencies measured by others on other machines. Medians over the boots of each arm.\n",
         "- Counted: grace-period waits in userspace boot (UserspaceTimestamp to FinishTimestamp) whose "
         "outermost call is `synchronize_rcu()`: normal grace periods on stock, expedited in the reported "
         "arm (boot mode; the probe's own count of them, `sync_boot`, is checked per boot). Not counted: "
         "outermost `synchronize_*_expedited()` calls (expedited on stock too: `namespace_unlock()` is one), "
         "`rcu_barrier()`, and `synchronize_srcu()` (fsnotify's, none on the critical chain here), which "
         "SRCU also expedites on its own when it looks idle, so how many of them boot mode changes is not "
         "known: leaving them out can only make the projection smaller. The critical "
         "chain's are those of PID 1 and of the units on `systemd-analyze critical-chain` while they "
         "activate (analyze_stack.parse_stack_log).",
         "- Projected saving, all tasks: the reported arm's count times (normal - expedited); on the "
         "critical chain: stock's count times a normal grace period minus the reported arm's count times "
         "an expedited one. The low end pairs the fastest normal with the slowest expedited grace period, "
         "the high end the other way round.",
         "- Normal grace period %.2f-%.2f ms (joel-qs: the runs' means after the early quiescent-state report, "
         "32 CPUs, HZ=1000; a -next posting, not a mainline commit); expedited %.2f ms (kalesh: the mean with "
         "the expedited work at normal priority, SCHED_OTHER workqueues). Both sources are pinned (below). "
         "Where this kernel differs: it runs the expedited work in a kthread_worker at normal priority "
         "(CONFIG_RCU_EXP_KTHREAD, which would make it real-time, needs RCU_BOOST: off here and in "
         "distributions' configs); with it, kalesh's mean is %.3f ms, shown apart as the high end. 7.3 also has "
         "`rcu_normal_wake_from_gp` on for every system, which one source puts at about %.0f ms a normal grace "
         "period on 36 CPUs; that source is not pinned, so it is shown apart as the low end. These guests and "
         "Debian's kernels run HZ=250, where a normal grace period's force-quiescent-state waits are whole "
         "4 ms jiffies: the sources' HZ=1000 figure may understate it." % (
             ARMS_NORMAL_MS[0], ARMS_NORMAL_MS[1], ARMS_EXPEDITED_MS[0], ARMS_RT_EXPEDITED_MS[0],
             ARMS_UNPINNED_NORMAL_MS),
         "- The cost, in counts (no latency is projected for it): the expedited grace periods and their IPIs "
         "(`exp_boot`, `ipi_boot`) the reported arm adds in userspace boot, from the CSVs. The IPIs are of 2 "
         "vCPUs, where an expedited grace period interrupts at most the other CPU; on N CPUs it can interrupt "
         "up to N - 1 (those not idle), so the IPI count does not carry to a larger machine: at most the "
         "expedited grace periods times N - 1.\n",
         "| family | synchronize_rcu() waits boot mode expedites, reported (count; boots where the probe's count agrees) | on the "
         "critical chain, stock / reported (count) | projected: all tasks | projected: critical chain | "
         "low end with a 4 ms normal GP (unpinned): all tasks; chain | high end with a real-time expedited kthread: "
         "all tasks; chain | measured here (-icount): all tasks' wait, stock - reported; chain | cost: expedited "
         "GPs; IPIs of 2 vCPUs, reported - stock (count) |",
         "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for fam, title in ARMS_FAMILIES.items():
        if not os.path.exists(os.path.join(d, fam + ".csv")):
            continue
        rows = list(csv.DictReader(open(os.path.join(d, fam + ".csv"))))
        st, rp = arms_counts(d, fam, "stock"), arms_counts(d, fam, "reported")
        n_exp = statistics.median([c[0] for c in rp])
        agree = "%d of %d" % (sum(c[2] for c in rp), len(rp))
        c_st = statistics.median([c[1] for c in st])
        c_rp = statistics.median([c[1] for c in rp])
        save, chain = project(n_exp, c_st, c_rp, ARMS_NORMAL_MS, ARMS_EXPEDITED_MS)
        u_save, u_chain = project(n_exp, c_st, c_rp, (ARMS_UNPINNED_NORMAL_MS,) * 2, ARMS_EXPEDITED_MS)
        r_save, r_chain = project(n_exp, c_st, c_rp, ARMS_NORMAL_MS, ARMS_RT_EXPEDITED_MS)
        L.append("| %s (%s) | %g (%s) | %g / %g | %.0f - %.0f ms | %.0f - %.0f ms | %.0f ms; %.0f ms | "
                 "%.0f ms; %.0f ms | %.0f ms; %.0f ms | +%g; +%g |" % (
                     fam, title, n_exp, agree, c_st, c_rp, save[0], save[1], chain[0], chain[1], u_save[0],
                     u_chain[0], r_save[1], r_chain[1],
                     med(rows, "stock", "gp_ms") - med(rows, "reported", "gp_ms"),
                     med(rows, "stock", "crit_gp_ms") - med(rows, "reported", "crit_gp_ms"),
                     med(rows, "reported", "exp_boot") - med(rows, "stock", "exp_boot"),
                     med(rows, "reported", "ipi_boot") - med(rows, "stock", "ipi_boot")))
    L += ["", "How to read it: on a machine like the sources', a userspace boot like these images' would spend "
          "about the projected time less inside grace-period waits; whether it ends sooner depends on the "
          "critical chain, and this study's boot time (report.md) showed no difference under TCG. The "
          "measured columns are guest instructions under -icount, where two vCPUs run one at a time and an "
          "expedited grace period costs far more than on hardware: they are not the projection's check. "
          "The sources differ from these guests and from each other in machine, kernel, load and HZ "
          "(these guests run HZ=250).", "", "## Sources", ""]
    L += ["- **%s**: %s" % (k, SOURCES[k]) for k in ("joel-qs", "kalesh")]
    L += ["- unpinned, not used for the ranges: **joel-wake**: " + SOURCES["joel-wake"]]
    open(os.path.join(d, "projection.md"), "w").write("\n".join(L) + "\n")
    print("\n".join(L))


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--arms":
        return arms_main(sys.argv[2])
    d = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "results-stack")
    L = ["# What the report would buy on real hardware: a PROJECTION (issue 25)\n",
         "Generated by `bench/project_hw.py` from this directory's CSVs and the published latencies "
         "below. **Not a measurement**: counts measured here under QEMU TCG times latencies "
         "measured by others on other machines. Medians over the 24 boots of each arm.\n",
         "Assumptions, each of which can make it wrong:",
         "- A wait the kernel counted as expedited in the reported arm (`rcu_waits_exp`) would have been a "
         "normal one on stock: an upper bound of the waits boot mode changed, since the count includes "
         "SRCU waits SRCU expedites on its own; every other wait costs the same in both arms. (The kernel's "
         "count leaves out direct `synchronize_rcu_expedited()` calls, which boot mode does not change.)",
         "- Not in the projection: the waits the reported arm no longer makes at all (the cgroup "
         "subscriber's; the table's last column), which would add to the saving.",
         "- On the critical chain: only waits whose caller is not a direct `_expedited` caller (here: %s) count. "
         "Such a caller calls "
         "`synchronize_rcu_expedited()` itself (fs/namespace.c; in the traces its outermost probe is "
         "`rcuexp_in`), so its waits are expedited on stock too and boot mode saves nothing on them. The "
         "remaining stock waits there are taken as normal ones and the reported arm's as expedited (still an "
         "upper bound: a remaining stock wait may be expedited by a caller further up)." % (
             ", ".join("`%s()`" % c for c in DIRECT_EXPEDITED)),
         "- The counts, and which waits are on the critical chain, are the same on hardware (a faster "
         "machine may reorder units). They come from the build and plugin of 1 December; on 2 December the "
         "same i262 reported arm made a median 58 grace-period waits in userspace boot "
         "(bench/results-knobs/i262.csv), not 70 (i262.csv here).",
         "- Normal grace period %.1f to %.2f ms, expedited %.3f to %.2f ms: the sources below. The normal range "
         "is what Linux 7.3 has (the early quiescent-state report and `rcu_normal_wake_from_gp` on by default "
         "are both in 7.3), measured on 32- and 36-CPU machines (the first at 1000 HZ, the second's HZ not given); the expedited range is the one "
         "source's mean with a real-time kthread_worker (%.3f ms) and with workqueues (%.2f ms), on arm64 "
         "Android devices with Linux 5.10; its maximum with the kthread_worker was 2.33 ms. 7.3 runs the "
         "expedited work in a kthread_worker, at real-time priority only with CONFIG_RCU_EXP_KTHREAD "
         "(which needs RCU_BOOST and RCU_EXPERT), so where in that range a given kernel falls is not known. "
         "The sources differ from ours and from each other in machine, kernel, load and HZ (this guest and "
         "Android's GKI use HZ=250, where a normal grace period's force-quiescent-state waits are whole "
         "jiffies: 7.95 ms per migration under -icount, bench/results-fork). Each range's low end pairs the "
         "fastest normal with the slowest expedited grace period, the high end the other way round.\n" % (
             NORMAL_MS[0], NORMAL_MS[1], EXPEDITED_MS[0], EXPEDITED_MS[1], EXPEDITED_MS[0], EXPEDITED_MS[1]),
         "| family | waits the kernel counted expedited, reported arm (count) | on the critical chain, stock / "
         "reported, all callers (count) | of which not from a direct `_expedited` caller, stock / reported "
         "(count) | projected: task time saved, all tasks | projected: critical chain saved | measured here "
         "(TCG): all tasks' wait, stock - reported | measured here: critical chain, stock - reported | waits no "
         "longer made (count, stock - reported) |",
         "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    old, below = [], []
    for fam, title in FAMILIES.items():
        p = os.path.join(d, fam + ".csv")
        if not os.path.exists(p):
            continue
        rows = list(csv.DictReader(open(p)))
        n_exp = med(rows, "reported", "rcu_waits_exp")
        st_n, st_x = per_boot(d, fam, "stock", rows)
        rp_n, rp_x = per_boot(d, fam, "reported", rows)
        c_st_all = statistics.median([a + b for a, b in zip(st_n, st_x)])
        c_rp_all = statistics.median([a + b for a, b in zip(rp_n, rp_x)])
        c_st, c_rp = statistics.median(st_n), statistics.median(rp_n)
        save, chain = project(n_exp, c_st, c_rp, NORMAL_MS, EXPEDITED_MS)
        m_save = med(rows, "stock", "gp_ms") - med(rows, "reported", "gp_ms")
        m_chain = med(rows, "stock", "crit_gp_ms") - med(rows, "reported", "crit_gp_ms")
        L.append("| %s (%s) | %.1f | %.1f / %.1f | %.1f / %.1f | %.0f - %.0f ms | %.0f - %.0f ms | %.0f ms | %.0f ms "
                 "| %.1f |" % (fam, title, n_exp, c_st_all, c_rp_all, c_st, c_rp, save[0], save[1], chain[0],
                               chain[1], m_save, m_chain,
                               med(rows, "stock", "gp_n") - med(rows, "reported", "gp_n")))
        # The previous version: every critical wait of stock normal, the old inputs.
        o_save, o_chain = project(n_exp, c_st_all, c_rp_all, OLD_NORMAL_MS, OLD_EXPEDITED_MS)
        _, f_chain = project(n_exp, c_st, c_rp, OLD_NORMAL_MS, OLD_EXPEDITED_MS)
        old.append("%s: all tasks %.0f - %.0f ms, critical chain %.0f - %.0f ms (%.0f - %.0f ms with the direct "
                   "`_expedited` callers left out)" % (fam, o_save[0], o_save[1], o_chain[0], o_chain[1],
                                                       f_chain[0], f_chain[1]))
        below.append(save[1] < m_save and chain[1] < m_chain)
    iboot = list(csv.DictReader(open(os.path.join(d, "iboot.csv"))))
    iso_a, iso_c = med(iboot, "A", "iso_med_ms"), med(iboot, "C", "iso_med_ms")
    L += ["", "How to read it: on a machine like the sources', a userspace boot like these images' would "
          "spend the projected time less inside grace-period waits; whether the boot ends sooner depends "
          "on the critical chain, and the measured column shows that under TCG the boot time did not "
          "follow (bench/results-stack/report.md: userspace boot time shorter in no family).", "",
          ("Every projected range, upper end included, lies below what TCG measured in its family, on all tasks "
           "and on the critical chain." if all(below) else
           "The projection is of the same order as what TCG measured: compare the columns.") +
          " The sources' normal grace period is %.1f to %.0f times their expedited one; here, under -icount, "
          "membarrier(GLOBAL) (one synchronize_rcu()) took a median %.2f ms normally and %.4f ms expedited (%.0f "
          "times; iboot.csv, arms A and C, medians over the boots of the per-boot medians). That ratio is an "
          "idle guest's, where an expedited grace period needs no IPI; during real boots under -icount the "
          "expedited waits cost far more (the cgroup-migration waits of the arm without the cgroup subscriber, "
          "expedited by boot mode: a median 93.9 ms summed over a median 19 waits per boot, about 4.9 ms each; "
          "bench/results-cgroup-net/callers.csv, caller cgroup_procs_write_start, arm rcu), so no ratio measured "
          "here says what hardware's is." % (
              NORMAL_MS[0] / EXPEDITED_MS[1], NORMAL_MS[1] / EXPEDITED_MS[0], iso_a, iso_c, iso_a / iso_c), "",
          "## What changed from the previous version", "",
          "The previous version (commit 4100c31 and before) counted every stock wait on the critical chain as a "
          "normal grace period, although the `namespace_unlock()` waits among them are expedited on stock "
          "too, and it used a normal grace period of %.1f-%.2f ms (the baseline before the early "
          "quiescent-state report, which 7.3 no longer has) and an expedited one of %.3f ms with no range. Its "
          "numbers, recomputed here from the same CSVs:" % (OLD_NORMAL_MS[0], OLD_NORMAL_MS[1],
                                                              OLD_EXPEDITED_MS[0]), ""] + \
        ["- " + o for o in old] + \
        ["", "Its source links pointed at moving `refs/heads/*` branches; they are now pinned to lore messages or "
         "a commit where one could be found, and marked unpinned where not.", "",
         "## Sources", ""] + ["- **%s**: %s" % kv for kv in SOURCES.items()]
    open(os.path.join(d, "projection.md"), "w").write("\n".join(L) + "\n")
    print("\n".join(L))


if __name__ == "__main__":
    main()
