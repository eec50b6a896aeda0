#!/usr/bin/python3
"""Independent recomputation of a registered bench study: unpaired (workloads 14, 16-19) or
paired by round (workloads 15, 20).

    recompute.py PREREG.json LOGDIR OUTDIR [--compare RESULTSDIR]

Reads LOGDIR/runs.csv and each ok boot's console log (LOGDIR/logs/*.log[.xz]), derives
every per-boot metric from the probe's printed lines (systemd-plugin/tests/e2e/
user-booted-e2e) and the registrations' definitions, applies the registered
exclusions, computes every registered target, and writes OUTDIR/perboot.csv,
OUTDIR/targets.csv, OUTDIR/report.md (and OUTDIR/callers.csv for stacked families).
Shares no code with bench/analyze*.py; standard library only.  See README.md next to this file.
"""
import argparse, csv, json, lzma, math, os, re, statistics, sys

WINDOWS = ('quiet', 'churn', 'migrate')     # opened by marks; each closes at the next mark


# ---------------------------------------------------------------- the console log

def us(sec):
    """'12.345678' (trace_clock=mono seconds) -> integer microseconds, systemd's unit."""
    a, _, b = sec.partition('.')
    return int(a) * 1000000 + int((b + '000000')[:6])


def span_us(s):
    """systemd-analyze's '1min 2.345s', '57ms', '99us' -> microseconds."""
    total = 0.0
    for num, unit in re.findall(r'([\d.]+)(min|ms|us|s|h)', s):
        total += float(num) * {'h': 3.6e9, 'min': 6e7, 's': 1e6, 'ms': 1e3, 'us': 1.0}[unit]
    return round(total)


def read_log(path):
    if not os.path.exists(path) and os.path.exists(path + '.xz'):
        path += '.xz'
    opener = lzma.open if path.endswith('.xz') else open
    with opener(path, 'rt', errors='replace') as f:
        return f.read().splitlines()


def parse_log(lines):
    """The probe's lines, raw: key=value, gp=, cg=, ev=, lz=, chain=; the kernel's stamps."""
    L = {'kv': {}, 'gp': [], 'cg': [], 'ev': [], 'lz': [], 'chain': [], 'exec': [], 'dmesg': [],
         'verdict': None, 'crng_s': None, 'init_s': None}
    for line in lines:
        line = line.rstrip('\r')
        if line.startswith('UB-VERDICT: '):
            L['verdict'] = line.split(': ', 1)[1].strip()
        # A getty on the same console may put its escape sequences in front of a probe line.
        at = line.find('E2E| ')
        if at > 0:
            line = line[at:]
        if not line.startswith('E2E| '):
            # The kernel's own printk stamps (console), first occurrence of each.
            m = re.search(r'\[\s*(\d+\.\d+)\] random: crng init done', line)
            if m and L['crng_s'] is None:
                L['crng_s'] = float(m.group(1))
            m = re.search(r'\[\s*(\d+\.\d+)\] Run \S+ as init process', line)
            if m and L['init_s'] is None:
                L['init_s'] = float(m.group(1))
            continue
        body = line[5:]
        key, _, val = body.partition('=')
        if key == 'gp':                       # gp=PID SECONDS EVENT: comm=COMM [stack=F1,F2,...]
            p = val.split()
            more = dict(x.split('=', 1) for x in p[3:] if '=' in x)
            stack = more['stack'].split(',') if 'stack' in more else None
            L['gp'].append((int(p[0]), us(p[1]), p[2].rstrip(':'), more.get('comm', ''), stack))
        elif key == 'cg':                     # cg=PID SECONDS PATH
            pid, ts, path = val.split(None, 2)
            L['cg'].append((int(pid), us(ts), path.strip()))
        elif key == 'ev':                     # ev=KIND SECONDS [MORE]
            p = val.split()
            L['ev'].append((p[0], us(p[1]), p[2] if len(p) > 2 else ''))
        elif key == 'lz':                     # lz=MS FUNC
            L['lz'].append(float(val.split()[0]))
        elif key == 'chain':
            L['chain'].append(val)
        elif key == 'exec':                   # exec=SECONDS PID FILENAME
            ts, pid, path = val.split(None, 2)
            L['exec'].append((us(ts), int(pid), path.strip()))
        elif key == 'dmesg':                  # the kernel log, as dmesg printed it at the end
            L['dmesg'].append(val)
        elif key.startswith('lazy.'):         # lazy.queued=N lazy.never_invoked=N ...
            for kv in body.split():
                k, _, v = kv.partition('=')
                L['kv'][k] = v
        else:
            L['kv'].setdefault(key, val.strip())
    return L


def outermost_waits(gp):
    """Pair each task's *_in/*_out (LIFO per PID) and keep the outermost calls:
    [(pid, start_us, end_us, kind, expedited_inside, comm, stack)], and the number of unpaired
    events; comm and stack are the outermost entry's (stack None where none was printed)."""
    stacks, waits, unpaired = {}, [], 0
    for pid, t, ev, comm, frames in gp:
        kind, _, io = ev.rpartition('_')
        st = stacks.setdefault(pid, [])
        if io == 'in':
            st.append([kind, t, False, comm, frames])
        elif st and st[-1][0] == kind:
            k, t0, inner, c, f = st.pop()
            if st:                            # nested: mark the caller (synchronize_rcu -> _expedited)
                st[-1][2] = st[-1][2] or kind == 'rcuexp'
            else:
                waits.append((pid, t0, t, k, inner, c, f))
        else:
            unpaired += 1
    unpaired += sum(len(s) for s in stacks.values())
    return waits, unpaired


# Workload 6's caller rule (prereg-stack.json, amendment 3; results-stack/report.md, "Caller
# attribution"): the frame after the last wait frame among a stack's first six.  The wait frames
# are the five traced waits and, from the report's example, rcu_sync_enter and percpu_down_write.
WAIT_FRAMES = {'synchronize_rcu', 'synchronize_rcu_expedited', 'synchronize_srcu',
               'synchronize_srcu_expedited', 'rcu_barrier', 'rcu_sync_enter', 'percpu_down_write'}


def caller(stack):
    """The wait's caller from its entry's stack; '?' where the stack was not printed (lost)."""
    if not stack:
        return '?'
    last = max([0] + [i for i, f in enumerate(stack[:6]) if f in WAIT_FRAMES])
    return stack[last + 1] if last + 1 < len(stack) else '?'


def task_class(pid, comm, kthreads):
    """Workload 6's task classes (results-stack/report.md, "Who waits"), from the wait's comm:
    PID 1; kernel threads (a stack of the task runs through kthread()); udev (udevd and its
    workers: systemd-udevd, (udev-worker)); spawned by PID 1, before exec (systemd names a child
    "(NAME)" until it execs); other processes (the rest: processes after their exec)."""
    if pid == 1:
        return 'PID 1'
    if pid in kthreads:
        return 'kernel threads'
    if comm in ('systemd-udevd', '(udev-worker)'):
        return 'udev'
    if comm.startswith('('):
        return 'spawned by PID 1, before exec'
    return 'other processes'


