#!/bin/bash
# make robot: what the kernel test robot does with a posted series, before it
# is posted.  The exported series (make series: build/series/) is applied
# with git am onto the pristine tree (tag base, a worktree of build/linux-7.3
# of its own), and built in the configurations below, each in its own
# build/robot/NAME (ccache); a build must succeed with no compiler warning
# in the series' files.  Then W=1 on every object the series touches, with
# no warning the pristine tree's same objects do not have, and every prefix
# of the series builds (scripts/bisect-check.sh).  Sparse (C=2) and
# kernel-doc are make lint's.  Stops at the first failure; prints TAP lines
# and a summary.  Not part of make test.
#
#   allnoconfig  x86_64 allnoconfig: the stubs (no USER_BOOTED)
#   small        tinyconfig + configs/robot-small.config: core and sysctl,
#                uniprocessor (Tiny RCU), no PM, modules, regulator, tracing
#   full         + configs/robot-full.config + robot-nohz.config: modules,
#                the KUnit test and the samples as modules, PM sleep,
#                regulator, driver core, tracing, Tree RCU, nohz_full
#   w1           W=1 on the series' objects in full's build, against the
#                same objects of the pristine tree (build/robot/w1-base)
#   rt           full + configs/robot-rt.config (PREEMPT_RT)
#   i386         ARCH=i386 tinyconfig + small + full
#   arm64        ARCH=arm64 tinyconfig + small + full + nohz, cross-built
#                (gcc-aarch64-linux-gnu, installed here when missing)
#   bisect       scripts/bisect-check.sh: every prefix builds (qemu config)
#
# ROBOT_CONFIGS="small full w1" runs some of them, in the order given (w1
# needs full's build).  ROBOT_OBJECTS=1, quicker and weaker: each
# configuration builds only the series' objects it enables (no link, no
# other object), not the robot's check.  The base kernel only: the
# series sent is 7.3's.
set -u
. "$(dirname "$0")/lib.sh"
[ "$KERNEL" = "$KERNEL_MAIN" ] || die "make robot builds the series as sent ($KERNEL_MAIN), not KERNEL=$KERNEL"

# Debian's python3 first: Kconfig's and kbuild's probes of it through a
# pyenv shim cost seconds each on a loaded machine.
export PATH=/usr/bin:/bin:$PATH

ALL="allnoconfig small full w1 rt i386 arm64 bisect"
CONFIGS=${ROBOT_CONFIGS:-$ALL}
for c in $CONFIGS; do
	grep -qw -- "$c" <<<"$ALL" || die "unknown robot configuration $c (one of: $ALL)"
done
R=$BUILD/robot
SRC=$R/src BASE_SRC=$R/src-base
mkdir -p "$R"

# Reproducible inputs and the compiler cache, as build-kernel.sh has them.
export KBUILD_BUILD_TIMESTAMP="2026-01-01" KBUILD_BUILD_USER=user_booted KBUILD_BUILD_HOST=robot
export CCACHE_BASEDIR=$BUILD CCACHE_MAXSIZE=5G
export CCACHE_SLOPPINESS=time_macros,include_file_mtime,include_file_ctime

n=0 passed=0 t_all=$SECONDS
summary=()
# result NAME STATUS SECONDS WHAT: one TAP line, kept for the summary.
result() {
	n=$((n + 1))
	local line
	if [ "$2" = ok ]; then
		line="ok $n - $1: $4 ($3 s)"
		passed=$((passed + 1))
	else
		line="not ok $n - $1: $4 ($3 s)"
	fi
	echo "$line"
	summary+=("$line")
}
finish() {
	local c left=() seen=
	for c in $CONFIGS; do
		[ -n "$seen" ] && left+=("$c")
		[ "$c" = "$1" ] && seen=1
	done
	echo "1..$n"
	echo "# make robot: $passed of $n passed in $((SECONDS - t_all)) s${left[*]:+; not run: ${left[*]}}"
}
# fail NAME SECONDS WHAT LOG: the first failure ends the run.
fail() {
	result "$1" "not ok" "$2" "$3"
	[ -z "${4:-}" ] || { echo "# --- $4 (last lines):"; tail -n 40 "$4" | sed 's/^/# /'; }
	echo "# robot: FAILED at $1: $3${4:+ (full log: ${4#"$TOP"/})}" >&2
	finish "$1"
	exit 1
}

