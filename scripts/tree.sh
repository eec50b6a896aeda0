#!/bin/bash
# Assemble the patched Linux tree in build/linux-$KERNEL.
#
# The first run extracts Debian's linux-source tarball once and commits it as
# the base.  Every run turns series.conf into one commit per patch of the
# series (new files copied in, patches applied with git apply) and checks the
# last one out.  git only rewrites files whose content changed, so make only
# rebuilds what an edit touched.  KERNEL=6.12 assembles the backport.
set -eu
. "$(dirname "$0")/lib.sh"
# One assembly of a tree at a time (make test prepares the backports' in the
# background; an interrupted run's may still be going).
mkdir -p "$BUILD"
exec 9>"$BUILD/.tree-lock-$KERNEL"
flock 9

# The author matches the Signed-off-by: placeholder of series/*.txt, which
# checkpatch requires (scripts/lint.sh).
export GIT_AUTHOR_NAME="Your Name" GIT_AUTHOR_EMAIL="you@example.org"
export GIT_COMMITTER_NAME="$GIT_AUTHOR_NAME" GIT_COMMITTER_EMAIL="$GIT_AUTHOR_EMAIL"
# Fixed dates: an unchanged step keeps its commit id from run to run.
export GIT_AUTHOR_DATE="2026-01-01T00:00:00Z" GIT_COMMITTER_DATE="2026-01-01T00:00:00Z"

git_tree() { git -C "$TREE" "$@"; }

if ! git_tree rev-parse -q --verify refs/tags/base >/dev/null 2>&1; then
	[ -f "$LINUX_TARBALL" ] || die "$LINUX_TARBALL missing: run scripts/setup.sh"
	log "extracting $LINUX_TARBALL into $TREE (once)"
	rm -rf "$TREE" && mkdir -p "$TREE"
	tar -xf "$LINUX_TARBALL" -C "$TREE" --strip-components=1
	git_tree init -q
	git_tree config core.autocrlf false
	git_tree config gc.auto 0
	git_tree add -A -f  # Debian's .gitignore ignores everything
	git_tree commit -q -m "Debian linux-source-$KERNEL"
	git_tree tag base
fi

# commit_step PARENT SLUG FILE...: one commit of the series on top of PARENT.
commit_step() {
	local parent=$1 slug=$2 src dst blob msg=$TOP/series/$2.txt
	shift 2
	local idx=$BUILD/.series-index-$KERNEL
	GIT_INDEX_FILE=$idx git_tree read-tree "$parent"
	while [ $# -gt 0 ]; do
		src=$1 dst=$2
		shift 2
		if [ "$dst" = - ]; then
			# An empty variant: the step changes nothing on this kernel.
			[ -s "$TOP/$src" ] || continue
			GIT_INDEX_FILE=$idx git_tree apply --cached --whitespace=error-all "$TOP/$src" ||
				die "$src does not apply"
		else
			# The version this step introduces (later steps' changes undone).
			step_file "$slug" "$src" "$dst" > "$idx.file" || die "$src: no version for step $slug"
			blob=$(git_tree hash-object -w "$idx.file")
			GIT_INDEX_FILE=$idx git_tree update-index --add --cacheinfo "100644,$blob,$dst"
		fi
	done
	[ -f "$msg" ] || die "series/$slug.txt missing (commit message for step $slug)"
	GIT_INDEX_FILE=$idx git_tree write-tree | xargs -I{} git -C "$TREE" commit-tree {} -p "$parent" -F "$msg"
}

# Nothing to do when the series' inputs are those of the last run and the
# tree is still checked out clean at its result (a make run after make test
# spends no time here).  The inputs: series.conf, every file it names (and
# this kernel's variants), the messages, and the scripts that assemble them.
inputs() {
	local f
	for f in series.conf scripts/tree.sh scripts/lib.sh series/*.txt \
		$(awk '$1 !~ /^#/ && $1 != "patch" && NF { print $1 }' "$TOP/series.conf") \
		kernel/patches-"$KERNEL"/*.patch; do
		[ -f "$TOP/$f" ] && echo "$f $(git hash-object "$TOP/$f")"
	done
	echo "$KERNEL"
}
stamp=$BUILD/.tree-stamp-$KERNEL
want=$(cd "$TOP" && inputs | sha1sum | cut -c1-40)
if [ "$(cat "$stamp" 2>/dev/null)" = "$want $(git_tree rev-parse -q --verify HEAD)" ] &&
   [ "$(git_tree rev-parse -q --verify series)" = "$(git_tree rev-parse HEAD)" ] &&
   [ -z "$(git_tree status --porcelain -uno)" ]; then
	echo "$TREE"
	exit 0
fi

head=$(git_tree rev-parse base)
slug= files=()
while read -r a b _; do
	case $a in ''|'#'*) continue ;; esac
	if [ "$a" = patch ]; then
		[ -n "$slug" ] && head=$(commit_step "$head" "$slug" "${files[@]}")
		slug=$b files=()
	else
		# Another kernel: kernel/patches-$KERNEL/NAME.patch, where it exists,
		# replaces kernel/patches/NAME.patch (other context, and the
		# adaptations of the step's new files to that kernel's APIs).
		variant=${a/#kernel\/patches\//kernel/patches-$KERNEL/}
		[ -z "$b" ] && [ "$KERNEL" != "$KERNEL_MAIN" ] && [ -f "$TOP/$variant" ] && a=$variant
		files+=("$a" "${b:--}")
	fi
done < "$TOP/series.conf"
[ -n "$slug" ] && head=$(commit_step "$head" "$slug" "${files[@]}")

git_tree update-ref refs/heads/series "$head"
git_tree checkout -q -f --detach series
echo "$want $head" > "$stamp"
echo "$TREE"