def chain_units(chain, userspace):
    """systemd-analyze critical-chain entries with an activation time: (unit, from_us, to_us),
    the unit's window @ .. @ + (relative to UserspaceTimestamp, as the tool prints it)."""
    units = []
    for line in chain:
        m = re.search(r'([^\s└─│├]+) @(\S+(?: \d\S*s)?) \+(\S+)\s*$', line)
        if m:
            a = userspace + span_us(m.group(2))
            units.append((m.group(1), a, a + span_us(m.group(3))))
    return units


def metrics(L):
    """Every per-boot value, from the parsed log."""
    kv, M = L['kv'], {}
    U, F = int(kv['UserspaceTimestampMonotonic']), int(kv['FinishTimestampMonotonic'])
    M['startup_s'] = (F - U) / 1e6
    D = int(kv.get('default.target.ActiveEnterTimestampMonotonic') or 0)
    if D:   # systemd-analyze's "reached after": milliseconds, truncated
        M['default_target_s'] = (D - U) // 1000 / 1000
        M['finish_after_default_s'] = round(M['startup_s'] - M['default_target_s'], 3)
    for k in ('ev_lost', 'gp_lost', 'lazy_lost'):
        if k in kv:
            M[k] = int(kv[k])
    M['crng_s'], M['init_s'] = L['crng_s'], L['init_s']

    # Grace-period waits: outermost per task, counted if they start in the window.
    waits, M['gp_events_unpaired'] = outermost_waits(L['gp'])
    boot = [w for w in waits if U <= w[1] <= F]
    M['gp_n'] = len(boot)
    M['gp_ms'] = sum(w[2] - w[1] for w in boot) / 1000
    M['pid1_gp_ms'] = sum(w[2] - w[1] for w in boot if w[0] == 1) / 1000
    M['modal_gp_ms'] = sum(w[2] - w[1] for w in boot if not w[3].endswith('exp')) / 1000
    # Critical chain: PID 1's waits, and those of a chain unit's tasks while that unit was
    # activating (the wait starts in its @ .. @ + window).  A task is the unit's if one of its
    # cg= moves went into the unit's cgroup or one below it (udevd: .../systemd-udevd.service/udev);
    # the move comes right after the wait when the wait is the move's own (cgroup_procs_write).
    units = chain_units(L['chain'], U)
    M['chain_units'] = len(units)
    crit = 0
    for pid, t0, t1 in (w[:3] for w in boot):
        mine = {c for (q, t, p) in L['cg'] if q == pid for c in p.split('/')}
        if pid == 1 or any(u in mine and a <= t0 <= b for u, a, b in units):
            crit += t1 - t0
    M['crit_gp_ms'] = crit / 1000

    # Callers and task classes (stacked families: workloads 6, 19).  nsu_*: the waits whose
    # caller is namespace_unlock() (workload 19), in the boot window as gp_n.
    stacked = any(g[4] for g in L['gp'])
    kthreads = {g[0] for g in L['gp'] if g[4] and 'kthread' in g[4]}
    M['unknown_caller_ms'] = sum(w[2] - w[1] for w in boot if caller(w[6]) == '?') / 1000
    M['callers'] = {}
    if stacked:
        M['proc_gp_ms'] = sum(w[2] - w[1] for w in boot if w[0] not in kthreads) / 1000
        for w in boot:
            c = M['callers'].setdefault((caller(w[6]), task_class(w[0], w[5], kthreads)), [0, 0, 0])
            c[0] += 1
            c[1] += w[2] - w[1]
        nsu = [w for w in boot if caller(w[6]) == 'namespace_unlock']
        M['nsu_n'] = len(nsu)
        M['nsu_ms'] = sum(w[2] - w[1] for w in nsu) / 1000
        M['nsu_other_ms'] = sum(w[2] - w[1] for w in nsu
                                if task_class(w[0], w[5], kthreads) == 'other processes') / 1000
        M['nsu_call_ms'] = median([(w[2] - w[1]) / 1000 for w in nsu]) if nsu else None

    # Raw events per window: boot [U, F], the gap (F, end of boot mode], the marks' windows
    # [mark, next mark).  Waits belong to the window their outermost call starts in.
    ev = L['ev']
    marks = {m: t for k, t, m in ev if k == 'mark'}

    def count(kind, a, b):
        return sum(1 for k, t, _ in ev if k == kind and a <= t < b)

    def synced(a, b):   # outermost synchronize_rcu() waits that ran an expedited one
        return sum(1 for w in waits if a <= w[1] < b and w[3] == 'rcu' and w[4])

    M['windows'] = False
    if ev:       # the ev= lines of the families with bench.w14= (workloads 14, 16-18)
        # CPU wake-ups (ev=wake) are counted only where the boot traced them (workload 18's
        # power:cpu_idle): its command line says so, or the log has such lines.
        wake = 'power:cpu_idle' in kv.get('cmdline', '') or any(k == 'wake' for k, t, m in ev)
        kinds = ('exp', 'gp', 'ipi', 'wake') if wake else ('exp', 'gp', 'ipi')
        for k in kinds:
            M[k + '_boot'] = count(k, U, F + 1)
        M['sync_boot'] = synced(U, F + 1)
        M['ipi_per_exp'] = M['ipi_boot'] / M['exp_boot'] if M['exp_boot'] else None
        # End of boot mode after startup: the kernel's end event, or the finish unit's mark.
        ends = [t for k, t, m in ev if (k == 'end' or (k == 'mark' and m == 'finish-cleared')) and t > U]
        if ends:
            E = max(ends)
            M['lag_s'] = (E - F) / 1e6
            for k in kinds:
                M[k + '_gap'] = count(k, F + 1, E + 1)
        order = ['quiet', 'churn', 'migrate', 'end']
        M['windows'] = all(m in marks for m in ['warmup'] + order)
        for i, w in enumerate(WINDOWS):
            if not M['windows']:
                break
            a, b = marks[w], marks[order[i + 1]]
            p = w[0] + '_'
            M[p + 's'] = (b - a) / 1e6
            for k in kinds + ('cb',):
                M[p + k] = count(k, a, b)
            M[p + 'sync'] = synced(a, b)
            M[p + 'wait_ms'] = sum(w2[2] - w2[1] for w2 in waits if a <= w2[1] < b) / 1000
            M[p + 'cb_per_gp'] = M[p + 'cb'] / M[p + 'gp'] if M[p + 'gp'] else None

    # Lazy callbacks (rcu_nocbs=all families): the waits the guest paired.
    if L['lz']:
        z = sorted(L['lz'])
        M['lz_n'] = len(z)
        M['lz_med_ms'] = statistics.median(z)
        pos = 0.9 * (len(z) - 1)                  # linear interpolation between order statistics
        lo = math.floor(pos)
        M['lz_p90_ms'] = z[lo] + (z[min(lo + 1, len(z) - 1)] - z[lo]) * (pos - lo)
        M['lz_max_ms'] = z[-1]
    end = kernel_end(L)
    M['end_reason'], M['end_by'] = (end[1], end[2]) if end else (None, None)
    for k in ('queued', 'never_invoked', 'peak', 'mean'):
        if 'lazy.' + k in kv:
            M['lazy_' + k] = float(kv['lazy.' + k])
    return M


