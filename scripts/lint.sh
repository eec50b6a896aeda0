#!/bin/bash
# make lint: the quality gates of the exported series, as TAP lines.
# Exits non-zero if any gate fails.
#
#   - every script the Makefile, CI or a suite runs directly (not through
#     bash, sh or python3) is committed executable (git mode 100755): a fresh
#     clone could not run it otherwise
#   - every patch of series.conf applies in order (scripts/tree.sh)
#   - checkpatch.pl --strict is clean on every patch, except for findings
#     that series/checkpatch-allow.txt lists with a justification
#   - kernel-doc -Wall is clean on the new headers and sources
#   - every new sysctl is documented (scripts/check-sysctl-docs)
#   - the documentation the series adds or changes builds without a
#     Sphinx warning
#   - optional, when build/obj-$KERNEL-qemu is configured and no other make
#     runs there: a W=1 C=2 (sparse) build of the series' objects
#   - for the base kernel, each backport (6.12): every variant applies in
#     order (KERNEL=6.12 scripts/tree.sh), kernel-doc, and the optional
#     W=1 C=2 build in build/obj-6.12-qemu
set -u
. "$(dirname "$0")/lib.sh"

# Debian's tools first: checkpatch's SPDX check needs python3-ply and
# python3-git, which a pyenv python3 earlier in PATH would not see.
export PATH=/usr/bin:/bin:$PATH

ALLOW=$TOP/series/checkpatch-allow.txt
OUT=$BUILD/lint
n=0 failed=0

ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)) failed=$((failed + 1)); echo "not ok $n - $*"; }
# diag FILE: show a failure's details as TAP comments.
diag() { sed 's/^/# /' "$1"; }

need_packages "${LINT_PACKAGES[@]}" || exit 1
rm -rf "$OUT" && mkdir -p "$OUT"

# Scripts run directly need git mode 100755, or a fresh clone fails with
# "Permission denied".  Found where they are run: Makefile recipes, .ci/run,
# the project's shell scripts (a path at a command's position: at the start,
# after ;, &&, ||, |, !, $(, then/do/exec, VAR=value words, or test.sh's
# "suite LANE NAME [env ...|nice -n N]"), meson's find_program().  "bash
# FILE" is not a direct run.
python3 - "$TOP" > "$OUT/exec-bits.log" <<'PY'
import glob, os, re, subprocess, sys
top = sys.argv[1]
modes = {}
for line in subprocess.run(['git', '-C', top, 'ls-files', '-s'], capture_output=True,
                           text=True, check=True).stdout.splitlines():
    meta, path = line.split('\t', 1)
    modes[path] = meta.split()[0]
lead = (r'(?:^|[;&|({]|(?<!\[ )!|\b(?:then|do|else|exec|if|elif|while|until|time)\b|^\t@)\s*'
        r'(?:[A-Za-z_]\w*=(?:"[^"]*"|[^\s"(]*)\s+)*(?:suite\s+\S+\s+\S+\s+(?:env\s+(?:\w+=\S+\s+)*|nice\s+-n\s+\d+\s+)?)?')
path = r'"?(\$TOP/|\$\(dirname "\$0"\)/|\$\$\(TOP\)/)?((?:scripts|bench|systemd-plugin|\.ci)/[\w./-]+|[\w-]+\.sh)'
run = re.compile(lead + path)
sources = ['Makefile', '.ci/run'] + sorted(
    os.path.relpath(f, top) for f in glob.glob(top + '/scripts/*.sh') + glob.glob(top + '/bench/*.sh')
    + glob.glob(top + '/systemd-plugin/tests/*.sh'))
invoked = {}
for src in sources:
    try:
        text = open(os.path.join(top, src)).read()
    except FileNotFoundError:
        continue
    # Logical lines (continuations joined), numbered by their first line.
    logical, no = [], 0
    for i, phys in enumerate(text.split('\n'), 1):
        if logical and logical[-1][1].endswith('\\'):
            logical[-1] = (logical[-1][0], logical[-1][1][:-1] + ' ' + phys)
        else:
            logical.append((i, phys))
    for no, line in logical:
        # Quoted text is data (messages, sed scripts), unless it is the
        # quoted path itself; then comments.
        line = re.sub(r'"[^"]*"', lambda q: q.group(0) if re.match(
            r'"(\$TOP/|\$\(dirname )', q.group(0)) else '""', line)
        line = re.sub(r"'[^']*'", "''", line)
        line = re.sub(r'(^|\s)#.*', '', line)
        for m in run.finditer(line):
            target = m.group(2)
            # Relative to the source's directory when named from there.
            if m.group(1) and 'dirname' in m.group(1):
                target = os.path.normpath(os.path.join(os.path.dirname(src), target))
            elif '/' not in target:
                continue
            if target in modes:
                invoked.setdefault(target, '%s:%d' % (src, no))
                if os.environ.get('LINT_SHOW_RUNS'):
                    print('# %s:%d: %s' % (src, no, line.strip()), file=sys.stderr)
