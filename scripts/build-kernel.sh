#!/bin/bash
# Build the assembled tree: build-kernel.sh [qemu|debug]
#   qemu:  tinyconfig + configs/qemu.config                 -> build/bzImage
#          (the base kernel's: + configs/rootfs.config, for the Debian images)
#   debug: tinyconfig + qemu.config + configs/debug.config (lockdep, KASAN)
#                                                           -> build/bzImage-debug
# Modules are installed under build/modules-<flavour>/ for the initramfs.
# KERNEL=6.12: build/bzImage-6.12, build/modules-qemu-6.12/ and so on.
set -eu
. "$(dirname "$0")/lib.sh"

flavour=${1:-qemu}
case $flavour in qemu|debug) ;; *) die "unknown flavour $flavour (qemu|debug)" ;; esac
mapfile -t fragments < <(config_fragments "$flavour")
image=$BUILD/bzImage
[ "$flavour" = qemu ] || image=$BUILD/bzImage-$flavour
image=$image$KSUFFIX mods=$BUILD/modules-$flavour$KSUFFIX
obj=$BUILD/obj-$KERNEL-$flavour
mkdir -p "$obj"

# Reproducible inputs keep ccache hits across trees and rebuilds.
export KBUILD_BUILD_TIMESTAMP="2026-01-01" KBUILD_BUILD_USER=user_booted KBUILD_BUILD_HOST=qemu
# ccache keeps its usual home (~/.cache/ccache), so a fresh clone builds warm.
export CCACHE_BASEDIR=$BUILD CCACHE_MAXSIZE=5G
export CCACHE_SLOPPINESS=time_macros,include_file_mtime,include_file_ctime
kmake() { make -s -C "$TREE" O="$obj" CC=$KCC -j"$(nproc)" "$@"; }

# Regenerate .config only when a fragment (or the tree's Kconfig) changed.
stamp=$(cat "${fragments[@]}" | sha1sum | cut -c1-40)-$(git -C "$TREE" rev-parse HEAD)
if [ "$(cat "$obj/.config-stamp" 2>/dev/null)" != "$stamp" ]; then
	log "configuring $flavour kernel"
	kmake tinyconfig >/dev/null
	KCONFIG_CONFIG=$obj/.config "$TREE/scripts/kconfig/merge_config.sh" -m -O "$obj" \
		"$obj/.config" "${fragments[@]}" >/dev/null
	kmake olddefconfig >/dev/null
	# Every fragment line must have survived: a silently dropped option is a
	# bug.  The fragments serve every kernel: a symbol that this kernel does
	# not have (PROC_SYSCTL, folded into SYSCTL in 7.x) is not a drop.
	known=$(find "$TREE" -name 'Kconfig*' -exec sed -n 's/^\(menu\)\{0,1\}config \([A-Z0-9_]*\).*/\2/p' {} + | sort -u)
	# A symbol a later fragment sets again is that fragment's to check.
	for i in "${!fragments[@]}"; do
		f=${fragments[$i]}
		later=$(cat "${fragments[@]:$((i + 1))}" /dev/null |
			sed -n 's/^\(# \)\{0,1\}CONFIG_\([A-Z0-9_]*\)[= ].*/\2/p')
		grep -E '^CONFIG_[A-Z0-9_]+=' "$f" | while IFS= read -r line; do
			sym=${line%%=*} sym=${sym#CONFIG_}
			grep -qxF "$sym" <<<"$known" || continue
			! grep -qxF "$sym" <<<"$later" || continue
			grep -qxF "$line" "$obj/.config" ||
				echo "warning: $flavour config lacks $line (dependency missing?)" >&2
		done
	done
	echo "$stamp" > "$obj/.config-stamp"
fi

# Nothing to build when this configuration was last built from the tree's
# checked-out commit and nobody has edited the tree since (make run after
# make test): kbuild's own walk of the tree costs 15-20 s here.
built="$stamp $(git -C "$TREE" rev-parse HEAD) $(cat "$TOP"/kernel/test-modules/* | sha1sum | cut -c1-40)"
if [ "$(cat "$obj/.built-stamp" 2>/dev/null)" = "$built" ] && [ -f "$image" ] && [ -d "$mods" ] &&
   [ -z "$(git -C "$TREE" status --porcelain -uno)" ]; then
	echo "$image"
	exit 0
fi
rm -f "$obj/.built-stamp"
# A build of an edited tree is not the build of its commit: no stamp.
[ -z "$(git -C "$TREE" status --porcelain -uno)" ] || built=

log "building $flavour kernel ($(nproc) jobs)"
# Each object's compile time: $obj/cc-times keeps the last build that
# compiled more than a few objects (scripts/config-cost.py).
export CC_TIMES_LOG=$obj/cc-times.new
: > "$CC_TIMES_LOG"
kmake bzImage modules
# The guest suites' own modules (kernel/test-modules/, not in the series):
# external modules, built in a copy so that the repository stays clean.
testmods=$obj/test-modules
rm -rf "$testmods" && cp -r "$TOP/kernel/test-modules" "$testmods"
kmake M="$testmods" modules
[ "$(wc -l < "$CC_TIMES_LOG")" -lt 100 ] || mv -f "$CC_TIMES_LOG" "$obj/cc-times"
unset CC_TIMES_LOG
cp "$obj/arch/x86/boot/bzImage" "$image"
cp "$obj/System.map" "${image/bzImage/System.map}" # qemu-run.sh: where a hung guest is
rm -rf "$mods"
kmake modules_install INSTALL_MOD_PATH="$mods" INSTALL_MOD_STRIP=1 >/dev/null
kmake M="$testmods" modules_install INSTALL_MOD_PATH="$mods" INSTALL_MOD_STRIP=1 >/dev/null
[ -z "$built" ] || echo "$built" > "$obj/.built-stamp"
echo "$image"
