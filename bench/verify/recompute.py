#!/usr/bin/python3
"""Independent recomputation of a registered unpaired bench study (workloads 14, 16, 17).

    recompute.py PREREG.json LOGDIR OUTDIR [--compare RESULTSDIR]

Reads LOGDIR/runs.csv and each ok boot's console log (LOGDIR/logs/*.log[.xz]), derives
every per-boot metric from the probe's printed lines (systemd-plugin/tests/e2e/
user-booted-e2e) and the registrations' definitions, applies the registered
exclusions, computes every registered target, and writes OUTDIR/perboot.csv,
OUTDIR/targets.csv and OUTDIR/report.md.  Shares no code with bench/analyze*.py;
standard library only.  See README.md next to this file.
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
    L = {'kv': {}, 'gp': [], 'cg': [], 'ev': [], 'lz': [], 'chain': [], 'verdict': None,
         'crng_s': None, 'init_s': None}
    for line in lines:
        line = line.rstrip('\r')
        if line.startswith('UB-VERDICT: '):
            L['verdict'] = line.split(': ', 1)[1].strip()
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
        if key == 'gp':                       # gp=PID SECONDS EVENT: comm=COMM
            pid, ts, ev = val.split()[:3]
            L['gp'].append((int(pid), us(ts), ev.rstrip(':')))
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
        elif key.startswith('lazy.'):         # lazy.queued=N lazy.never_invoked=N ...
            for kv in body.split():
                k, _, v = kv.partition('=')
                L['kv'][k] = v
        else:
            L['kv'].setdefault(key, val.strip())
    return L


def outermost_waits(gp):
    """Pair each task's *_in/*_out (LIFO per PID) and keep the outermost calls:
    [(pid, start_us, end_us, expedited_inside)], and the number of unpaired events."""
    stacks, waits, unpaired = {}, [], 0
    for pid, t, ev in gp:
        kind, _, io = ev.rpartition('_')
        st = stacks.setdefault(pid, [])
        if io == 'in':
            st.append([kind, t, False])
        elif st and st[-1][0] == kind:
            k, t0, inner = st.pop()
            if st:                            # nested: mark the caller (synchronize_rcu -> _expedited)
                st[-1][2] = st[-1][2] or kind == 'rcuexp'
            else:
                waits.append((pid, t0, t, k, inner))
        else:
            unpaired += 1
    unpaired += sum(len(s) for s in stacks.values())
    return waits, unpaired


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
    for pid, t0, t1, k, inner in boot:
        mine = {c for (q, t, p) in L['cg'] if q == pid for c in p.split('/')}
        if pid == 1 or any(u in mine and a <= t0 <= b for u, a, b in units):
            crit += t1 - t0
    M['crit_gp_ms'] = crit / 1000

    # Raw events per window: boot [U, F], the gap (F, end of boot mode], the marks' windows
    # [mark, next mark).  Waits belong to the window their outermost call starts in.
    ev = L['ev']
    marks = {m: t for k, t, m in ev if k == 'mark'}

    def count(kind, a, b):
        return sum(1 for k, t, _ in ev if k == kind and a <= t < b)

    def synced(a, b):   # outermost synchronize_rcu() waits that ran an expedited one
        return sum(1 for w in waits if a <= w[1] < b and w[3] == 'rcu' and w[4])

    for k in ('exp', 'gp', 'ipi'):
        M[k + '_boot'] = count(k, U, F + 1)
    M['sync_boot'] = synced(U, F + 1)
    M['ipi_per_exp'] = M['ipi_boot'] / M['exp_boot'] if M['exp_boot'] else None
    # End of boot mode after startup: the kernel's end event, or the finish unit's mark.
    ends = [t for k, t, m in ev if (k == 'end' or (k == 'mark' and m == 'finish-cleared')) and t > U]
    if ends:
        E = max(ends)
        M['lag_s'] = (E - F) / 1e6
        for k in ('exp', 'gp', 'ipi'):
            M[k + '_gap'] = count(k, F + 1, E + 1)
    order = ['quiet', 'churn', 'migrate', 'end']
    M['windows'] = all(m in marks for m in ['warmup'] + order)
    for i, w in enumerate(WINDOWS):
        if not M['windows']:
            break
        a, b = marks[w], marks[order[i + 1]]
        p = w[0] + '_'
        M[p + 's'] = (b - a) / 1e6
        for k in ('exp', 'gp', 'ipi', 'cb'):
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
    for k in ('queued', 'never_invoked', 'peak', 'mean'):
        if 'lazy.' + k in kv:
            M['lazy_' + k] = float(kv['lazy.' + k])
    return M


def excluded(L, M, prereg):
    """Why a boot does not count under the registration's exclusions (None: it counts)."""
    if L['verdict'] != 'pass':
        return 'no UB-VERDICT: pass'
    if not M.get('windows'):
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