def kernel_end(L):
    """The kernel's end of boot mode, as dmesg printed it at the probe's end: "[ T] user_booted:
    userspace boot ended (REASON) ..., by COMM[PID]; ...": (T, REASON, COMM or None), or None."""
    for d in L['dmesg']:
        m = re.match(r'\[\s*(\d+\.\d+)\] user_booted: userspace boot ended \(([^)]*)\)(?:.*?, by (.+?)\[\d+\])?', d)
        if m:
            return m.groups()
    return None


def plugin_metrics(L, M):
    """The paired plugin studies' own values (workloads 15 and 20, their `metrics` field)."""
    kv = L['kv']
    U, F = int(kv['UserspaceTimestampMonotonic']), int(kv['FinishTimestampMonotonic'])
    D = int(kv.get('default.target.ActiveEnterTimestampMonotonic') or 0)
    # "FinishTimestamp - default.target's ActiveEnterTimestamp (CLOCK_MONOTONIC, systemctl show)":
    # microseconds, not systemd-analyze's truncated milliseconds.
    M['default_target_s'] = (D - U) / 1e6 if D else None
    M['finish_after_default_s'] = (F - D) / 1e6 if D else None
    # The kernel's end of boot mode (kernel_end()).  Printk time to CLOCK_MONOTONIC: the probe's clock-sync
    # markers, sync.I=MONO_BEFORE MONO_AFTER (ns) around "[ T] user-booted-e2e: clock sync I";
    # the narrowest window's midpoint minus T is the offset.
    end = kernel_end(L)
    marks = {}
    for d in L['dmesg']:
        m = re.match(r'\[\s*(\d+\.\d+)\] user-booted-e2e: clock sync (\d+)$', d.strip())
        if m:
            marks.setdefault(m.group(2), float(m.group(1)))
    windows = []
    for i, t in marks.items():
        v = kv.get('sync.' + i, '').split()
        if len(v) == 2:
            windows.append((int(v[1]) - int(v[0]), (int(v[0]) + int(v[1])) / 2 / 1e9 - t))
    if end and windows:
        width, offset = min(windows, key=lambda w: w[0])   # the first of equally narrow ones
        M['report_lag_s'] = float(end[0]) + offset - F / 1e6
        M['report_lag_window_ms'] = width / 1e6
    # "the exec of the plugin's script (user-booted-report, the first in the trace)".
    ex = [t for t, pid, path in L['exec'] if path.rsplit('/', 1)[-1] == 'user-booted-report']
    M['script_exec_s'] = (min(ex) - F) / 1e6 if ex else None


def excluded(L, M, prereg):
    """Why a boot does not count under the registration's exclusions (None: it counts)."""
    if L['verdict'] != 'pass':
        return 'no UB-VERDICT: pass'
    if paired(prereg) and M.get('default_target_s') is None:   # workload 15's exclusions
        return 'no default.target timestamp'
    if 'every window' in prereg.get('exclusions', '') and not M.get('windows'):
        return 'a window is missing'
    if M.get('ev_lost', 0) or M.get('gp_lost', 0):
        return 'trace events lost'
    if needs_seeded(prereg):
        if M['crng_s'] is None or M['init_s'] is None:
            return 'no crng init done (or no init launch) in the kernel log'
        if not M['crng_s'] < M['init_s']:
            return 'crng init done at %.6f s, after init launch at %.6f s' % (M['crng_s'], M['init_s'])
    return None


def needs_seeded(prereg):
    """Workload 16's rule (17's exclusions say 'As workload 16: ... crng init done before
    init launch'): the kernel's crng init done must precede init launch."""
    ex = prereg.get('exclusions', '')
    return 'crng init done' in ex


# ---------------------------------------------------------------- statistics

def median(v):
    return statistics.median(v)


def mwu(x, y):
    """U of x, and the two-sided Mann-Whitney p: exact (permutation distribution of U) when
    a sample has at most 8 values and there are no ties, else the normal approximation
    with tie correction and continuity correction."""
    m, n = len(x), len(y)
    allv = sorted(x + y)
    rank = {}
    i = 0
    while i < len(allv):
        j = i
        while j < len(allv) and allv[j] == allv[i]:
            j += 1
        rank[allv[i]] = (i + 1 + j) / 2
        i = j
    ux = sum(rank[v] for v in x) - m * (m + 1) / 2
    ties = [allv.count(v) for v in set(allv)]
    big = max(ux, m * n - ux)
    if (m <= 8 or n <= 8) and all(t == 1 for t in ties):
        # number of ways to reach each U: recursion on sample sizes
        memo = {}

        def ways(a, b, u):
            if u < 0:
                return 0
            if a == 0 or b == 0:
                return 1 if u == 0 else 0
            key = (a, b, u)
            if key not in memo:
                memo[key] = ways(a - 1, b, u - b) + ways(a, b - 1, u)
            return memo[key]
        total = math.comb(m + n, m)
        tail = sum(ways(m, n, u) for u in range(int(big), m * n + 1))
        p = 2 * tail / total
    else:
        N = m + n
        tie = sum(t ** 3 - t for t in ties)
        sd = math.sqrt(m * n / 12 * ((N + 1) - tie / (N * (N - 1))))
        p = 2 * 0.5 * math.erfc(((big - m * n / 2 - 0.5) / sd) / math.sqrt(2)) if sd > 0 else 1.0
    return ux, min(p, 1.0)


def hodges_lehmann(x, y, ratio, confidence):
    """Hodges-Lehmann shift of x - y (x / y on the log scale where ratio) and the Moses
    distribution-free CI: the C-th smallest and largest of the m*n pairwise differences,
    C = floor(m*n/2 - z * sqrt(m*n*(m+n+1)/12)) (normal approximation)."""
    f = math.log if ratio else (lambda v: v)
    d = sorted(f(a) - f(b) for a in x for b in y)
    m, n = len(x), len(y)
    z = statistics.NormalDist().inv_cdf(1 - (1 - confidence) / 2)
    c = math.floor(m * n / 2 - z * math.sqrt(m * n * (m + n + 1) / 12))
    g = math.exp if ratio else (lambda v: v)
    if c < 1:       # too few boots: the CI is unbounded
        return g(median(d)), None, None
    return g(median(d)), g(d[c - 1]), g(d[m * n - c])


