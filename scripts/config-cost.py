#!/usr/bin/python3
"""What each kernel option costs to compile: config-cost.py [OBJ_DIR...]

Reads the per-object compile times that scripts/cc-timed logged during the
last build of each object directory (default: every build/obj-*/) and
charges each object to the nearest CONFIG_ option that kbuild's Makefiles
gate it on, walking up from the object to the directory that is built only
for that option ("obj-$(CONFIG_ACPI) += acpi/" charges all of drivers/acpi/
to ACPI).  Objects no option gates are "always".  Prints, per directory,
the objects and compile seconds (the sum of each compile's wall time: with
-j2 about the CPU time) of the options that cost most, marking those a
configs/*.config fragment sets (an option that one of them selects or
pulls in as a default shows none).  Makefile conditionals (ifdef) are not
read: the nearest option decides.  The times are those of the build that
logged them: a cold build (no ccache hits) to size what an option costs.
"""
import glob
import os
import re
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RULE = re.compile(r'^\s*([A-Za-z0-9_.-]+?)-(y|m|objs|\$\(CONFIG_([A-Z0-9_]+)\))\s*[:+]?=\s*(.*)$')


def rules(directory, cache={}):
    """(name, option or None, words) for each rule of DIRECTORY's Kbuild/Makefile."""
    if directory in cache:
        return cache[directory]
    out = []
    for f in ('Kbuild', 'Makefile'):
        path = os.path.join(directory, f)
        if not os.path.isfile(path):
            continue
        text = open(path, errors='replace').read().replace('\\\n', ' ')
        text = text.replace('$(BITS)', '64').replace('$(SRCARCH)', 'x86')
        for line in text.splitlines():
            m = RULE.match(line)
            if m:
                out.append((m.group(1), m.group(3), m.group(4).split()))
    cache[directory] = out
    return out


GENERIC = ('obj', 'lib', 'core', 'libs', 'drivers', 'head', 'subdir', 'always')


def option_of(tree, rel, enabled):
    """The nearest CONFIG_ option that gates object REL (a path in TREE);
    of two rules naming it, one whose option is in ENABLED."""
    directory, target = os.path.split(rel)
    below = target   # the path from DIRECTORY down to the object
    for _ in range(64):
        names = {below, below.split('/')[0] + ('/' if '/' in below else ''),
                 os.path.join(directory, below.split('/')[0]) + ('/' if '/' in below else '')}
        found = [(name, option) for name, option, words in rules(os.path.join(tree, directory))
                 if names & set(words)]
        found.sort(key=lambda r: r[1] is not None and r[1] not in enabled)
        rule = found[0] if found else None
        if rule and rule[1]:
            return rule[1]
        if rule and rule[0] not in GENERIC:
            below = rule[0] + '.o'   # a composite object: what gates it
            continue
        # obj-y here, or not named: the directory's own gate decides.
        if not directory:
            return 'always'
        directory, base = os.path.split(directory)
        below = base + '/' + below
    return 'always'


def fragment_options():
    opts = {}
    for f in sorted(glob.glob(os.path.join(TOP, 'configs', '*.config'))):
        for line in open(f):
            m = re.match(r'^CONFIG_([A-Z0-9_]+)=', line)
            if m:
                opts.setdefault(m.group(1), os.path.basename(f))
    return opts


def main():
    dirs = sys.argv[1:] or sorted(glob.glob(os.path.join(TOP, 'build', 'obj-*')))
    frag = fragment_options()
    for obj in dirs:
        log = os.path.join(obj, 'cc-times')
        if not os.path.isfile(log) or not os.path.getsize(log):
            continue
        kernel = re.sub(r'-(qemu|debug)$', '', os.path.basename(obj)[len('obj-'):])
        tree = os.path.join(os.path.dirname(os.path.abspath(obj)), 'linux-' + kernel)
        if not os.path.isdir(tree):
            sys.exit(f'config-cost.py: no tree {tree} for {obj}')
        enabled = {m.group(1) for m in re.finditer(r'^CONFIG_([A-Z0-9_]+)=[ym]$',
                                                   open(os.path.join(obj, '.config')).read(), re.M)}
        cost = {}
        total_n = total_ms = 0
        for line in open(log):
            ms, path = line.split(None, 1)
            path = path.strip()
            rel = os.path.relpath(path, obj) if os.path.isabs(path) else path
            if rel.startswith(('..', '.tmp')):
                continue   # kbuild's compiler probes
            if rel.endswith('.mod.o'):
                rel = rel[:-len('.mod.o')] + '.o'   # a module's generated part
            opt = option_of(tree, rel, enabled)
            n, t = cost.get(opt, (0, 0))
            cost[opt] = (n + 1, t + int(ms))
            total_n += 1
            total_ms += int(ms)
        print(f'== {os.path.relpath(obj, TOP)}: {total_n} objects, {total_ms / 1000:.0f} s of compiling')
        print(f'{"option":32} {"objects":>7} {"seconds":>8} {"share":>6}  set by')
        for opt, (n, t) in sorted(cost.items(), key=lambda kv: -kv[1][1])[:40]:
            print(f'{opt:32} {n:7d} {t / 1000:8.1f} {100 * t / max(total_ms, 1):5.1f}%  {frag.get(opt, "")}')
        by_frag = {}
        for opt, (n, t) in cost.items():
            k = frag.get(opt, 'no fragment (always, selected, defaults)')
            fn, ft = by_frag.get(k, (0, 0))
            by_frag[k] = (fn + n, ft + t)
        for k, (n, t) in sorted(by_frag.items(), key=lambda kv: -kv[1][1]):
            print(f'# options set by {k}: {n} objects, {t / 1000:.0f} s ({100 * t / max(total_ms, 1):.1f}%)')
        print()


if __name__ == '__main__':
    main()