# The committed meson.build files (a glob of the work tree would walk
# build/, its kernel trees and root filesystems, for minutes).
for rel in sorted(p for p in modes if os.path.basename(p) == 'meson.build'):
    for m in re.finditer(r"find_program\('([^']+)'", open(os.path.join(top, rel)).read()):
        target = os.path.normpath(os.path.join(os.path.dirname(rel), m.group(1)))
        if target in modes:
            invoked.setdefault(target, rel)
for target, where in sorted(invoked.items()):
    print('%s %s %s' % ('ok' if modes[target] == '100755' else 'BAD', target, where))
PY
if [ ! -s "$OUT/exec-bits.log" ]; then
	not_ok "scripts run directly are executable in git: found none (the check is broken)"
elif grep -q '^BAD' "$OUT/exec-bits.log"; then
	not_ok "scripts run directly are executable in git (mode 100755)"
	grep '^BAD' "$OUT/exec-bits.log" | while read -r _ f where; do
		echo "# $f: run directly by $where, but committed without its exec bit (git update-index --chmod=+x $f)"
	done
else
	ok "scripts run directly are executable in git (mode 100755): $(wc -l <"$OUT/exec-bits.log") of them"
fi

# (c) The series applies patch by patch.  tree.sh dies naming the patch.
if "$TOP/scripts/tree.sh" > "$OUT/tree.log" 2>&1 &&
   "$TOP/scripts/series.sh" > "$OUT/series.log" 2>&1; then
	ok "every patch of series.conf applies in order"
else
	not_ok "every patch of series.conf applies in order"
	diag "$OUT/tree.log"
	diag "$OUT/series.log"
	echo "1..$n"
	exit 1
fi

# New C files of the series, as Linux paths: kernel-doc and sparse targets.
mapfile -t new_sources < <(awk '$1 != "patch" && $1 !~ /^#/ && NF == 2 && $2 ~ /\.[ch]$/ { print $2 }' \
	"$TOP/series.conf")