def holm(ps):
    order = sorted(range(len(ps)), key=lambda i: ps[i])
    adj, run = [0.0] * len(ps), 0.0
    for r, i in enumerate(order):
        run = max(run, min(1.0, (len(ps) - r) * ps[i]))
        adj[i] = run
    return adj


def targets(prereg, boots):
    alpha, conf = prereg.get('alpha', 0.05), prereg.get('confidence', 0.95)
    # Workload 16's exclusions: a kind short of the registered count marks its verdicts.
    need = prereg.get('boots_per_arm') if 'not a result' in prereg.get('exclusions', '') else None
    rows = []
    for t in prereg['targets']:
        def vals(arm):
            return [b[t['metric']] for b in boots if b['family'] == t['table'] and b['arm'] == arm
                    and b['counted'] and b.get(t['metric']) is not None]
        x, y = vals(t['x']), vals(t['y'])
        r = dict(id=t['id'], table=t['table'], x=t['x'], y=t['y'], metric=t['metric'], test=t['test'],
                 scale='ratio' if t.get('scale') == 'ratio' else 'difference', bound=t.get('bound'),
                 better=t.get('better', 'lower'), n_x=len(x), n_y=len(y))
        if r['scale'] == 'ratio' and any(v <= 0 for v in x + y):
            r['verdict'] = 'not computable: a value <= 0 on the ratio scale'
        elif x and y:
            r['median_x'], r['median_y'] = median(x), median(y)
            r['estimate'], r['ci_lo'], r['ci_hi'] = hodges_lehmann(x, y, r['scale'] == 'ratio', conf)
            r['u_x'], r['p'] = mwu(x, y)
            r['x_higher'] = r['u_x'] > len(x) * len(y) / 2
        r['short'] = bool(need) and (len(x) < need or len(y) < need)
        rows.append(r)
    direction = [r for r in rows if r['test'] == 'direction' and 'p' in r]
    for r, a in zip(direction, holm([r['p'] for r in direction])):
        r['p_holm'] = a
    for r in rows:
        if 'p' not in r:
            r.setdefault('verdict', 'not measured (no counted boots)')
        elif r['test'] == 'direction':
            if r['p_holm'] >= alpha:
                r['verdict'] = 'no difference shown'
            elif r['better'] == 'none':
                r['verdict'] = 'HIGHER' if r['x_higher'] else 'LOWER'
            else:   # lower is better
                r['verdict'] = 'LOSES' if r['x_higher'] else 'BEATS'
        else:
            lo, hi = (1 - r['bound'], 1 + r['bound']) if r['scale'] == 'ratio' else (-r['bound'], r['bound'])
            inside = r['ci_lo'] is not None and lo <= r['ci_lo'] and r['ci_hi'] <= hi
            r['verdict'] = 'EQUIVALENT' if inside else 'not shown equivalent'
        r['note'] = 'not a result: fewer than %d counted boots' % need if r['short'] and 'p' in r else ''
    return rows


def boots_needed(prereg, boots):
    """The registered power statement: boots per arm for 80% power of a two-sided Mann-Whitney
    test (alpha unadjusted) at a shift of rel x the pooled median; spread: 1.4826 x the MAD of
    both arms' deviations from their own medians, pooled; Mann-Whitney's efficiency 3/pi
    (the formula as the audit describes it)."""
    pw, out = prereg.get('power'), []
    if not pw:
        return out
    z = statistics.NormalDist().inv_cdf
    for table in pw['tables']:
        arms = [[b[pw['metric']] for b in boots if b['family'] == table and b['arm'] == a and b['counted']]
                for a in (pw['x'], pw['y'])]
        if not all(arms):
            continue
        sd = 1.4826 * median([abs(v - median(a)) for a in arms for v in a])
        delta = pw['rel'] * median(arms[0] + arms[1])
        n = 2 * (z(1 - prereg.get('alpha', 0.05) / 2) + z(0.8)) ** 2 * sd ** 2 / delta ** 2 / (3 / math.pi)
        out.append((table, pw['metric'], pw['x'], pw['y'], math.ceil(n), len(arms[0]), len(arms[1])))
    return out


# ---------------------------------------------------------------- the paired studies (workloads 15, 20)

def paired(prereg):
    """Workloads 15 and 20: targets name a family, not a table and two arms."""
    return any('family' in t for t in prereg['targets'])


def median_ci(d, confidence):
    """The distribution-free CI of the median: order statistics d(k) .. d(n+1-k), k the largest
    with P(B <= k-1) <= (1-confidence)/2, B ~ Binomial(n, 1/2); and its coverage."""
    n, a = len(d), (1 - confidence) / 2
    cdf = lambda j: sum(math.comb(n, i) for i in range(j + 1)) / 2 ** n
    k = 0
    while k + 1 <= n and cdf(k) <= a:
        k += 1
    if k == 0:
        return None, None, 0.0
    d = sorted(d)
    return d[k - 1], d[n - k], 1 - 2 * cdf(k - 1)


def wilcoxon(d):
    """Two-sided Wilcoxon signed-rank p, as scipy's default (1.10): zero differences dropped;
    exact null distribution when n <= 50 and no difference is 0, else the normal approximation
    with the tie correction and no continuity correction."""
    zeros = sum(1 for v in d if v == 0)
    nz = [v for v in d if v != 0]
    n = len(nz)
    if n == 0:
        return 1.0
    a = sorted(abs(v) for v in nz)
    rank, i = {}, 0
    while i < n:
        j = i
        while j < n and a[j] == a[i]:
            j += 1
        rank[a[i]] = (i + 1 + j) / 2
        i = j
    r_plus = sum(rank[abs(v)] for v in nz if v > 0)
    if n <= 50 and not zeros:
        top = n * (n + 1) // 2
        cnt = [1] + [0] * top                  # subsets of the ranks 1..n by their sum
        for r in range(1, n + 1):
            for t in range(top, r - 1, -1):
                cnt[t] += cnt[t - r]
        r = int(r_plus)
        if r == top // 2:
            return 1.0
        lo, hi = sum(cnt[:r + 1]) / 2 ** n, sum(cnt[r:]) / 2 ** n
        return min(1.0, 2 * min(lo, hi))
    t = min(r_plus, n * (n + 1) / 2 - r_plus)
    mean = n * (n + 1) / 4
    var = n * (n + 1) * (2 * n + 1)
    for v in set(a):
        c = a.count(v)
        var -= 0.5 * c * (c * c - 1)
    z = (t - mean) / math.sqrt(var / 24)
    return min(1.0, math.erfc(abs(z) / math.sqrt(2)))


