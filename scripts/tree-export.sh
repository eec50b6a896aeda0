#!/bin/bash
# The way back from tree.sh: after editing the series in build/linux-$KERNEL
# (one commit per series.conf step, on top of tag base, same subjects or
# not: steps are taken in order), write each step back into the repository.
#
# KERNEL=7.3 (the base): new files are copied back as the last step has
# them, and the step's changes to upstream files (and to new files of an
# earlier step) become kernel/patches/SLUG.patch; tree.sh undoes a later
# step's changes to give each step its version of a new file (step_file).
# The backport (KERNEL=6.12): new files stay as the base has them; the
# step's changes to upstream files and to those new files become
# kernel/patches-$KERNEL/SLUG.patch, or no variant if the base patch is
# exactly what the step did, or an empty variant if the step changes
# nothing on that kernel.
set -eu
. "$(dirname "$0")/lib.sh"
git_tree() { git -C "$TREE" "$@"; }

mapfile -t slugs < <(awk '$1 == "patch" { print $2 }' "$TOP/series.conf")
mapfile -t commits < <(git_tree rev-list --reverse base..HEAD)
[ ${#slugs[@]} -eq ${#commits[@]} ] ||
	die "$TREE has ${#commits[@]} commits above base, series.conf ${#slugs[@]} steps"

# New files are copied back from the tree: never over uncommitted edits.
[ "$KERNEL" != "$KERNEL_MAIN" ] || [ -z "$(git -C "$TOP" status --porcelain -- kernel selftests uapi Documentation | grep -v '^ M kernel/patches')" ] ||
	die "uncommitted changes to the series' files: commit them first"
idx=$BUILD/.export-index-$KERNEL
for i in "${!slugs[@]}"; do
	slug=${slugs[$i]} c=${commits[$i]}
	mapfile -t new < <(awk -v s="$slug" '$1 == "patch" { cur = $2; next }
		cur == s && NF == 2 && $1 !~ /^#/ { print $1; print $2 }' "$TOP/series.conf")
	# The step's parent with the step's new files as the base's step has them.
	GIT_INDEX_FILE=$idx git_tree read-tree "$c~1"
	excl=()
	for ((j = 0; j < ${#new[@]}; j += 2)); do
		src=${new[j]} dst=${new[j + 1]}
		if [ "$KERNEL" = "$KERNEL_MAIN" ]; then
			# The repository keeps the final version; a later step's
			# changes to the file go into that step's patch.
			git_tree show "${commits[-1]}:$dst" > "$TOP/$src"
			excl+=(":!$dst")
			blob=$(git_tree rev-parse "$c:$dst")
		else
			step_file "$slug" "$src" "$dst" > "$idx.file"
			blob=$(git_tree hash-object -w "$idx.file")
		fi
		GIT_INDEX_FILE=$idx git_tree update-index --add --cacheinfo "100644,$blob,$dst"
	done
	from=$(GIT_INDEX_FILE=$idx git_tree write-tree)
	if [ "$KERNEL" = "$KERNEL_MAIN" ]; then
		out=$TOP/kernel/patches/$slug.patch
	else
		out=$TOP/kernel/patches-$KERNEL/$slug.patch
		mkdir -p "${out%/*}"
	fi
	git_tree diff --no-renames "$from" "$c" -- . "${excl[@]}" > "$out.tmp"
	if [ "$KERNEL" != "$KERNEL_MAIN" ] && [ -f "$TOP/kernel/patches/$slug.patch" ] &&
	   (GIT_INDEX_FILE=$idx git_tree apply --cached "$TOP/kernel/patches/$slug.patch" 2>/dev/null) &&
	   [ "$(GIT_INDEX_FILE=$idx git_tree write-tree)" = "$(git_tree rev-parse "$c^{tree}")" ]; then
		rm -f "$out" "$out.tmp"	# the base patch does it: no variant
	elif [ -s "$out.tmp" ]; then
		mv "$out.tmp" "$out"
	elif [ "$KERNEL" != "$KERNEL_MAIN" ] && [ -f "$TOP/kernel/patches/$slug.patch" ]; then
		mv "$out.tmp" "$out"	# empty: the step changes nothing on this kernel
	else
		rm -f "$out" "$out.tmp"
	fi
done
rm -f "$idx" "$idx.file"
git -C "$TOP" status --short -- kernel selftests uapi Documentation