def g4(v):
    return '-' if v is None else '%.4g' % v


def write_report(path, prereg_path, prereg, boots, skipped, rows, power):
    out = ['# Independent recomputation: %s' % prereg.get('title', prereg_path), '',
           'By `bench/verify/recompute.py` (no code shared with bench/analyze*.py) from the console logs;'
           ' registration `%s`. Per-boot values: `perboot.csv`; targets: `targets.csv`.' % prereg_path, '',
           '## Boots', '']
    for fam in prereg['families']:
        for arm in prereg['arms']:
            bs = [b for b in boots if b['family'] == fam and b['arm'] == arm]
            if bs:
                out.append('- %s:%s: %d ok in runs.csv, %d counted' % (fam, arm, len(bs), sum(b['counted'] for b in bs)))
    for b in boots:
        if not b['counted']:
            out.append('- excluded: %s (%s)' % (b['log'], b['excluded_why']))
    for s in skipped:
        out.append('- not ok in runs.csv: seq %s %s (%s)' % s)
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
                if k not in ref:
                    continue
                n += 1
                per[k] = per.get(k, 0) + 1
                mine, v = b.get(k), ref[k]
                if (v == '') != (mine is None) or (v != '' and not close(v, float(mine))):
                    bad.append('%s seq %s %s: analyzer %r, here %r' % (fam, ref['seq'], k, v, mine))
    for b in boots:
        if b['counted'] and b['seq'] not in seen:
            bad.append('seq %s (%s:%s): counted here, not in the analyzer\'s CSV' % (b['seq'], b['family'], b['arm']))
    said = ['per-boot: compared %d values (%d columns) of %d boots with %s/FAMILY.csv' % (n, len(per), len(seen), resdir)]
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
        checks = [('n', c[3], '%d, %d' % (r['n_x'], r['n_y'])), ('scale', m.group(1), r['scale']),
                  ('verdict', c[8].split(' (bound')[0], r['verdict'])]
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


# ---------------------------------------------------------------- main

PERBOOT = ['seq', 'round', 'family', 'arm', 'log', 'counted', 'excluded_why', 'startup_s', 'default_target_s',
           'finish_after_default_s', 'crng_s', 'init_s', 'gp_n', 'gp_ms', 'pid1_gp_ms', 'modal_gp_ms', 'crit_gp_ms',
           'chain_units', 'gp_events_unpaired', 'gp_lost', 'ev_lost', 'exp_boot', 'gp_boot', 'ipi_boot',
           'sync_boot', 'ipi_per_exp', 'lag_s', 'exp_gap', 'gp_gap', 'ipi_gap'] + \
          [w[0] + '_' + k for w in WINDOWS for k in ('s', 'exp', 'gp', 'ipi', 'sync', 'cb', 'wait_ms', 'cb_per_gp')] + \
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
    rows = targets(prereg, boots)
    with open(os.path.join(outdir, 'targets.csv'), 'w', newline='') as f:
        cols = ['id', 'table', 'x', 'y', 'metric', 'test', 'scale', 'bound', 'better', 'n_x', 'n_y', 'median_x',
                'median_y', 'estimate', 'ci_lo', 'ci_hi', 'u_x', 'p', 'p_holm', 'verdict', 'note']
        w = csv.writer(f)
        w.writerow(cols)
        for r in rows:
            w.writerow([fmt(r.get(k)) for k in cols])
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