# --- The series as sent, applied to the pristine tree --------------------
"$TOP/scripts/tree.sh" > /dev/null || die "scripts/tree.sh failed (make tree)"
"$TOP/scripts/series.sh" > /dev/null || die "scripts/series.sh failed (make series)"
patches=()
for p in "$BUILD"/series/[0-9][0-9][0-9][0-9]-*.patch; do
	case $p in */0000-cover-letter.patch) ;; *) patches+=("$p") ;; esac
done
git -C "$TREE" worktree prune   # make clean removes build/robot
[ -d "$SRC" ] || git -C "$TREE" worktree add -q --detach "$SRC" base
# Applied again only when the patches changed (the files' times would
# make every configuration rebuild what they touch).
# (make series gives each export new Message-Id: and Date: lines.)
applied=$(cat "${patches[@]}" | grep -vE '^(Message-Id|In-Reply-To|References|Date): ' | sha1sum | cut -c1-40)
if [ "$(cat "$R/applied" 2>/dev/null)" = "$applied $(git -C "$SRC" rev-parse HEAD)" ] &&
   [ -z "$(git -C "$SRC" status --porcelain -uno)" ]; then
	result apply ok 0 "the ${#patches[@]} patches of build/series/ as last applied on tag base"
else
	rm -f "$R/applied"
	git -C "$SRC" am --abort > /dev/null 2>&1
	git -C "$SRC" checkout -q -f --detach base
	if ! git -C "$SRC" -c user.name=robot -c user.email=robot@localhost am -q --whitespace=error-all \
		"${patches[@]}" > "$R/am.log" 2>&1; then
		git -C "$SRC" am --abort > /dev/null 2>&1
		fail apply 0 "git am of build/series/ on tag base" "$R/am.log"
	fi
	echo "$applied $(git -C "$SRC" rev-parse HEAD)" > "$R/applied"
	result apply ok 0 "git am of ${#patches[@]} patches of build/series/ on tag base"
fi
# The series' files (as Linux paths): a warning there is the series'.
mapfile -t series_files < <(git -C "$SRC" diff --name-only base HEAD)

# series_warnings LOG: the compiler's warnings and errors in the series'
# files (paths as ccache and kbuild print them: relative or absolute).
series_warnings() {
	python3 - "$1" "${series_files[@]}" <<'PY'
import re, sys
log, files = sys.argv[1], sys.argv[2:]
for line in open(log, errors='replace'):
    m = re.match(r'(\S+?):\d+:(?:\d+:)? (warning|error):', line)
    if m and any(m.group(1) == f or m.group(1).endswith('/' + f) for f in files):
        print(line, end='')
PY
}

# enabled_objects CONFIG: the series' kernel objects that a configuration
# builds: each object's rule in its directory's Makefile, and each
# directory's in its parent's (Kbuild at the top), enabled in CONFIG.
enabled_objects() {
	python3 - "$SRC" "$1" "${series_files[@]}" <<'PY'
import os, re, sys
src, config, files = sys.argv[1], sys.argv[2], sys.argv[3:]
on = set(re.findall(r'^CONFIG_(\w+)=[ym]$', open(config).read(), re.M))
def rule_on(makefile, name):
    try:
        text = re.sub(r'\\\n', ' ', open(makefile).read())
    except FileNotFoundError:
        return False
    for line in text.split('\n'):
        m = re.match(r'\s*(?:obj|core|drivers)-(y|\$\(CONFIG_(\w+)\))\s*[:+]?=(.*)', line)
        if m and name in m.group(3).split() and (m.group(1) == 'y' or m.group(2) in on):
            return True
    return False
for f in files:
    if not f.endswith('.c') or f.startswith(('tools/', 'scripts/', 'Documentation/')):
        continue
    parts = f[:-2].split('/')
    ok = rule_on(os.path.join(src, *parts[:-1], 'Makefile'), parts[-1] + '.o')
    for i in range(len(parts) - 1, 0, -1):
        parent = os.path.join(src, *parts[:i - 1], 'Makefile' if i > 1 else 'Kbuild')
        ok = ok and rule_on(parent, parts[i - 1] + '/')
    if ok:
        print(f[:-2] + '.o')
PY
}

# kmake OBJ ARCH CC ARG...: make in the series' tree (CROSS: a cross
# compiler's prefix; Kconfig asks the compiler too).
kmake() {
	local obj=$1 arch=$2 cc=$3
	shift 3
	make -C "$SRC" O="$obj" ARCH="$arch" CC="$cc" ${CROSS:+CROSS_COMPILE=$CROSS} "$@"
}

