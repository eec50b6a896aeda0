#!/bin/bash
# make lint: the quality gates of the exported series, as TAP lines.
# Exits non-zero if any gate fails.
#
#   - every patch of series.conf applies in order (scripts/tree.sh)
#   - checkpatch.pl --strict is clean on every patch, except for findings
#     that series/checkpatch-allow.txt lists with a justification
#   - kernel-doc -Wall is clean on the new headers and sources
#   - every new sysctl is documented (scripts/check-sysctl-docs)
#   - the documentation the series adds or changes builds without a
#     Sphinx warning
#   - optional, when build/obj-$KERNEL-qemu is configured and no other make
#     runs there: a W=1 C=2 (sparse) build of the series' objects
set -u
. "$(dirname "$0")/lib.sh"

# Debian's tools first: checkpatch's SPDX check needs python3-ply and
# python3-git, which a pyenv python3 earlier in PATH would not see.
export PATH=/usr/bin:/bin:$PATH

LINT_PACKAGES=(python3-ply python3-git gawk python3-sphinx)
OBJ=$BUILD/obj-$KERNEL-qemu
ALLOW=$TOP/series/checkpatch-allow.txt
OUT=$BUILD/lint
n=0 failed=0

ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)) failed=$((failed + 1)); echo "not ok $n - $*"; }
# diag FILE: show a failure's details as TAP comments.
diag() { sed 's/^/# /' "$1"; }

need_packages "${LINT_PACKAGES[@]}" || exit 1
rm -rf "$OUT" && mkdir -p "$OUT"

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

# Optional: W=1 and sparse on the series' objects, in the configured QEMU
# build directory.  Skipped while another make uses it.
if [ ! -f "$OBJ/.config" ]; then
	ok "# SKIP W=1 C=2: $OBJ not configured (make kernel)"
elif ! command -v sparse > /dev/null; then
	ok "# SKIP W=1 C=2: sparse not installed (apt-get install sparse)"
elif pgrep -f "O=$OBJ" > /dev/null; then
	ok "# SKIP W=1 C=2: a build is running in $OBJ"
else
	# The RCU files the series patches, and its new kernel objects that
	# this configuration builds ("obj-y" or "obj-$(CONFIG_FOO)" enabled).
	enabled() { grep -qE "^CONFIG_$1=[ym]" "$OBJ/.config"; }
	objs=(kernel/rcu/update.o)
	enabled TREE_RCU && objs+=(kernel/rcu/tree.o)
	enabled TREE_SRCU && objs+=(kernel/rcu/srcutree.o)
	for f in "${new_sources[@]}"; do
		[ "${f%.c}" != "$f" ] || continue
		o=${f##*/}
		o=${o%.c}.o
		rule=$(grep -E "^obj-.*\+=.*[[:space:]/]${o//./\\.}([[:space:]]|\$)" \
			"$TREE/$(dirname "$f")/Makefile" 2>/dev/null | head -n 1)
		# shellcheck disable=SC2016 # a literal "$(CONFIG_"
		case $rule in
		obj-y*) objs+=("${f%.c}.o") ;;
		'obj-$(CONFIG_'*)
			cfg=${rule#'obj-$(CONFIG_'}
			enabled "${cfg%%)*}" && objs+=("${f%.c}.o") ;;
		esac
	done
	# The objects and their .cmd files as the normal build made them: put
	# back afterwards, or the next make kernel (make run) would see W=1's
	# command lines, rebuild them and relink everything.
	keep=$(mktemp -d)
	for o in "${objs[@]}"; do
		for f in "$o" "$(dirname "$o")/.$(basename "$o").cmd"; do
			[ -e "$OBJ/$f" ] && mkdir -p "$keep/$(dirname "$f")" && cp -p "$OBJ/$f" "$keep/$f"
		done
	done
	timeout 600 make -s -C "$TREE" O="$OBJ" CC="ccache gcc" W=1 C=2 "${objs[@]}" \
		> "$OUT/w1-sparse.log" 2>&1
	rc=$?
	cp -pr "$keep/." "$OBJ/" && rm -rf "$keep"
	# Upstream RCU files have sparse warnings of their own (context
	# imbalances): only findings on lines the series adds count.
	git -C "$TREE" diff -U0 base series > "$OUT/series.diff"
	python3 - "$TREE" "$OUT/series.diff" "$OUT/w1-sparse.log" > "$OUT/w1-sparse.findings" <<'PY'
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
	if [ $rc -ne 0 ] || [ -s "$OUT/w1-sparse.findings" ]; then
		not_ok "W=1 C=2: ${objs[*]}"
		diag "$OUT/w1-sparse.findings"
		[ $rc -eq 0 ] || diag "$OUT/w1-sparse.log"
	else
		ok "W=1 C=2: ${objs[*]}"
	fi
fi

echo "1..$n"
[ "$failed" -eq 0 ]