def paired_targets(prereg, boots):
    """Each target of a paired study: d = x - y by round (x, y the registration's first and second
    arm: plugin - masked), its median, CI, Wilcoxon p, Holm over the paired tests; the unpaired
    check; all_within over the x arm's boots."""
    alpha, conf = prereg.get('alpha', 0.05), prereg.get('confidence', 0.95)
    x_arm, y_arm = list(prereg['arms'])[:2]
    comm = prereg.get('reporter_comm', 'user-booted-rep')
    rows = []
    for t in prereg['targets']:
        fam, metric = t['family'], t['metric']
        r = dict(id=t['id'], family=fam, x=x_arm, y=y_arm, metric=metric, test=t['test'], bound=t.get('bound'))
        counted = [b for b in boots if b['family'] == fam and b['counted']]
        if t['test'] == 'all_within':
            xs = [b for b in counted if b['arm'] == x_arm]
            r['n_arm'] = len(xs)
            r['exec_before'] = sum(1 for b in xs if b.get('script_exec_s') is not None and b['script_exec_s'] < 0)
            r['exec_none'] = sum(1 for b in xs if b.get('script_exec_s') is None)
            r['after'] = 'script_exec_s >= 0' in t.get('text', '')
            if r['after']:      # LAG-AFTER: the boots whose job forked at startup's end
                xs = [b for b in xs if b.get('script_exec_s') is not None and b['script_exec_s'] >= 0]
            ok = [b for b in xs if b.get('end_reason') == 'reported' and b.get('end_by') == comm
                  and b.get('report_lag_s') is not None and b['report_lag_s'] <= t['bound']]
            lags = [b[metric] for b in xs if b.get(metric) is not None]
            r.update(n=len(xs), n_ok=len(ok), lag_median=median(lags) if lags else None,
                     lag_max=max(lags) if lags else None)
            r['verdict'] = 'MET' if xs and len(ok) == len(xs) else 'NOT MET'
            rows.append(r)
            continue
        by_round = {}
        for b in counted:
            by_round.setdefault(b['round'], {}).setdefault(b['arm'], []).append(b)
        d, dropped = [], []
        for rnd in sorted(by_round, key=int):
            g = by_round[rnd]
            if len(g.get(x_arm, [])) == 1 and len(g.get(y_arm, [])) == 1 \
                    and g[x_arm][0].get(metric) is not None and g[y_arm][0].get(metric) is not None:
                d.append(g[x_arm][0][metric] - g[y_arm][0][metric])
            else:
                dropped.append(rnd)
        r.update(rounds=len(d), dropped=dropped)
        if d:
            r['median_d'] = median(d)
            r['ci_lo'], r['ci_hi'], r['coverage'] = median_ci(d, conf)
            r['slower'] = sum(1 for v in d if v > 0)
            r['p'] = wilcoxon(d)
        xv = [b[metric] for b in counted if b['arm'] == x_arm and b.get(metric) is not None]
        yv = [b[metric] for b in counted if b['arm'] == y_arm and b.get(metric) is not None]
        if xv and yv:
            r['hl'], r['hl_lo'], r['hl_hi'] = hodges_lehmann(xv, yv, False, conf)
            r['mwu_p'] = mwu(xv, yv)[1]
        rows.append(r)
    tests = [r for r in rows if 'p' in r]
    for r, a in zip(tests, holm([r['p'] for r in tests])):
        r['p_holm'] = a
    for r in rows:
        if r['test'] == 'all_within':
            continue
        if 'p' not in r:
            r['verdict'] = 'not measured (no paired rounds)'
            continue
        side = 'no difference shown'
        if r['p_holm'] < alpha and r['median_d'] != 0:
            side = 'LOSES' if r['median_d'] > 0 else 'BEATS'
        r['verdict'] = side
        if r['test'] == 'noninferior':
            met = r['ci_hi'] is not None and r['ci_hi'] < r['bound']
            r['verdict'] = '%s; %s' % ('MET' if met else 'NOT MET', side)
    return rows


def report_head(prereg_path, prereg, boots, skipped):
    """Both reports' title, provenance and boots per family and arm."""
    out = ['# Independent recomputation: %s' % prereg.get('title', prereg_path), '',
           'By `bench/verify/recompute.py` (no code shared with bench/analyze*.py) from the console logs;'
           ' registration `%s`. Per-boot values: `perboot.csv`; targets: `targets.csv`.' % prereg_path, '',
           '## Boots', '']
    for fam in prereg['families']:
        for arm in prereg['arms']:
            bs = [b for b in boots if b['family'] == fam and b['arm'] == arm]
            if bs:
                out.append('- %s:%s: %d ok in runs.csv, %d counted' % (fam, arm, len(bs), sum(b['counted'] for b in bs)))
    out += ['- excluded: %s (%s)' % (b['log'], b['excluded_why']) for b in boots if not b['counted']]
    out += ['- not ok in runs.csv: seq %s %s (%s)' % s for s in skipped]
    return out


def write_paired_report(path, prereg_path, prereg, boots, skipped, rows):
    ms = lambda v: '-' if v is None else '%+.1f ms' % (1000 * v)
    out = report_head(prereg_path, prereg, boots, skipped)
    said = re.search(r'Holm\S* correction over the (\w+) paired tests', prereg.get('statistics', ''))
    k = sum('p' in r for r in rows)
    out += ['', 'Holm family: %d paired tests%s.' % (k, ' (the registration says "%s")' % said.group(1) if said else ''),
            '', '## Paired targets (d = %s - %s by round)' % (rows[0]['x'], rows[0]['y']), '',
            '| target | metric | rounds | median d | CI of median d (coverage) | %s slower in | Wilcoxon p | p (Holm) |'
            ' HL difference (Moses CI) | MWU p | verdict |' % rows[0]['x'],
            '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |']
    for r in rows:
        if r['test'] == 'all_within':
            continue
        if 'p' not in r:
            out.append('| %s | %s | 0 | - | - | - | - | - | - | - | %s |' % (r['id'], r['metric'], r['verdict']))
            continue
        out.append('| %s | %s | %d%s | %s | %s to %s (%.1f%%) | %d of %d | %.4f | %.4f | %s (%s to %s) | %.4f | %s%s |' % (
            r['id'], r['metric'], r['rounds'], ' (dropped: rounds %s)' % ', '.join(r['dropped']) if r['dropped'] else '',
            ms(r['median_d']), ms(r['ci_lo']), ms(r['ci_hi']), 100 * r['coverage'], r['slower'], r['rounds'],
            r['p'], r['p_holm'], ms(r.get('hl')), ms(r.get('hl_lo')), ms(r.get('hl_hi')), r.get('mwu_p', float('nan')),
            r['verdict'], ' (bound %s)' % ms(r['bound']) if r['test'] == 'noninferior' else ''))
    out += ['', '## all_within targets', '']
    for r in rows:
        if r['test'] != 'all_within':
            continue
        out.append('- %s: %s: %d of %d %s boots%s ended \'reported\' by %s within %g s of FinishTimestamp;'
                   ' median %s s, max %s s (%s boots: exec of the script before FinishTimestamp in %d, no exec traced in %d)' % (
                       r['id'], r['verdict'], r['n_ok'], r['n'], r['x'],
                       ' whose script\'s exec came at or after FinishTimestamp' if r['after'] else '',
                       prereg.get('reporter_comm', 'user-booted-rep'), r['bound'], g4(r['lag_median']), g4(r['lag_max']),
                       r['n_arm'], r['exec_before'], r['exec_none']))
    open(path, 'w').write('\n'.join(out) + '\n')


