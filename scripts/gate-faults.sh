#!/bin/bash
# make gate-faults: each gate fails on the fault it is there to catch.  Each
# fault goes into a scratch copy, build/gate-faults/NAME (a clone of this
# repository's HEAD, its build/ sharing the kernel trees' git objects), never
# into the repository or build/linux-*; the real gate then runs there:
#
#   variant  kernel/Kconfig.user_booted's help reworded ("Lets init tell" ->
#            "Lets init inform"), a line kernel/patches-6.12/user-booted-core
#            .patch has as context (such an edit once broke the backports):
#            make lint must say "not ok N - every 6.12 variant applies"
#   w1       an unused file-scope const in kernel/user_booted.c:
#            -Wunused-const-variable, a warning only W=1 enables: make
#            robot's w1 (ROBOT_CONFIGS="full w1" ROBOT_OBJECTS=1) must say
#            "W=1 warnings the pristine tree does not have", naming it
#   prefix   the series' first patch calls, in include/linux/user_booted.h,
#            a function no patch defines, and its second patch takes the
#            call out: the series builds, its first prefix does not; make
#            bisect-check (UPTO=user-booted-core) must say "not ok 1"
#
# A case passes when its gate exits non-zero for that fault and no other
# reason.  TAP lines, then "N passed, N failed".  Not part of make test
# (each case configures and builds kernels).  The gates are those of the
# last commit (the clones take HEAD, not uncommitted edits); each run
# starts its scratch copies afresh.
#   GATE_FAULTS="variant w1 prefix"   the cases to run, in this order
set -u
. "$(dirname "$0")/lib.sh"
# The compiler's messages with ASCII quotes (kbuild unexports LC_ALL: gcc
# reads LANG/LC_CTYPE); the checks below accept either kind of quote.
export LC_ALL=C LANG=C LC_CTYPE=C LC_MESSAGES=C
q="[^ ]*"	# a quote, ASCII or not
# No git command below may reach this repository from a scratch copy.
export GIT_CEILING_DIRECTORIES=$BUILD/gate-faults
[ "$KERNEL" = "$KERNEL_MAIN" ] || die "make gate-faults checks the gates of the series as sent ($KERNEL_MAIN)"
[ -d "$TREE/.git" ] || die "no series tree: make tree first"

ALL="variant w1 prefix"
CASES=${GATE_FAULTS:-$ALL}
for c in $CASES; do
	case " $ALL " in *" $c "*) ;; *) die "unknown gate fault $c (one of: $ALL)" ;; esac
done
n=0 passed=0 failed=0
result() {
	n=$((n + 1))
	if [ "$1" = ok ]; then
		passed=$((passed + 1))
		echo "ok $n - $2"
	else
		failed=$((failed + 1))
		echo "not ok $n - $2"
	fi
}

# scratch NAME: build/gate-faults/NAME, a clone of HEAD whose build/ has the
# downloaded packages and clones of the assembled trees (objects shared,
# nothing checked out until tree.sh does).
scratch() {
	local s=$BUILD/gate-faults/$1 k
	rm -rf "$s"
	git clone -q "$TOP" "$s" >&2 || return 1
	git -C "$s" config user.name "$(git -C "$TOP" config user.name || echo gate-faults)"
	git -C "$s" config user.email "$(git -C "$TOP" config user.email || echo gate-faults@localhost)"
	mkdir -p "$s/build"
	ln -s "$BUILD/debs" "$s/build/debs"
	for k in $KERNEL_MAIN $KERNEL_BACKPORTS; do
		[ -d "$BUILD/linux-$k/.git" ] || continue
		git clone -q -s -n "$BUILD/linux-$k" "$s/build/linux-$k" >&2 || return 1
		git -C "$s/build/linux-$k" config gc.auto 0
	done
	echo "$s"
}
# commit_fault DIR WHAT: the fault, committed in the scratch clone (and
# nowhere else); an edit that changed nothing is an error.
commit_fault() {
	! git --git-dir="$1/.git" --work-tree="$1" diff --quiet || return 1
	git --git-dir="$1/.git" --work-tree="$1" commit -q -a -m "gate-faults: $2"
}

variant() {
	local s log t0=$SECONDS what="make lint fails on a 6.12 variant that no longer applies, and on nothing else"
	s=$(scratch variant) || { result "not ok" "$what: no scratch copy"; return; }
	sed -i 's/Lets init tell the kernel/Lets init inform the kernel/' "$s/kernel/Kconfig.user_booted"
	commit_fault "$s" "reword kernel/Kconfig.user_booted's help" ||
		{ result "not ok" "$what: the fault changed nothing"; return; }
	log=$s/lint.out
	(unset BUILD; "$s/scripts/lint.sh") >"$log" 2>&1
	local rc=$? bad
	bad=$(grep '^not ok' "$log" || true)
	echo "# variant: make lint exit $rc in $((SECONDS - t0)) s; its failures:"
	sed 's/^/#   /' <<<"$bad"
	grep -A3 "^not ok .*every 6.12 variant applies" "$log" | grep '^#' | sed 's/^/#   /'
	# The one failure, in the reworded file of the variant of patch 1.
	if [ "$rc" -ne 0 ] && [ "$(grep -c . <<<"$bad")" -eq 1 ] &&
		grep -q "every 6.12 variant applies in order" <<<"$bad" &&
		grep -q "patch failed: kernel/Kconfig.user_booted:" "$log" &&
		grep -q "kernel/patches-6.12/user-booted-core.patch does not apply" "$log"; then
		result ok "$what (${log#"$TOP"/})"
	else
		result "not ok" "$what (${log#"$TOP"/})"
	fi
}