# (a) checkpatch on each patch; findings are matched against the allow-list.
for p in "$BUILD"/series/[0-9][0-9][0-9][0-9]-*.patch; do
	case $p in */0000-cover-letter.patch) continue ;; esac
	name=${p##*/}
	(cd "$TREE" && scripts/checkpatch.pl --strict --show-types --no-color --no-summary \
		--quiet "$p") > "$OUT/$name.checkpatch" 2>&1
	python3 - "$OUT/$name.checkpatch" "$ALLOW" > "$OUT/$name.findings" <<'PY'
import fnmatch, re, sys
report, allow_file = sys.argv[1], sys.argv[2]
allow = []
for line in open(allow_file):
    line = line.strip()
    if line and not line.startswith('#'):
        kind, glob, why = (line.split(None, 2) + ['', ''])[:3]
        if not why:
            sys.exit('%s: no justification: %s' % (allow_file, line))
        allow.append((kind, glob))
# Findings are blank-line separated blocks: "LEVEL:TYPE: message", then
# "#N: FILE: path:line:" when the finding is in a file.
for block in open(report).read().split('\n\n'):
    block = block.strip('\n')
    m = re.match(r'(ERROR|WARNING|CHECK):([A-Z0-9_]+):', block)
    if not m:
        if block.strip():
            print(block)    # anything else checkpatch says is a failure too
        continue
    f = re.search(r'^#\d+: FILE: ([^:]+):', block, re.M)
    path = f.group(1) if f else '-'
    if not any(m.group(2) == k and fnmatch.fnmatch(path, g) for k, g in allow):
        print(block + '\n')
PY
	if [ -s "$OUT/$name.findings" ]; then
		not_ok "checkpatch --strict: $name"
		diag "$OUT/$name.findings"
	else
		ok "checkpatch --strict: $name"
	fi
done

# (b) kernel-doc on the new headers and sources.
(cd "$TREE" && scripts/kernel-doc -none -Wall "${new_sources[@]}") > "$OUT/kernel-doc.log" 2>&1
if [ -s "$OUT/kernel-doc.log" ]; then
	not_ok "kernel-doc -Wall: new headers and sources"
	diag "$OUT/kernel-doc.log"
else
	ok "kernel-doc -Wall: new headers and sources"
fi

# Every sysctl a new source registers under "kernel" is documented.
mapfile -t sysctl_sources < <(cd "$TREE" && grep -l 'register_sysctl_init("kernel"' "${new_sources[@]}")
if [ ${#sysctl_sources[@]} -gt 0 ]; then
	(cd "$TREE" && scripts/check-sysctl-docs -vtable=kernel \
		Documentation/admin-guide/sysctl/kernel.rst "${sysctl_sources[@]}") |
		grep '^\* ' | grep -v '(documented)$' > "$OUT/sysctl-docs.log"
	if [ -s "$OUT/sysctl-docs.log" ]; then
		not_ok "new kernel.* sysctls documented in admin-guide/sysctl/kernel.rst"
		diag "$OUT/sysctl-docs.log"
	else
		ok "new kernel.* sysctls documented in admin-guide/sysctl/kernel.rst"
	fi
fi

# The .rst files the series adds or changes build without a warning, with
# the kernel's Sphinx configuration and kernel-doc extension.  index.rst
# files are left out: alone they only produce warnings about their siblings.
mapfile -t docs < <(git -C "$TREE" diff --name-only --diff-filter=AM base series -- \
	'Documentation/*.rst' | grep -v '/index\.rst$')
if [ ${#docs[@]} -gt 0 ]; then
	# 7.x's extensions want a Documentation/ directory with MAINTAINERS
	# beside it.
	src=$OUT/sphinx/Documentation
	rm -rf "$src" && mkdir -p "$src"
	cp "$TREE/MAINTAINERS" "$OUT/sphinx/"
	# 6.x runs the perl kernel-doc named here; 7.x has it built in.
	kdoc_bin=()
	grep -q kerneldoc_bin "$TREE/Documentation/conf.py" &&
		kdoc_bin=(-D kerneldoc_bin="$TREE/scripts/kernel-doc")
	printf 'user_booted lint\n================\n\n.. toctree::\n\n' > "$src/index.rst"
	for d in "${docs[@]}"; do
		mkdir -p "$src/$(dirname "${d#Documentation/}")"
		cp "$TREE/$d" "$src/${d#Documentation/}"
		d=${d#Documentation/}
		echo "   ${d%.rst}" >> "$src/index.rst"
	done
	srctree=$TREE sphinx-build -q -b html -c "$TREE/Documentation" -d "$OUT/sphinx/doctrees" \
		-D kerneldoc_srctree="$TREE" "${kdoc_bin[@]}" \
		"$src" "$OUT/sphinx/html" 2>&1 |
		grep -v -e 'dot(1) not found' -e '^Using alabaster theme' > "$OUT/sphinx.log"
	if [ -s "$OUT/sphinx.log" ]; then
		not_ok "Sphinx: ${docs[*]}"
		diag "$OUT/sphinx.log"
	else
		ok "Sphinx: ${docs[*]}"
	fi
fi

# W=1 and sparse on the series' objects, in a kernel's configured QEMU
# build directory (w1_sparse KERNEL): optional, skipped when it is not
# configured or while another make uses it.
w1_sparse() {
	local k=$1 tree=$BUILD/linux-$1 obj=$BUILD/obj-$1-qemu ks='' on='' objs o f keep rc
	[ "$k" = "$KERNEL" ] || ks=-$k on=" ($k)"
	if [ ! -f "$obj/.config" ]; then
		ok "# SKIP W=1 C=2$on: $obj not configured (make kernel)"
	elif ! command -v sparse > /dev/null; then
		ok "# SKIP W=1 C=2$on: sparse not installed (apt-get install sparse)"
	elif pgrep -f "O=$obj" > /dev/null; then
		ok "# SKIP W=1 C=2$on: a build is running in $obj"
	else
		# Every kernel object of a C file the series adds or changes that
		# this configuration builds (its object is there), RCU's other
		# users of kernel/rcu/rcu.h, which the series changes, and the
		# unit that #includes kernel/sched/isolation.c (7.3's hook).
		objs=()
		while read -r f; do
			[ -e "$obj/${f%.c}.o" ] && objs+=("${f%.c}.o")
		done < <(git -C "$tree" diff --name-only base series -- '*.c' ':!tools/' ':!scripts/')
		for o in kernel/rcu/tree.o kernel/rcu/srcutree.o kernel/sched/build_utility.o; do
			[ -e "$obj/$o" ] && ! grep -qxF "$o" < <(printf '%s\n' "${objs[@]}") && objs+=("$o")
		done
		if [ ${#objs[@]} -eq 0 ]; then
			ok "# SKIP W=1 C=2$on: no object of the series built yet in $obj (make kernel)"
			return
		fi
		# The objects and their .cmd files as the normal build made them: put
		# back afterwards, or the next make kernel (make run) would see W=1's
		# command lines, rebuild them and relink everything.
		keep=$(mktemp -d)
		for o in "${objs[@]}"; do
			for f in "$o" "$(dirname "$o")/.$(basename "$o").cmd"; do
				[ -e "$obj/$f" ] && mkdir -p "$keep/$(dirname "$f")" && cp -p "$obj/$f" "$keep/$f"
			done
		done
		timeout 600 make -s -C "$tree" O="$obj" CC="$KCC" W=1 C=2 "${objs[@]}" \
			> "$OUT/w1-sparse$ks.log" 2>&1
		rc=$?
		cp -pr "$keep/." "$obj/" && rm -rf "$keep"
		# Upstream RCU files have sparse warnings of their own (context
		# imbalances): only findings on lines the series adds count.
		git -C "$tree" diff -U0 base series > "$OUT/series$ks.diff"
		python3 - "$tree" "$OUT/series$ks.diff" "$OUT/w1-sparse$ks.log" > "$OUT/w1-sparse$ks.findings" <<-'PY'
	import re, sys
	tree, diff, log = sys.argv[1].rstrip('/') + '/', sys.argv[2], sys.argv[3]
	added, path = {}, None
	for line in open(diff):
	    if line.startswith('+++ '):
	        path = line[6:].strip() if line.startswith('+++ b/') else None
	        added.setdefault(path, set())
	    m = re.match(r'@@ -\S+ \+(\d+)(?:,(\d+))? @@', line)
	    if m and path:
	        start, count = int(m.group(1)), int(m.group(2) or 1)
	        added[path].update(range(start, start + count))
	for line in open(log):
	    m = re.match(r'(\S+?):(\d+):(?:\d+:)? (warning|error):', line)
	    if m:
	        f = m.group(1).replace(tree, '')
	        if int(m.group(2)) in added.get(f, ()):
	            print(line, end='')
	    elif 'error' in line.lower():
	        print(line, end='')
	PY
		if [ $rc -ne 0 ] || [ -s "$OUT/w1-sparse$ks.findings" ]; then
			not_ok "W=1 C=2$on: ${objs[*]}"
			diag "$OUT/w1-sparse$ks.findings"
			[ $rc -eq 0 ] || diag "$OUT/w1-sparse$ks.log"
		else
			ok "W=1 C=2$on: ${objs[*]}"
		fi
	fi
}
w1_sparse "$KERNEL"

# The backports make test boots (lib.sh's KERNEL_BACKPORTS): every variant
# applies in order (an edit to a base patch's context or a new file can
# break them), kernel-doc on their versions of the new files, W=1 C=2 of
# their objects where their QEMU kernel is configured.  Their checkpatch
# and Sphinx are left out: the patches sent are the base's.
if [ "$KERNEL" = "$KERNEL_MAIN" ]; then
	for k in $KERNEL_BACKPORTS; do
		need_packages "linux-source-$k" || exit 1
		if ! KERNEL=$k "$TOP/scripts/tree.sh" > "$OUT/tree-$k.log" 2>&1; then
			not_ok "every $k variant applies in order (KERNEL=$k scripts/tree.sh)"
			diag "$OUT/tree-$k.log"
			continue
		fi
		ok "every $k variant applies in order (KERNEL=$k scripts/tree.sh)"
		(cd "$BUILD/linux-$k" && scripts/kernel-doc -none -Wall "${new_sources[@]}") \
			> "$OUT/kernel-doc-$k.log" 2>&1
		if [ -s "$OUT/kernel-doc-$k.log" ]; then
			not_ok "kernel-doc -Wall ($k): new headers and sources"
			diag "$OUT/kernel-doc-$k.log"
		else
			ok "kernel-doc -Wall ($k): new headers and sources"
		fi
		w1_sparse "$k"
	done
fi

echo "1..$n"
[ "$failed" -eq 0 ]