def g4(v):
    return '-' if v is None else '%.4g' % v


def write_report(path, prereg_path, prereg, boots, skipped, rows, power):
    out = report_head(prereg_path, prereg, boots, skipped)
    said = re.search(r'Holm over (?:all )?(?:the )?(\d+)', prereg.get('statistics', ''))
    k = sum(r['test'] == 'direction' for r in rows)
    out += ['', 'Holm family: %d direction targets%s.' % (k, '' if not said else
            ' (the registration\'s text says %s%s)' % (said.group(1), '' if int(said.group(1)) == k else ': DIFFERS'))]
    out += ['', '## Targets', '',
            '| target | x vs y | metric | n x, y | medians x, y | shift (Moses 95% CI) | MWU p | p (Holm) | verdict |',
            '| --- | --- | --- | --- | --- | --- | --- | --- | --- |']
    for r in rows:
        if 'p' not in r:
            out.append('| %s | %s vs %s | %s | %d, %d | - | - | - | - | %s |' % (
                r['id'], r['x'], r['y'], r['metric'], r['n_x'], r['n_y'], r['verdict']))
            continue
        bound = '' if r['bound'] is None else (' (bound 1 +- %g)' if r['scale'] == 'ratio' else ' (bound +-%g)') % r['bound']
        out.append('| %s | %s vs %s | %s | %d, %d | %s, %s | %s %s (%s - %s) | %.4f | %s | %s%s |' % (
            r['id'], r['x'], r['y'], r['metric'], r['n_x'], r['n_y'], g4(r['median_x']), g4(r['median_y']),
            r['scale'], g4(r['estimate']), g4(r['ci_lo']), g4(r['ci_hi']), r['p'],
            '%.4f' % r['p_holm'] if 'p_holm' in r else '-', r['verdict'], (bound if r['test'] == 'equivalence' else '')
            + (' (%s)' % r['note'] if r['note'] else '')))
    if power:
        out += ['', '## Boots a %g%% shift would need (registered power statement)' % (100 * prereg['power']['rel']), '']
        out += ['- %s, `%s`, %s vs %s: %d boots per arm (this study: %d and %d)' % p for p in power]
    open(path, 'w').write('\n'.join(out) + '\n')


# ---------------------------------------------------------------- --compare

def close(ref, mine):
    """ref: a printed number; mine: ours.  Equal within relative 1e-6 or within the rounding
    of the printed digits; integers exactly."""
    if re.fullmatch(r'-?\d+', ref) and float(mine) == int(float(mine)):
        return int(ref) == int(float(mine))
    m = re.fullmatch(r'(-?\d*)(?:\.(\d*))?(?:e([-+]?\d+))?', ref)
    half = 0.5 * 10 ** (int(m.group(3) or 0) - len(m.group(2) or ''))
    return abs(float(ref) - mine) <= max(1e-6 * abs(float(ref)), half * (1 + 1e-9))


def same(ref, mine):
    """A CSV cell against our value: words exactly, numbers as close() says, empty as None."""
    if isinstance(mine, str) or (ref and not re.fullmatch(r'-?[\d.]+(e[-+]?\d+)?', ref)):
        return (mine or '') == ref
    return (ref == '') == (mine is None) and (ref == '' or close(ref, float(mine)))


def compare_results(resdir, boots, rows, power):
    bad, n, per = [], 0, {}
    by_seq = {b['seq']: b for b in boots}
    seen = set()
    for fam in sorted({b['family'] for b in boots}):
        path = os.path.join(resdir, fam + '.csv')
        if not os.path.exists(path):
            bad.append('%s: missing' % path)
            continue
        for ref in csv.DictReader(open(path)):
            b = by_seq.get(int(ref['seq']))
            seen.add(int(ref['seq']))
            if b is None or not b['counted']:
                bad.append('%s seq %s: in the analyzer\'s CSV, not counted here' % (fam, ref['seq']))
                continue
            for k in PERBOOT[7:]:
                if k not in ref or (k == 'proc_gp_ms' and b.get(k) is None):
                    continue            # proc_gp_ms needs stacks (kernel threads); unstacked boots have none
                n += 1
                per[k] = per.get(k, 0) + 1
                mine, v = b.get(k), ref[k]
                if not same(v, mine):
                    bad.append('%s seq %s %s: analyzer %r, here %r' % (fam, ref['seq'], k, v, mine))
    for b in boots:
        if b['counted'] and b['seq'] not in seen:
            bad.append('seq %s (%s:%s): counted here, not in the analyzer\'s CSV' % (b['seq'], b['family'], b['arm']))
    said = ['per-boot: compared %d values (%d columns) of %d boots with %s/FAMILY.csv' % (n, len(per), len(seen), resdir)]
    # Stacked families: each boot's waits by caller and task class against callers.csv (n, ms).
    path = os.path.join(resdir, 'callers.csv')
    mine = {(b['seq'], c, k): v for b in boots if b['counted'] for (c, k), v in b.get('callers', {}).items()}
    if mine and os.path.exists(path):
        ref = {(int(r['seq']), r['caller'], r['task']): r for r in csv.DictReader(open(path))
               if int(r['seq']) in by_seq and by_seq[int(r['seq'])]['counted']}
        for key in sorted(set(ref) | set(mine)):
            r, v = ref.get(key), mine.get(key)
            if r is None or v is None or int(r['n']) != v[0] or not close(r['ms'], v[1] / 1000):
                bad.append('callers.csv seq %s %s, %s: analyzer %s, here %s' % (
                    key + ((r['n'], r['ms']) if r else None, (v[0], v[1] / 1000) if v else None)))
        said.append('callers: compared %d rows (caller, task class: n and ms) with %s' % (len(ref), path))
    nt = 0
    path = os.path.join(resdir, 'report.md')
    text = open(path).read() if os.path.exists(path) else ''
    if not text:
        bad.append('%s: missing' % path)
    table = {}
    for line in text.splitlines():
        c = [x.strip() for x in line.strip('|').split('|')]
        if len(c) == 9 and c[0] in {r['id'] for r in rows}:
            table[c[0]] = c
    for r in rows:
        c = table.get(r['id'])
        if c is None:
            bad.append('%s: not in report.md' % r['id'])
            continue
        m = re.fullmatch(r'(\w+) (\S+) \((\S+) - (\S+)\)', c[5])
        if 'p' not in r or not m:
            bad.append('%s: report %r, here %r' % (r['id'], ' | '.join(c), r['verdict']))
            continue
        # The analyzer appends ' [M and N of the registered K boots: not a result]' to a short kind's verdict.
        short = re.search(r' \[(\d+) and (\d+) of the registered (\d+) boots: not a result\]', c[8])
        checks = [('n', c[3], '%d, %d' % (r['n_x'], r['n_y'])), ('scale', m.group(1), r['scale']),
                  ('verdict', c[8].split(' (bound')[0].split(' [')[0], r['verdict']),
                  ('not a result', 'marked' if short else 'not marked', 'marked' if r['note'] else 'not marked')]
        nums = [('median x', c[4].split(', ')[0], r['median_x']), ('median y', c[4].split(', ')[1], r['median_y']),
                ('estimate', m.group(2), r['estimate']), ('CI low', m.group(3), r['ci_lo']),
                ('CI high', m.group(4), r['ci_hi']), ('MWU p', c[6], r['p'])]
        if c[7] != '-' or 'p_holm' in r:
            nums.append(('Holm p', c[7], r.get('p_holm')))
        for what, ref, mine in checks:
            nt += 1
            if ref != mine:
                bad.append('%s %s: report %r, here %r' % (r['id'], what, ref, mine))
        for what, ref, mine in nums:
            nt += 1
            if mine is None or ref == '-' or not close(ref, mine):
                bad.append('%s %s: report %s, here %r' % (r['id'], what, ref, mine))
    for table_, metric, x, y, need, nx, ny in power:
        m = re.search(r'- %s, `%s`, %s vs %s: (\d+) boots per arm' % (table_, metric, x, y), text)
        nt += 1
        if not m or int(m.group(1)) != need:
            bad.append('power %s: report %s, here %d' % (table_, m.group(1) if m else 'missing', need))
    said.append('targets: compared %d values of %d targets (and the power statement) with %s/report.md'
                % (nt, len(rows), resdir))
    said += ['MISMATCH ' + line for line in bad] + ['mismatches: %d' % len(bad)]
    return said, bad


