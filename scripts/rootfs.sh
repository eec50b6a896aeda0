#!/bin/bash
# rootfs.sh SUITE: build the ext4 root images for the systemd end-to-end boots
# on Debian SUITE (bookworm: systemd 252; trixie: 257; sid: 262), with the systemd
# plugin installed as a distribution package would, and the e2e units.
# Prints the directory holding the three images:
#   enabled.ext4   the plugin installed (its unit is static: the generator
#                  pulls it in, nothing to enable)
#   masked.ext4    the same, then systemctl mask user-booted.service
#   initrd.img     (bookworm) a systemd initrd made by Debian's dracut, with
#                  the plugin's generator, unit and script put into it on
#                  purpose: they must keep out of the initrd's boot
# With NATIVE_CORE=FILE (scripts/systemd-native.sh: a libsystemd-core built
# with systemd-plugin/native's patch) also:
#   native.ext4         no plugin; PID 1's code replaced by FILE
#   native-plugin.ext4  enabled.ext4 with PID 1's code replaced by FILE
#
# Two debootstrapped trees per suite, cached under build/rootfs/ by a hash of
# their recipe (rebuilt when it changes):
#   base-SUITE-HASH.tar  the image: minbase + systemd-sysv + udev, no D-Bus
#   buildenv-SUITE-HASH/ a build chroot: compiler, meson and systemd.pc of
#                        the same suite.  The plugin is built there, so each
#                        image gets a generator built against its own libc,
#                        installed to the paths its own systemd.pc gives
#                        (bookworm's and trixie's still hold libsystemd-dev,
#                        a leftover of the old helper, kept while it keys
#                        their cached chroots).
# The plugin build and the images are redone on every run (seconds), from a
# fresh copy of the base: every boot starts from the same disk.
# Set ROOTFS_MIRROR to use another Debian mirror.
set -eu
. "$(dirname "$0")/lib.sh"