w1() {
	local s log t0=$SECONDS what="make robot's w1 fails on one new W=1 warning, the fault's"
	s=$(scratch w1) || { result "not ok" "$what: no scratch copy"; return; }
	printf '\n/* gate-faults: W=1 only (-Wunused-const-variable) */\nstatic const int user_booted_gate_fault = 1;\n' \
		>>"$s/kernel/user_booted.c"
	commit_fault "$s" "an unused const in kernel/user_booted.c" ||
		{ result "not ok" "$what: the fault changed nothing"; return; }
	log=$s/robot.out
	(unset BUILD; ROBOT_CONFIGS="full w1" ROBOT_OBJECTS=1 "$s/scripts/robot.sh") >"$log" 2>&1
	local rc=$? new=$s/build/robot/w1-new.log
	echo "# w1: make robot exit $rc in $((SECONDS - t0)) s:"
	grep -E '^(ok|not ok) ' "$log" | sed 's/^/#   /'
	[ -f "$new" ] && sed 's/^/#   new: /' "$new"
	if [ "$rc" -ne 0 ] && grep -q "^not ok .* w1: W=1 warnings the pristine tree does not have" "$log" &&
		[ "$(grep -c . "$new" 2>/dev/null)" = 1 ] &&
		grep -q "^kernel/user_booted.c: warning: ${q}user_booted_gate_fault$q defined but not used \[-Wunused-const-variable=\]" "$new"; then
		result ok "$what (${log#"$TOP"/})"
	else
		result "not ok" "$what (${log#"$TOP"/})"
	fi
}

prefix() {
	local s t log t0=$SECONDS f=include/linux/user_booted.h
	local what="make bisect-check fails on a first prefix that does not build, for that reason"
	s=$(scratch prefix) || { result "not ok" "$what: no scratch copy"; return; }
	t=$s/build/linux-$KERNEL_MAIN
	(unset BUILD; "$s/scripts/tree.sh") >"$s/tree.out" 2>&1 ||
		{ result "not ok" "$what: scripts/tree.sh failed (${s#"$TOP"/}/tree.out)"; return; }
	# The series again, commit by commit with the same trees, but the
	# first one's header with the call (so the second takes it out).
	local GIT_AUTHOR_NAME="Your Name" GIT_AUTHOR_EMAIL="you@example.org"
	local GIT_COMMITTER_NAME="$GIT_AUTHOR_NAME" GIT_COMMITTER_EMAIL="$GIT_AUTHOR_EMAIL"
	export GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL
	local parent c tree blob idx=$s/build/.gate-index first=1
	parent=$(git -C "$t" rev-parse base)
	for c in $(git -C "$t" rev-list --reverse base..series); do
		tree=$(git -C "$t" rev-parse "$c^{tree}")
		if [ -n "$first" ]; then
			blob=$(git -C "$t" show "$c:$f" | sed '$i\
/* gate-faults: a helper that only a later patch would add */\
static inline void user_booted_gate_fault(void) { user_booted_gate_fault_helper(); }\
' | git -C "$t" hash-object -w --stdin)
			GIT_INDEX_FILE=$idx git -C "$t" read-tree "$tree"
			GIT_INDEX_FILE=$idx git -C "$t" update-index --cacheinfo "100644,$blob,$f"
			tree=$(GIT_INDEX_FILE=$idx git -C "$t" write-tree)
			first=
		fi
		parent=$(git -C "$t" log -1 --format=%B "$c" | git -C "$t" commit-tree "$tree" -p "$parent")
	done
	[ "$(git -C "$t" rev-parse "$parent^{tree}")" = "$(git -C "$t" rev-parse "series^{tree}")" ] ||
		{ result "not ok" "$what: the rewritten series does not end at the series' tree"; return; }
	git -C "$t" update-ref refs/heads/series "$parent"
	log=$s/bisect.out
	(unset BUILD; UPTO=user-booted-core "$s/scripts/bisect-check.sh") >"$log" 2>&1
	local rc=$? blog=$s/build/obj-$KERNEL_MAIN-bisect/build-1.log
	echo "# prefix: make bisect-check (UPTO=user-booted-core) exit $rc in $((SECONDS - t0)) s:"
	sed 's/^/#   /' "$log"
	grep "error:" "$blog" 2>/dev/null | sort -u | sed 's/^/#   /'
	# Every compiler error in prefix 1's build is the fault's.
	if [ "$rc" -ne 0 ] && grep -q "^not ok 1 - builds: " "$log" &&
		grep -q "error: implicit declaration of function ${q}user_booted_gate_fault_helper$q" "$blog" &&
		! grep "error:" "$blog" | grep -qv "user_booted_gate_fault_helper"; then
		result ok "$what (${log#"$TOP"/})"
	else
		result "not ok" "$what (${log#"$TOP"/})"
	fi
}

for c in $CASES; do
	"$c"
done
echo "1..$n"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