def compare_paired(resdir, boots, rows):
    """Per-boot values against RESULTSDIR/plugin.csv; the paired table, the all_within lines and
    the exec counts against RESULTSDIR/report.md."""
    bad, n, per, seen = [], 0, {}, set()
    by_seq = {b['seq']: b for b in boots}
    path = os.path.join(resdir, 'plugin.csv')
    refs = list(csv.DictReader(open(path))) if os.path.exists(path) else []
    if not refs:
        bad.append('%s: missing or empty' % path)
    for ref in refs:
        b = by_seq.get(int(ref['seq']))
        if b is None:
            continue                          # another study's family
        seen.add(b['seq'])
        if not b['counted']:
            bad.append('%s seq %s: in the analyzer\'s CSV, not counted here (%s)' % (b['family'], b['seq'], b['excluded_why']))
            continue
        for k in PERBOOT[7:]:
            if k not in ref:
                continue
            n += 1
            per[k] = per.get(k, 0) + 1
            mine, v = b.get(k), ref[k]
            if not same(v, mine):
                bad.append('%s seq %s %s: analyzer %r, here %r' % (b['family'], b['seq'], k, v, mine))
    bad += ['seq %s (%s:%s): counted here, not in the analyzer\'s CSV' % (b['seq'], b['family'], b['arm'])
            for b in boots if b['counted'] and b['seq'] not in seen]
    said = ['per-boot: compared %d values (%d columns) of %d boots with %s' % (n, len(per), len(seen), path)]
    path = os.path.join(resdir, 'report.md')
    text = open(path).read() if os.path.exists(path) else ''
    ms = lambda v: re.sub(r' ?ms$', '', v.strip())
    nt = 0

    def check(what, ref, mine, scale=1.0):
        nonlocal nt
        nt += 1
        if isinstance(mine, str) or ref is None:
            ok = ref == mine
        else:
            ok = mine is not None and close(ref.lstrip('+'), mine * scale)
        if not ok:
            bad.append('%s: report %s, here %r' % (what, ref, mine if mine is None or isinstance(mine, str) else mine * scale))
    table, lines, execs, fam = {}, {}, {}, None
    for line in text.splitlines():
        c = [x.strip() for x in line.strip().strip('|').split('|')]
        if line.startswith('|') and len(c) == 10 and ':' in c[9]:
            table[c[9].split(':')[0]] = c
        m = re.match(r'- (\S+): (MET|NOT MET): (\d+) of (\d+) .*? boots .*?(?:median (\S+) s, )?max (\S+) s', line)
        if m:
            lines[m.group(1)] = m.groups()
        m = re.match(r'## .*systemd (\d+)', line)
        if m:
            fam = m.group(1)
        m = re.search(r'exec against FinishTimestamp: at or after it in (\d+) of (\d+) boots .*\((\d+) plugin', line)
        if m and fam:
            execs[fam] = m.groups()
    for r in rows:
        i = r['id']
        if r['test'] == 'all_within':
            g = lines.get(i)
            if not g:
                bad.append('%s: not in report.md' % i)
                continue
            check(i + ' verdict', g[1], r['verdict'])
            check(i + ' boots within', '%s of %s' % (g[2], g[3]), '%d of %d' % (r['n_ok'], r['n']))
            if g[4]:
                check(i + ' median lag', g[4], r['lag_median'])
            check(i + ' max lag', g[5], r['lag_max'])
            e = execs.get(r['family'].lstrip('pc'))
            if r['after'] and e:
                check(i + ' exec at or after FinishTimestamp', '%s of %s' % (e[0], e[1]),
                      '%d of %d' % (r['n'], r['n_arm'] - r['exec_none']))
            continue
        c = table.get(i)
        if not c:
            bad.append('%s: not in report.md' % i)
            continue
        ci = re.fullmatch(r'(\S+) ms to (\S+) ms \(([\d.]+)%\)', c[3])
        hl = re.fullmatch(r'(\S+) ms \((\S+) ms to (\S+) ms\)', c[7])
        check(i + ' rounds', c[1], '%d' % r['rounds'])
        check(i + ' median d', ms(c[2]), r.get('median_d'), 1000)
        check(i + ' CI low', ci.group(1), r.get('ci_lo'), 1000)
        check(i + ' CI high', ci.group(2), r.get('ci_hi'), 1000)
        check(i + ' coverage', ci.group(3), r.get('coverage'), 100)
        check(i + ' slower in', c[4], '%d of %d' % (r.get('slower', 0), r['rounds']))
        check(i + ' Wilcoxon p', c[5], r.get('p'))
        check(i + ' Holm p', c[6], r.get('p_holm'))
        check(i + ' HL', hl.group(1), r.get('hl'), 1000)
        check(i + ' Moses CI low', hl.group(2), r.get('hl_lo'), 1000)
        check(i + ' Moses CI high', hl.group(3), r.get('hl_hi'), 1000)
        check(i + ' MWU p', c[8], r.get('mwu_p'))
        check(i + ' verdict', re.sub(r' \([^)]*\)', '', c[9].split(': ', 1)[1]), r['verdict'])
    said.append('targets: compared %d values of %d targets with %s' % (nt, len(rows), path))
    said += ['MISMATCH ' + line for line in bad] + ['mismatches: %d' % len(bad)]
    return said, bad