suite=${1:-bookworm}
case $suite in
# systemd.pc: in systemd on bookworm, in systemd-dev from 253 on.  Debian's
# dracut (the build chroots of bookworm and sid) makes the initrd of the
# switch-root boot.
bookworm) devpkgs=libsystemd-dev,systemd,udev,dracut-core ;;
trixie) devpkgs=libsystemd-dev,systemd-dev ;;
sid) devpkgs=systemd-dev,systemd,udev,dracut-core ;;
*) die "suite $suite: bookworm, trixie or sid" ;;
esac
# The mirror is a frozen snapshot: sid's Release file is past its
# Valid-Until date.  Only the date check is off: signatures are checked
# against the archive keyring (it has the trixie keys sid is signed with).
common=(--variant=minbase --aptopt='Acquire::Check-Valid-Until "false"'
	--keyring=/usr/share/keyrings/debian-archive-keyring.gpg
	# Docs, man pages and locales: dead weight in a test image.
	--dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-exclude=/usr/share/man/*'
	--dpkgopt='path-exclude=/usr/share/locale/*')
image_recipe=("${common[@]}" --include=systemd-sysv,udev --format=tar "$suite")
build_recipe=("${common[@]}" "--include=gcc,libc6-dev,meson,ninja-build,pkg-config,$devpkgs"
	--format=directory "$suite")
cache=$BUILD/rootfs
hash() { printf '%s\n' "$@" "${ROOTFS_MIRROR:-}" | sha256sum | cut -c1-16; }
base=$cache/base-$suite-$(hash "${image_recipe[@]}").tar
benv=$cache/buildenv-$suite-$(hash "${build_recipe[@]}")
out=$cache/$suite
plugin=$TOP/systemd-plugin

[ "$(id -u)" -eq 0 ] || die "run as root: the image keeps root-owned files"
need_packages mmdebstrap e2fsprogs systemd
mkdir -p "$cache" "$out"

if [ ! -f "$base" ]; then
	log "building the $suite image base, cached as ${base#"$TOP"/}"
	rm -f "$cache/base-$suite-"*.tar
	mmdebstrap --quiet "${image_recipe[@]}" "$base.tmp" ${ROOTFS_MIRROR:+"$ROOTFS_MIRROR"}
	mv "$base.tmp" "$base"
fi
if [ ! -f "$benv/.done" ]; then
	log "building the $suite build chroot, cached as ${benv#"$TOP"/}"
	rm -rf "$cache/buildenv-$suite-"*
	mmdebstrap --quiet "${build_recipe[@]}" "$benv" ${ROOTFS_MIRROR:+"$ROOTFS_MIRROR"}
	touch "$benv/.done"
fi

# Build and install the plugin inside the build chroot (a private mount
# namespace: /dev and /proc go away with it).
rm -rf "$benv/src" "$benv/bld" "$benv/stage"
mkdir "$benv/src"
cp -a "$plugin" "$TOP/uapi" "$benv/src/"
unshare --mount --propagation private -- /bin/sh -ec '
	mount --rbind /dev "$1/dev"
	mount -t proc proc "$1/proc"
	exec chroot "$1" /bin/sh -ec "
		meson setup --werror -Duapi=/src/uapi /bld /src/systemd-plugin >/dev/null
		meson compile -C /bld >/dev/null
		DESTDIR=/stage meson install -C /bld --no-rebuild >/dev/null"' sh "$benv" ||
	die "building the plugin in the $suite chroot failed"

stage=$(mktemp -d "$cache/stage.XXXXXX")
trap 'rm -rf "$stage"' EXIT
tar -C "$stage" -xpf "$base"
# Onto the merged /usr: /lib (bookworm's unit dir) is a symlink to usr/lib.
tar -C "$benv/stage" -c . | tar -C "$stage" -x --keep-directory-symlink
# probe: the e2e probe's units into the stage, and a fixed identity: not a
# first boot, the same journal every run.
probe() {
	install -m 0644 "$plugin"/tests/e2e/*.service "$plugin"/tests/e2e/*.target "$plugin"/tests/e2e/*.mount \
		"$stage/etc/systemd/system/"
	install -D -m 0755 "$plugin/tests/e2e/user-booted-e2e" "$plugin/tests/e2e/user-booted-e2e-waiting" \
		-t "$stage/usr/local/libexec/"
	# The failing mount of the emergency-failure boot (its condition keeps
	# it out of the others); the probe also where a failure isolates to
	# emergency mode.
	mkdir -p "$stage/etc/systemd/system/local-fs.target.requires" "$stage/etc/systemd/system/emergency.target.wants"
	ln -sf ../mnt-e2ebad.mount "$stage/etc/systemd/system/local-fs.target.requires/"
	ln -sf ../user-booted-e2e.service "$stage/etc/systemd/system/emergency.target.wants/"
	echo e2e >"$stage/etc/hostname"
	echo 0123456789abcdef0123456789abcdef >"$stage/etc/machine-id"
	# As after an installed system's first boot, where systemd-update-done
	# marks it (sid; bookworm ships none of the units it serves, so an
	# installed bookworm runs sysusers every boot): ldconfig, the journal
	# catalog update, sysusers and systemd-update-done are skipped
	# (ConditionNeedsUpdate= is false when these are newer than /usr).
	# Every boot starts from this disk; each paid 2-4 s under TCG for them.
	# ROOTFS_UPDATED=0: a first boot every time, as the images of make
	# bench's workloads 4 to 12 were.
	if [ "${ROOTFS_UPDATED:-1}" = 1 ] && [ -e "$stage/usr/lib/systemd/system/systemd-update-done.service" ]; then
		touch "$stage/etc/.updated" "$stage/var/.updated"
	fi
}
probe

image() { # NAME: the stage as it is now, as NAME.ext4
	rm -f "$out/$1.ext4"
	mkfs.ext4 -q -F -L e2e-root -d "$stage" "$out/$1.ext4" 1G >/dev/null
}
sysctl_() { systemctl --root="$stage" --quiet "$@"; }
image enabled
sysctl_ mask user-booted.service
image masked
if [ -n "${NATIVE_CORE:-}" ]; then
	# PID 1's code lives in its private library; the file name says the version.
	lib=$(cd "$stage" && ls usr/lib/*/systemd/"${NATIVE_CORE##*/}") ||
		die "${NATIVE_CORE##*/} does not match the $suite image's systemd"
	sysctl_ unmask user-booted.service
	native() { # PID 1's code
		install -m 0644 "$NATIVE_CORE" "$stage/$lib"
	}
	native
	image native-plugin
	rm -rf "$stage" && mkdir "$stage"
	tar -C "$stage" -xpf "$base"
	probe
	native
	image native
fi
rm -f "$out/initrd.img"
if [ -x "$benv/usr/bin/dracut" ]; then
	# The plugin into the chroot's own root, then into the initrd.
	tar -C "$benv/stage" -c . | tar -C "$benv" -x --keep-directory-symlink
	files=$(cd "$benv/stage" && find . -type f ! -path '*/man/*' | sed 's|^\.||' | tr '\n' ' ')
	# No kernel modules: the e2e kernel has virtio and ext4 built in.
	unshare --mount --propagation private -- /bin/sh -ec '
		mount --rbind /dev "$1/dev"
		mount -t proc proc "$1/proc"
		exec chroot "$1" dracut --quiet --force --no-hostonly --no-kernel --kver e2e \
			--compress=gzip --modules "systemd systemd-initrd base rootfs-block fs-lib dracut-systemd" \
			--install "$2" /initrd.img' sh "$benv" "$files" ||
		die "dracut failed in the $suite chroot"
	mv "$benv/initrd.img" "$out/initrd.img"
fi
echo "$out"
