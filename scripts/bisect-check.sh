#!/bin/bash
# make bisect-check: build every prefix of the series (qemu flavour, with the
# series' Kconfig options on), so that each patch is known to build on its own.
# Uses its own worktree and object directory; ccache keeps it to minutes.
# Each prefix's image is kept as build/bzImage-upto-SLUG (the benchmark boots
# the series without its later subscribers this way); UPTO=SLUG stops there.
set -eu
. "$(dirname "$0")/lib.sh"

wt=$BUILD/bisect-$KERNEL obj=$BUILD/obj-$KERNEL-bisect
[ -d "$wt" ] || git -C "$TREE" worktree add -q --detach "$wt" base
export KBUILD_BUILD_TIMESTAMP="2026-01-01" KBUILD_BUILD_USER=user_booted KBUILD_BUILD_HOST=qemu
export CCACHE_BASEDIR=$BUILD
mkdir -p "$obj"
mapfile -t slugs < <(awk '$1 == "patch" { print $2 }' "$TOP/series.conf")
[ "$(git -C "$TREE" rev-list --count base..series)" -eq ${#slugs[@]} ] ||
	die "$TREE's series branch does not match series.conf: run make tree"
n=0 failed=0
for c in $(git -C "$TREE" rev-list --reverse base..series); do
	n=$((n + 1))
	subject=$(git -C "$TREE" log -1 --format=%s "$c")
	git -C "$wt" checkout -q -f --detach "$c"
	make -s -C "$wt" O="$obj" tinyconfig >/dev/null
	KCONFIG_CONFIG=$obj/.config "$wt/scripts/kconfig/merge_config.sh" -m -O "$obj" \
		"$obj/.config" $(config_fragments qemu) >/dev/null 2>&1
	make -s -C "$wt" O="$obj" olddefconfig >/dev/null
	if make -s -C "$wt" O="$obj" CC=$KCC -j"$(nproc)" bzImage modules \
		>"$obj/build-$n.log" 2>&1; then
		echo "ok $n - builds: $subject"
		cp "$obj/arch/x86/boot/bzImage" "$BUILD/bzImage-upto-${slugs[n - 1]}$KSUFFIX"
	else
		echo "not ok $n - builds: $subject (see $obj/build-$n.log)"
		failed=$((failed + 1))
	fi
	[ "${slugs[n - 1]}" = "${UPTO:-}" ] && break
done
[ "$failed" -eq 0 ]
