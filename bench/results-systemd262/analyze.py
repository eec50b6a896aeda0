# Who waits in cgroup migration during a systemd boot: pairs the cgwait
# kprobe events the e2e probe prints (cgtrace= lines) per task, within
# systemd's UserspaceTimestamp..FinishTimestamp.  Usage: analyze.py LOG...
# (see NOTES.md next to it).
import re, sys, collections
for arm in sys.argv[1:]:  # console logs of the two boots
    lines = open(arm, errors='replace').read().replace('\r','').splitlines()
    kv = {}
    ev = []
    for l in lines:
        m = re.search(r'E2E\| ([A-Za-z.]+)=(.*)$', l)
        if not m: continue
        k, v = m.groups()
        if k == 'cgtrace':
            mm = re.search(r'-(\d+)\s+\[\d+\]\s+\S+\s+([\d.]+): (\w+)_(in|out): .*comm="?([^"]*)"?', v)
            if mm: ev.append((int(mm[1]), float(mm[2]), mm[3], mm[4], mm[5]))
        else:
            kv.setdefault(k, v)
    us = int(kv.get('UserspaceTimestampMonotonic', 0)) / 1e6
    fin = int(kv.get('FinishTimestampMonotonic', 0)) / 1e6
    open_ = {}
    tot = collections.defaultdict(lambda: [0, 0.0])
    for pid, t, kind, io, comm in ev:
        if io == 'in': open_[(pid, kind)] = (t, comm)
        elif (pid, kind) in open_:
            t0, c0 = open_.pop((pid, kind))
            if us <= t0 <= fin:
                key = (kind, 'PID1' if pid == 1 else c0)
                tot[key][0] += 1; tot[key][1] += t - t0
    print(f'== {arm}: window {us:.3f}..{fin:.3f} s ({fin-us:.2f} s), events {len(ev)}')
    for kind in ('cpw', 'se', 'sr'):
        rows = sorted(((v[1], k[1], v[0]) for k, v in tot.items() if k[0] == kind), reverse=True)
        s = sum(r[0] for r in rows); n = sum(r[2] for r in rows)
        print(f'  {kind}: {n} calls, {s*1000:.0f} ms total')
        for d, c, cnt in rows[:8]:
            print(f'     {c:28s} {cnt:4d} {d*1000:8.1f} ms')