# configure NAME ARCH CC BASECONFIG FRAGMENT...: .config in build/robot/NAME;
# every fragment line must survive (unless a later fragment sets the
# symbol again), or the configuration is not what it claims to be.
configure() {
	local name=$1 arch=$2 cc=$3 base=$4 obj=$R/$1 i f later line sym
	shift 4
	local frags=("$@")
	mkdir -p "$obj"
	kmake "$obj" "$arch" "$cc" -s "$base" > /dev/null || return 1
	if [ ${#frags[@]} -gt 0 ]; then
		KCONFIG_CONFIG=$obj/.config ARCH=$arch "$SRC/scripts/kconfig/merge_config.sh" -m -O "$obj" \
			"$obj/.config" "${frags[@]}" > "$obj/merge.log" 2>&1 || return 1
		kmake "$obj" "$arch" "$cc" -s olddefconfig > /dev/null || return 1
	fi
	for i in "${!frags[@]}"; do
		f=${frags[$i]}
		later=$(cat "${frags[@]:$((i + 1))}" /dev/null |
			sed -n 's/^\(# \)\{0,1\}CONFIG_\([A-Z0-9_]*\)[= ].*/\2/p')
		while IFS= read -r line; do
			sym=$(sed -n 's/^\(# \)\{0,1\}CONFIG_\([A-Z0-9_]*\)[= ].*/\2/p' <<<"$line")
			! grep -qxF "$sym" <<<"$later" || continue
			if [ "${line#\# }" != "$line" ]; then
				! grep -qE "^CONFIG_$sym=[ym]" "$obj/.config"
			else
				grep -qxF "$line" "$obj/.config"
			fi || { echo "config lacks: $line (${f##*/})"; return 1; }
		done < <(grep -E '^(CONFIG_[A-Z0-9_]+=|# CONFIG_[A-Z0-9_]+ is not set)' "$f")
	done
}

# config_build NAME ARCH CC BASECONFIG FRAGMENT...: configure, build, judge.
config_build() {
	local name=$1 arch=$2 cc=$3 base=$4 t0=$SECONDS msg targets=(vmlinux)
	shift 4
	mkdir -p "$R/$name"
	if ! msg=$(configure "$name" "$arch" "$cc" "$base" "$@" 2>&1); then
		fail "$name" $((SECONDS - t0)) "configuring ($arch $base${*:+ + ${*##*/}}): ${msg:-make $base failed}"
	fi
	grep -q '^CONFIG_MODULES=y' "$R/$name/.config" && targets+=(modules)
	[ "${ROBOT_OBJECTS:-0}" = 0 ] || mapfile -t targets < <(enabled_objects "$R/$name/.config")
	kmake "$R/$name" "$arch" "$cc" -j"$(nproc)" "${targets[@]}" > "$R/$name/build.log" 2>&1 ||
		fail "$name" $((SECONDS - t0)) "build failed ($arch)" "$R/$name/build.log"
	series_warnings "$R/$name/build.log" > "$R/$name/series-warnings.log"
	[ ! -s "$R/$name/series-warnings.log" ] ||
		fail "$name" $((SECONDS - t0)) "warnings in the series' files" "$R/$name/series-warnings.log"
	local ub
	ub=$(grep -E '^CONFIG_USER_BOOTED[A-Z_]*=' "$R/$name/.config" | sed 's/^CONFIG_//' | paste -sd' ')
	local what=builds
	[ "${ROBOT_OBJECTS:-0}" = 0 ] || what="the series' objects build (ROBOT_OBJECTS=1: ${targets[*]:-none})"
	result "$name" ok $((SECONDS - t0)) "$what ($arch; ${ub:-USER_BOOTED off}), no warning in the series' files"
}

# w1: W=1 on the series' objects that full builds, against the pristine
# tree's same objects (those that exist there) in the same configuration.
w1() {
	local t0=$SECONDS full=$R/full wb=$R/w1-base objs=() base_objs=() f o
	[ -f "$full/vmlinux" ] || [ "${ROBOT_OBJECTS:-0}" = 1 ] ||
		fail w1 0 "needs full's build first (ROBOT_CONFIGS=\"full w1\")"
	for f in "${series_files[@]}"; do
		[ "${f%.c}" != "$f" ] || continue
		case $f in tools/*) continue ;; esac   # userspace: not kbuild's
		o=${f%.c}.o
		# Built by this configuration (into vmlinux or a module).
		[ -f "$full/$o" ] || { echo "# w1: $o not built by full's configuration"; continue; }
		objs+=("$o")
		git -C "$SRC" cat-file -e "base:$f" 2> /dev/null && base_objs+=("$o")
	done
	# The series' objects again with W=1 (their .o and .cmd put back after,
	# so that the next robot run does not rebuild them).
	local keep
	keep=$(mktemp -d)
	for o in "${objs[@]}"; do
		for f in "$o" "$(dirname "$o")/.$(basename "$o").cmd"; do
			[ -e "$full/$f" ] && mkdir -p "$keep/$(dirname "$f")" && cp -p "$full/$f" "$keep/$f"
		done
	done
	# W=1's objects are built again even if unchanged: their command line
	# differs.
	make -C "$SRC" O="$full" CC="$KCC" W=1 -j"$(nproc)" "${objs[@]}" > "$R/w1.log" 2>&1
	local rc=$?
	cp -pr "$keep/." "$full/" && rm -rf "$keep"
	[ $rc -eq 0 ] || fail w1 $((SECONDS - t0)) "W=1 build of the series' objects failed" "$R/w1.log"
	# The pristine tree, same configuration (the series' symbols dropped).
	[ -d "$BASE_SRC" ] || git -C "$TREE" worktree add -q --detach "$BASE_SRC" base
	git -C "$BASE_SRC" checkout -q -f --detach base
	mkdir -p "$wb"
	cp "$full/.config" "$wb/.config"
	if ! { make -s -C "$BASE_SRC" O="$wb" olddefconfig > /dev/null &&
		make -C "$BASE_SRC" O="$wb" CC="$KCC" W=1 -j"$(nproc)" "${base_objs[@]}" > "$R/w1-base.log" 2>&1; }; then
		fail w1 $((SECONDS - t0)) "W=1 build of the pristine tree's objects failed" "$R/w1-base.log"
	fi
	# Warnings without their line and column numbers (the series moves
	# lines), paths relative to the tree.
	python3 - "$R/w1.log" "$R/w1-base.log" > "$R/w1-new.log" <<'PY'
import re, sys
def warnings(log):
    out = set()
    for line in open(log, errors='replace'):
        m = re.match(r'(\S+?):\d+:(?:\d+:)? (warning|error): (.*)', line)
        if m:
            # ../src/init/main.c (ccache's CCACHE_BASEDIR), or absolute
            path = re.sub(r'^.*/build/robot/src(-base)?/', '', m.group(1))
            path = re.sub(r'^src(-base)?/', '', re.sub(r'^(\.\./)+', '', path))
            out.add('%s: %s: %s' % (path, m.group(2), m.group(3)))
    return out
new = warnings(sys.argv[1]) - warnings(sys.argv[2])
for w in sorted(new):
    print(w)
PY
	[ ! -s "$R/w1-new.log" ] ||
		fail w1 $((SECONDS - t0)) "W=1 warnings the pristine tree does not have" "$R/w1-new.log"
	result w1 ok $((SECONDS - t0)) "W=1 on ${#objs[@]} objects (${objs[*]}): no warning the pristine tree's ${#base_objs[@]} do not have"
}

for c in $CONFIGS; do
	case $c in
	allnoconfig) config_build allnoconfig x86_64 "$KCC" allnoconfig ;;
	small) config_build small x86_64 "$KCC" tinyconfig "$TOP/configs/robot-small.config" ;;
	full) config_build full x86_64 "$KCC" tinyconfig "$TOP/configs/robot-small.config" \
		"$TOP/configs/robot-full.config" "$TOP/configs/robot-nohz.config" ;;
	w1) w1 ;;
	rt) config_build rt x86_64 "$KCC" tinyconfig "$TOP/configs/robot-small.config" \
		"$TOP/configs/robot-full.config" "$TOP/configs/robot-nohz.config" "$TOP/configs/robot-rt.config" ;;
	i386) config_build i386 i386 "$KCC" tinyconfig "$TOP/configs/robot-small.config" \
		"$TOP/configs/robot-full.config" ;;
	arm64)
		need_packages gcc-aarch64-linux-gnu || exit 1
		CROSS=aarch64-linux-gnu- config_build arm64 arm64 "ccache aarch64-linux-gnu-gcc" tinyconfig \
			"$TOP/configs/robot-small.config" "$TOP/configs/robot-full.config" "$TOP/configs/robot-nohz.config" ;;
	bisect)
		t0=$SECONDS
		"$TOP/scripts/bisect-check.sh" > "$R/bisect.log" 2>&1 ||
			fail bisect $((SECONDS - t0)) "a prefix of the series does not build: $(grep '^not ok' "$R/bisect.log" | head -n 1)" "$R/bisect.log"
		result bisect ok $((SECONDS - t0)) "every prefix builds: $(grep -c '^ok' "$R/bisect.log") of them (make bisect-check)" ;;
	esac
done
finish ""
