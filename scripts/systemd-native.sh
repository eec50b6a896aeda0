#!/bin/bash
# systemd-native.sh [SUITE]: make systemd-native.  PID 1 reports the end of
# boot itself (systemd-plugin/native/): build Debian SUITE's systemd (default
# sid, systemd 262; trixie: 257) with the patch, put it into that suite's
# test image without the plugin, and boot it (scripts/systemd-e2e.sh,
# E2E_NATIVE=1).
#
# The build root is made once per suite with mmdebstrap (its own apt
# configuration: deb and deb-src lines of the suite, signatures checked, the
# system's apt untouched), with systemd's build dependencies and the source
# package from "apt-get source", under build/native/.  Only what the patch
# touches is rebuilt: libsystemd-core (PID 1's code), configured exactly as
# Debian's debian/rules configures it, so that it matches the image's
# libsystemd-shared.  ccache keeps rebuilds short.
set -eu
. "$(dirname "$0")/lib.sh"

suite=${1:-${SYSTEMD_SUITE:-sid}}
patch=$TOP/systemd-plugin/native/0001-core-tell-the-kernel-when-userspace-has-finished-boo.patch
[ "$(id -u)" -eq 0 ] || die "run as root: the build root keeps root-owned files"
need_packages mmdebstrap
mirror=${ROOTFS_MIRROR:-http://deb.debian.org/debian}
recipe=(--variant=buildd --aptopt='Acquire::Check-Valid-Until "false"'
	--keyring=/usr/share/keyrings/debian-archive-keyring.gpg
	--dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-exclude=/usr/share/man/*'
	--include=ccache,dpkg-dev
	# The source first: a mirror without it fails before the big download.
	--customize-hook='mkdir "$1/src" && chroot "$1" sh -c "cd /src && apt-get source -q systemd"'
	--customize-hook='chroot "$1" apt-get -y -q build-dep systemd'
	--format=directory)
sources=("deb $mirror $suite main" "deb-src $mirror $suite main")
root=$BUILD/native/root-$suite-$(printf '%s\n' "${recipe[@]}" "${sources[@]}" | sha256sum | cut -c1-16)
mkdir -p "$BUILD/native"
if [ ! -f "$root/.done" ]; then
	log "building the $suite build root with systemd's source, cached as ${root#"$TOP"/} (a few minutes)"
	rm -rf "$BUILD/native/root-$suite-"*
	if ! mmdebstrap --quiet "${recipe[@]}" "$suite" "$root" "${sources[@]}" >"$BUILD/native/root-$suite.log" 2>&1; then
		grep -E '^E: |^Err' "$BUILD/native/root-$suite.log" | head -n 5 >&2
		die "could not make the $suite build root (log: build/native/root-$suite.log)$(
			grep -q '404 *Not Found' "$BUILD/native/root-$suite.log" &&
			echo "; the mirror ($mirror) does not serve the source package of $suite's systemd: set ROOTFS_MIRROR to one that does, or use SYSTEMD_SUITE=trixie (257)")"
	fi
	touch "$root/.done"
fi
src=$(cd "$root/src" && ls -d systemd-*/ | head -n 1) && src=${src%/}
version=$(cd "$root/src/$src" && dpkg-parsechangelog -S Version)
tag=${src#systemd-} && tag=${tag%%.*}

# A fresh copy of the source for each version of the patch.
stamp=$(sha256sum <"$patch" | cut -c1-16)
if [ "$(cat "$root/work/.patch" 2>/dev/null)" != "$stamp" ]; then
	log "applying the patch to systemd $version"
	rm -rf "$root/work"
	cp -a "$root/src/$src" "$root/work"
	patch -d "$root/work" -p1 --quiet --no-backup-if-mismatch <"$patch" ||
		die "the patch does not apply to systemd $version"
	echo "$stamp" >"$root/work/.patch"
fi
# build_core DEST: libsystemd-core of the tree as it is now, stripped as
# Debian's dh_strip strips a shared library, to DEST.
build_core() {
	unshare --mount --propagation private -- /bin/sh -ec '
		mount --rbind /dev "$1/dev"
		mount -t proc proc "$1/proc"
		exec chroot "$1" /bin/bash -ec "
			cd /work
			# nocheck: no tests; LTO off: the library is the same, the link minutes shorter.
			export DEB_BUILD_OPTIONS=\"nocheck nodoc optimize=-lto\" CCACHE_DIR=/ccache CC=\"ccache gcc\"
			# What dpkg-buildpackage exports, for debhelper'\''s package-notes linker spec.
			export DEB_VENDOR=\$(dpkg-vendor --query Vendor | tr A-Z a-z) DEB_HOST_ARCH=\$(dpkg-architecture -qDEB_HOST_ARCH)
			export DEB_SOURCE_PACKAGE_NAME=systemd DEB_SOURCE_PACKAGE_VERSION=\$(dpkg-parsechangelog -S Version) DEBUGINFOD_URLS=
			obj=obj-\$(dpkg-architecture -qDEB_HOST_GNU_TYPE)
			[ -f \$obj/build.ninja ] || debian/rules override_dh_auto_configure
			ninja -C \$obj src/core/libsystemd-core-$2.so
			strip --remove-section=.comment --remove-section=.note --strip-unneeded -o /work/out.so \$obj/src/core/libsystemd-core-$2.so"' sh "$root" "$tag" >>"$BUILD/native/build-$suite.log" 2>&1 ||
		{ tail -n 20 "$BUILD/native/build-$suite.log" >&2; die "building systemd $version failed (log: build/native/build-$suite.log)"; }
	mkdir -p "${1%/*}"
	mv "$root/work/out.so" "$1"
}
log "building libsystemd-core-$tag.so of systemd $version with the patch"
SECONDS=0
: >"$BUILD/native/build-$suite.log"
core=$BUILD/native/$suite/libsystemd-core-$tag.so
build_core "$core"
# And without it, built the same way: make bench's baseline (workload 11),
# so that the two libraries differ by the patch alone.  No stamp meanwhile:
# a tree left without the patch is copied afresh next time.
rm "$root/work/.patch"
patch -d "$root/work" -p1 -R --quiet --no-backup-if-mismatch <"$patch" || die "could not take the patch out again"
build_core "$BUILD/native/$suite/unpatched/${core##*/}"
patch -d "$root/work" -p1 --quiet --no-backup-if-mismatch <"$patch" || die "could not apply the patch again"
echo "$stamp" >"$root/work/.patch"
# What was built, for make bench's record: the patch's stamp, the version.
echo "$stamp $version" >"${core%/*}/built"
log "built in ${SECONDS}s: ${core#"$TOP"/}"

# The e2e's rootfs.sh adds the images with this library.
NATIVE_CORE=$core E2E_NATIVE=1 E2E_SUITES=$suite exec bash "$TOP/scripts/systemd-e2e.sh"
