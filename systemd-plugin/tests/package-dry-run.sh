#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# package-dry-run.sh [SUITE]: build the plugin the way a distribution's
# package build would, in a clean Debian chroot (mmdebstrap, minbase; SUITE
# bookworm by default, or trixie, sid) holding only the build dependencies
# systemd-plugin/README.md names: no <linux/user_booted.h> (no distribution's
# kernel headers carry it), no man (man-db), nothing from this repository but
# systemd-plugin/.  In it, as an unprivileged user (nobody, as a rootless
# package build): meson setup (prefix /usr), compile, install into a DESTDIR,
# meson test.  Root to make the chroot (make plugin-dry-run).  The chroot is cached as
# build/rootfs/dryrun-SUITE-HASH.tar by a hash of its recipe; every run
# unpacks a fresh copy.  Prints TAP, "N passed, N failed"; exits 1 on a failure.
set -eu
. "$(dirname "$0")/../../scripts/lib.sh"

suite=${1:-bookworm}
case $suite in
# systemd.pc: in systemd on bookworm, in systemd-dev from 253 on.  Bookworm's
# systemd brings systemd-analyze and systemctl, so meson test runs their
# checks; with systemd-dev alone they SKIP.
bookworm) sdpkg=systemd ;;
trixie | sid) sdpkg=systemd-dev ;;
*) die "suite $suite: bookworm, trixie or sid" ;;
esac
recipe=(--variant=minbase --aptopt='Acquire::Check-Valid-Until "false"'
	--keyring=/usr/share/keyrings/debian-archive-keyring.gpg
	"--include=gcc,libc6-dev,meson,ninja-build,pkg-config,$sdpkg" --format=tar "$suite")
hash=$(printf '%s\n' "${recipe[@]}" "${ROOTFS_MIRROR:-}" | sha256sum | cut -c1-16)
cache=$BUILD/rootfs
tarball=$cache/dryrun-$suite-$hash.tar

[ "$(id -u)" -eq 0 ] || die "run as root (chroot)"
need_packages mmdebstrap
mkdir -p "$cache"
if [ ! -f "$tarball" ]; then
	log "building the $suite package-build chroot, cached as ${tarball#"$TOP"/}"
	rm -f "$cache/dryrun-$suite-"*.tar
	mmdebstrap --quiet "${recipe[@]}" "$tarball.tmp" ${ROOTFS_MIRROR:+"$ROOTFS_MIRROR"}
	mv "$tarball.tmp" "$tarball"
fi

root=$(mktemp -d "$cache/dryrun.XXXXXX")
trap 'rm -rf "$root"' EXIT
tar -C "$root" -xpf "$tarball"
mkdir "$root/src"
cp -a "$TOP/systemd-plugin" "$root/src/"
rm -rf "$root/src/systemd-plugin/build"
# The source read-only to the build's user, as a package build unpacks it;
# what it writes goes to /bld and /dest, its own.
chown -R root:root "$root/src"
chmod -R a+rX,go-w "$root/src"
mkdir "$root/bld" "$root/dest"
chown 65534:65534 "$root/bld" "$root/dest"

passed=0 failed=0 n=0
check() { # NAME COMMAND...
	local name=$1
	shift
	n=$((n + 1))
	if "$@" >"$root/out" 2>&1; then
		echo "ok $n - $name"; passed=$((passed + 1))
	else
		echo "not ok $n - $name"; failed=$((failed + 1))
		sed 's/^/# /' "$root/out" | tail -n 40
	fi
}
# inchroot SCRIPT: SCRIPT in the chroot (a private mount namespace:
# /dev and /proc go away with it), as the package build's user: nobody,
# no supplementary groups, HOME a scratch directory.
inchroot() {
	unshare --mount --propagation private -- /bin/sh -ec '
		mount --rbind /dev "$1/dev"
		mount -t proc proc "$1/proc"
		exec chroot "$1" setpriv --reuid=65534 --regid=65534 --clear-groups \
			/usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/bld LANG=C.UTF-8 /bin/sh -ec "$2"' sh "$root" "$1"
}
ic() { check "$1" inchroot "$2"; }

ic "$suite: the chroot has no <linux/user_booted.h> and no man; the build's user is not root" \
	'! [ -e /usr/include/linux/user_booted.h ] && ! command -v man && [ "$(id -u)" = 65534 ] && ! [ -w /src/systemd-plugin ]'
ic "$suite: meson setup (the header fallback, said)" \
	'cd /src/systemd-plugin && meson setup --prefix=/usr /bld/b >/bld/setup.log 2>&1 || { cat /bld/setup.log; exit 1; }
	 grep "linux/user_booted.h" /bld/setup.log'
ic "$suite: meson compile" 'meson compile -C /bld/b'
ic "$suite: meson install into a DESTDIR" \
	'DESTDIR=/dest meson install -C /bld/b --no-rebuild --quiet &&
	 for f in $(pkg-config --variable=systemdsystemunitdir systemd)/user-booted.service \
		$(pkg-config --variable=systemdsystemgeneratordir systemd)/user-booted-generator \
		/usr/libexec/user-booted/user-booted-report \
		/usr/share/man/man8/user-booted.service.8 /usr/share/man/man8/user-booted-generator.8; do
		[ -e "/dest$f" ] || { echo "missing $f"; exit 1; }; done'
# meson test (as dh_auto_test: it builds what the tests need, the generator's
# test build) prints each group's TAP (and its SKIPs) in the test log.
ic "$suite: meson test" \
	'meson test -C /bld/b --print-errorlogs; rc=$?
	 sed -n "/^ok .*# SKIP/p;/^not ok/p" /bld/b/meson-logs/testlog.txt; exit $rc'
sed -n 's/^/# /;/SKIP\|Ok:\|Fail:\|Skipped:/p' "$root/out"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