# ---------------------------------------------------------------- main

PERBOOT = ['seq', 'round', 'family', 'arm', 'log', 'counted', 'excluded_why', 'startup_s', 'default_target_s',
           'finish_after_default_s', 'crng_s', 'init_s', 'end_reason', 'end_by', 'report_lag_s', 'report_lag_window_ms',
           'script_exec_s', 'gp_n', 'gp_ms', 'pid1_gp_ms', 'modal_gp_ms', 'crit_gp_ms',
           'chain_units', 'gp_events_unpaired', 'proc_gp_ms', 'unknown_caller_ms', 'nsu_n', 'nsu_ms', 'nsu_other_ms',
           'nsu_call_ms', 'gp_lost', 'ev_lost', 'exp_boot', 'gp_boot', 'ipi_boot',
           'sync_boot', 'ipi_per_exp', 'wake_boot', 'lag_s', 'exp_gap', 'gp_gap', 'ipi_gap', 'wake_gap'] + \
          [w[0] + '_' + k for w in WINDOWS
           for k in ('s', 'exp', 'gp', 'ipi', 'sync', 'cb', 'wake', 'wait_ms', 'cb_per_gp')] + \
          ['lz_n', 'lz_med_ms', 'lz_p90_ms', 'lz_max_ms', 'lazy_queued', 'lazy_never_invoked', 'lazy_peak',
           'lazy_mean', 'lazy_lost']


def load_boots(logdir, prereg):
    boots, skipped = [], []
    with open(os.path.join(logdir, 'runs.csv')) as f:
        for run in csv.DictReader(f):
            family, arm = run['kind'].split(':', 1)
            if family not in prereg['families'] or arm not in prereg['arms']:
                continue
            if run['status'] != 'ok':
                skipped.append((run['seq'], run['kind'], run['status']))
                continue
            L = parse_log(read_log(os.path.join(logdir, run['log'])))
            try:
                M = metrics(L)
                if paired(prereg):
                    plugin_metrics(L, M)
                why = excluded(L, M, prereg)
            except (KeyError, ValueError, IndexError) as e:
                M, why = {}, 'log does not parse (%s: %s)' % (type(e).__name__, e)
            M.update(seq=int(run['seq']), round=run['round'], family=family, arm=arm,
                     log=os.path.basename(run['log']), counted=why is None, excluded_why=why or '')
            boots.append(M)
    return boots, skipped


def fmt(v):
    if v is None:
        return ''
    if isinstance(v, bool):
        return str(v).lower()
    if isinstance(v, float):
        return '%.9g' % v
    return str(v)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('prereg')
    ap.add_argument('logdir')
    ap.add_argument('outdir')
    ap.add_argument('--compare', metavar='RESULTSDIR')
    a = ap.parse_args(argv)
    prereg_path, logdir, outdir, compare = a.prereg, a.logdir, a.outdir, a.compare
    prereg = json.load(open(prereg_path))
    os.makedirs(outdir, exist_ok=True)
    boots, skipped = load_boots(logdir, prereg)
    boots.sort(key=lambda b: b['seq'])
    with open(os.path.join(outdir, 'perboot.csv'), 'w', newline='') as f:
        w = csv.writer(f)
        w.writerow(PERBOOT)
        for b in boots:
            w.writerow([fmt(b.get(k)) for k in PERBOOT])
    if paired(prereg):
        rows = paired_targets(prereg, boots)
        with open(os.path.join(outdir, 'targets.csv'), 'w', newline='') as f:
            cols = ['id', 'family', 'x', 'y', 'metric', 'test', 'bound', 'rounds', 'median_d', 'ci_lo', 'ci_hi',
                    'coverage', 'slower', 'p', 'p_holm', 'hl', 'hl_lo', 'hl_hi', 'mwu_p', 'n', 'n_ok', 'lag_median',
                    'lag_max', 'n_arm', 'exec_before', 'exec_none', 'verdict']
            w = csv.writer(f)
            w.writerow(cols)
            for r in rows:
                w.writerow([fmt(r.get(k)) for k in cols])
        write_paired_report(os.path.join(outdir, 'report.md'), prereg_path, prereg, boots, skipped, rows)
        if compare:
            said, bad = compare_paired(compare, boots, rows)
            print('\n'.join(said))
            with open(os.path.join(outdir, 'report.md'), 'a') as f:
                f.write('\n## Compared with the analyzer\'s outputs\n\n' + ''.join('- %s\n' % x for x in said))
            sys.exit(1 if bad else 0)
        return
    rows = targets(prereg, boots)
    with open(os.path.join(outdir, 'targets.csv'), 'w', newline='') as f:
        cols = ['id', 'table', 'x', 'y', 'metric', 'test', 'scale', 'bound', 'better', 'n_x', 'n_y', 'median_x',
                'median_y', 'estimate', 'ci_lo', 'ci_hi', 'u_x', 'p', 'p_holm', 'verdict', 'note']
        w = csv.writer(f)
        w.writerow(cols)
        for r in rows:
            w.writerow([fmt(r.get(k)) for k in cols])
    if any(b.get('callers') for b in boots):
        with open(os.path.join(outdir, 'callers.csv'), 'w', newline='') as f:
            w = csv.writer(f)
            w.writerow(['seq', 'family', 'arm', 'counted', 'caller', 'task', 'n', 'ms'])
            for b in boots:
                for (c, k), v in sorted(b.get('callers', {}).items(), key=lambda kv: -kv[1][1]):
                    w.writerow([b['seq'], b['family'], b['arm'], fmt(b['counted']), c, k, v[0], fmt(v[1] / 1000)])
    power = boots_needed(prereg, boots)
    write_report(os.path.join(outdir, 'report.md'), prereg_path, prereg, boots, skipped, rows, power)
    if compare:
        said, bad = compare_results(compare, boots, rows, power)
        print('\n'.join(said))
        with open(os.path.join(outdir, 'report.md'), 'a') as f:
            f.write('\n## Compared with the analyzer\'s outputs\n\n' + ''.join('- %s\n' % x for x in said))
        sys.exit(1 if bad else 0)


if __name__ == '__main__':
    main(sys.argv[1:])
