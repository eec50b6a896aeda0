#!/bin/bash
# Build the ext4 root image for the systemd end-to-end boot: Debian bookworm
# (mmdebstrap minbase + systemd-sysv + udev) with the systemd plugin installed
# by "meson install --destdir" and the e2e units.  Prints the image path.
#
# The debootstrapped base is cached as build/rootfs/base-<hash>.tar, <hash>
# being that of the recipe below, so it is rebuilt when the recipe changes.
# The plugin layer and the image are redone on every run (seconds), from a
# fresh copy of the base: every boot starts from the same disk.
# Set ROOTFS_MIRROR to use another Debian mirror.
set -eu
. "$(dirname "$0")/lib.sh"

suite=bookworm
packages=systemd-sysv,udev
# Docs, man pages and locales: dead weight in a test image.
recipe=(--variant=minbase "--include=$packages" --format=tar
	--dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-exclude=/usr/share/man/*'
	--dpkgopt='path-exclude=/usr/share/locale/*' "$suite")
cache=$BUILD/rootfs
hash=$(printf '%s\n' "${recipe[@]}" "${ROOTFS_MIRROR:-}" | sha256sum | cut -c1-16)
base=$cache/base-$hash.tar
image=$cache/systemd-e2e.ext4
plugin=$TOP/systemd-plugin

[ "$(id -u)" -eq 0 ] || die "run as root: the image keeps root-owned files"
need_packages mmdebstrap e2fsprogs meson ninja-build pkg-config libsystemd-dev
mkdir -p "$cache"

if [ ! -f "$base" ]; then
	log "building the $suite base ($packages), cached as $base"
	rm -f "$cache"/base-*.tar
	mmdebstrap --quiet "${recipe[@]}" "$base.tmp" ${ROOTFS_MIRROR:+"$ROOTFS_MIRROR"}
	mv "$base.tmp" "$base"
fi

# The plugin is built on the host, which is bookworm too: same libc and
# libsystemd as the guest.
grep -q "^VERSION_CODENAME=$suite" /etc/os-release ||
	log "warning: host is not $suite; the plugin binaries may not run in the guest"
pbuild=$BUILD/systemd-plugin
[ -f "$pbuild/build.ninja" ] || meson setup "$pbuild" "$plugin" --prefix=/usr >/dev/null
meson compile -C "$pbuild" >/dev/null

stage=$(mktemp -d "$cache/stage.XXXXXX")
trap 'rm -rf "$stage"' EXIT
tar -C "$stage" -xpf "$base"
meson install -C "$pbuild" --no-rebuild --destdir "$stage" >/dev/null
install -m 0644 "$plugin"/tests/e2e/*.service "$stage/etc/systemd/system/"
install -D -m 0755 "$plugin/tests/e2e/user-booted-e2e" "$stage/usr/local/libexec/user-booted-e2e"
echo e2e >"$stage/etc/hostname"
# A fixed identity: not a first boot, the same journal every run.
echo 0123456789abcdef0123456789abcdef >"$stage/etc/machine-id"

rm -f "$image"
mkfs.ext4 -q -F -L e2e-root -d "$stage" "$image" 1G >/dev/null
echo "$image"
