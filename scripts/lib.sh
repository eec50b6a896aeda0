# Shared helpers for the scripts in this directory.  Source it; do not run it.
# shellcheck shell=bash

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
KERNEL=${KERNEL:-6.12}
LINUX_TARBALL=/usr/src/linux-source-$KERNEL.tar.xz
TREE=$BUILD/linux-$KERNEL
# Build products of another kernel than 6.12 carry its version: bzImage-6.1.
KSUFFIX=
[ "$KERNEL" = 6.12 ] || KSUFFIX=-$KERNEL

log() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# need_packages PKG...: install what is missing (as root), or name it and stop.
need_packages() {
	local missing=() p
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
			missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	if [ "$(id -u)" -ne 0 ]; then
		die "missing packages, install them as root: apt-get install ${missing[*]}"
	fi
	log "installing ${missing[*]}"
	if [ -z "$(find /var/lib/apt/lists -name '*_Packages*' -mmin -1440 2>/dev/null | head -1)" ]; then
		apt-get update -qq || apt-get update -qq
	fi
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# Packages every build and boot needs.
HOST_PACKAGES=(
	"linux-source-$KERNEL" git make gcc libc6-dev flex bison bc libelf-dev libssl-dev
	ccache cpio xz-utils kmod perl python3 busybox-static qemu-system-x86 e2fsprogs
)
