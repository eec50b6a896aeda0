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
	src=$OUT/sphinx/src
	mkdir -p "$src"
	printf 'user_booted lint\n================\n\n.. toctree::\n\n' > "$src/index.rst"
	for d in "${docs[@]}"; do
		mkdir -p "$src/$(dirname "${d#Documentation/}")"
		cp "$TREE/$d" "$src/${d#Documentation/}"
		d=${d#Documentation/}
		echo "   ${d%.rst}" >> "$src/index.rst"
	done
	sphinx-build -q -b html -c "$TREE/Documentation" -d "$OUT/sphinx/doctrees" \
		-D kerneldoc_srctree="$TREE" -D kerneldoc_bin="$TREE/scripts/kernel-doc" \
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
	# The series' own objects, if configured, and the RCU files it patches.
	objs=(kernel/user_booted.o kernel/rcu/update.o)
	enabled() { grep -qE "^$1=[ym]" "$OBJ/.config"; }
	enabled CONFIG_USER_BOOTED_KUNIT_TEST && objs+=(kernel/user_booted_test.o)
	enabled CONFIG_SAMPLE_USER_BOOTED && objs+=(samples/user_booted/user_booted_subscriber.o)
	enabled CONFIG_TREE_RCU && objs+=(kernel/rcu/tree.o)
	enabled CONFIG_TREE_SRCU && objs+=(kernel/rcu/srcutree.o)
	timeout 600 make -s -C "$TREE" O="$OBJ" CC="ccache gcc" W=1 C=2 "${objs[@]}" \
		> "$OUT/w1-sparse.log" 2>&1
	rc=$?
	grep -E 'warning:|error:' "$OUT/w1-sparse.log" > "$OUT/w1-sparse.findings"
	if [ $rc -ne 0 ] || [ -s "$OUT/w1-sparse.findings" ]; then
		not_ok "W=1 C=2: ${objs[*]}"
		diag "$OUT/w1-sparse.log"
	else
		ok "W=1 C=2: ${objs[*]}"
	fi
fi

echo "1..$n"
[ "$failed" -eq 0 ]
