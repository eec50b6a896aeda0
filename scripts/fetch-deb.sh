#!/bin/bash
# fetch-deb.sh SUITE PACKAGE: download PACKAGE from Debian's SUITE and unpack
# it under build/debs/PACKAGE/ (once; later runs reuse it).  Prints that path.
#
# The machine's apt knows bookworm only, and stays so: apt gets a private
# sources list and lists directory under build/apt/SUITE, the same mirror and
# the archive keyring that signs every suite.  Signatures are checked as usual.
set -eu
. "$(dirname "$0")/lib.sh"

suite=$1 pkg=$2
dest=$BUILD/debs/$pkg
if [ -f "$dest/.done" ]; then echo "$dest"; exit 0; fi

mirror=${DEBIAN_MIRROR:-$(sed -n 's|^URIs: *\(http[^ ]*/debian\)$|\1|p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -n 1)}
mirror=${mirror:-http://deb.debian.org/debian}
adir=$BUILD/apt/$suite
mkdir -p "$adir/lists/partial" "$adir/cache/archives/partial" "$BUILD/debs"
echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror $suite main" > "$adir/sources.list"
apt_opts=(
	-o "Dir::Etc::sourcelist=$adir/sources.list" -o Dir::Etc::sourceparts=/dev/null
	-o "Dir::State::Lists=$adir/lists" -o "Dir::Cache=$adir/cache"
	# The mirror is a frozen snapshot: its Release files are past their
	# Valid-Until date.  Only the date check is off; signatures still count.
	-o Acquire::Check-Valid-Until=false
	# Files written by root here, outside _apt's reach: download as root.
	-o APT::Sandbox::User=root
)
log "fetching $pkg from $suite (private apt configuration in ${adir#"$TOP"/})"
apt-get "${apt_opts[@]}" -qq update
version=$(apt-cache "${apt_opts[@]}" show "$pkg" | sed -n 's/^Version: //p' | head -n 1)
[ -n "$version" ] || die "$pkg not found in $suite"
cd "$BUILD/debs"
rm -f "$pkg"_*.deb
# apt-get download checks the file against the signed Packages index.
apt-get "${apt_opts[@]}" -qq download "$pkg=$version"
deb=$(ls "$pkg"_*.deb)
dpkg-deb --info "$deb" >/dev/null || die "$deb is not a valid package"
rm -rf "$dest" && dpkg-deb -x "$deb" "$dest"
rm -f "$deb"
echo "$version" > "$dest/.done"
echo "$dest"
