# Shared helpers for the scripts in this directory.  Source it; do not run it.
# shellcheck shell=bash

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
# The kernel the series is written against; 6.12 is its backport.
KERNEL_MAIN=7.3
KERNEL=${KERNEL:-$KERNEL_MAIN}
# Where Debian ships each kernel's source: the current one in
# trixie-backports (fetched with a private apt configuration by
# fetch-deb.sh), the LTS one in bookworm itself (installed with apt).
case $KERNEL in
7.3) KERNEL_SUITE=trixie-backports ;;
6.12) KERNEL_SUITE= ;;
*) echo "error: KERNEL=$KERNEL: one of 7.3, 6.12 (6.1 was dropped: new features do not go into its stable series)" >&2; exit 1 ;;
esac
if [ -n "$KERNEL_SUITE" ]; then
	LINUX_TARBALL=$BUILD/debs/linux-source-$KERNEL/usr/src/linux-source-$KERNEL.tar.xz
else
	LINUX_TARBALL=/usr/src/linux-source-$KERNEL.tar.xz
fi
TREE=$BUILD/linux-$KERNEL
# The backports the project keeps: make test boots them, make lint assembles
# and checks their series.
KERNEL_BACKPORTS="6.12"
# Build products of a backport carry its version: bzImage-6.12.
KSUFFIX=
[ "$KERNEL" = "$KERNEL_MAIN" ] || KSUFFIX=-$KERNEL

# A kernel's report of a bug on the console: qemu-run.sh fails the boot.
KERNEL_WARNING_RE='^\[[ 0-9.]+\] (WARNING:|BUG:|UBSAN:|possible recursive locking|.*circular locking|.*inconsistent lock state)'
# A guest suite's boot that has not ended by then has hung (make test's
# slowest take 45 s: debug kernel, under load).
GUEST_TIMEOUT=${GUEST_TIMEOUT:-180}

# config_fragments FLAVOUR: the configs/ fragments merged onto tinyconfig
# for a kernel flavour (build-kernel.sh, bisect-check.sh).  Only the base
# kernel's qemu flavour boots the Debian images (e2e, init-e2e, bench).
config_fragments() {
	echo "$TOP/configs/qemu.config"
	case $1 in
	qemu) [ "$KERNEL" != "$KERNEL_MAIN" ] || echo "$TOP/configs/rootfs.config" ;;
	debug) echo "$TOP/configs/debug.config" ;;
	*) die "unknown flavour $1 (qemu|debug)" ;;
	esac
}
# The kernel builds' compiler: ccache gcc, timed (scripts/cc-timed), named
# without its path so that kbuild's command lines are the same in every clone.
export PATH=$TOP/scripts:$PATH
KCC=cc-timed

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
	git make gcc libc6-dev flex bison bc libelf-dev libssl-dev
	ccache cpio xz-utils kmod perl python3 busybox-static qemu-system-x86 e2fsprogs
)
[ -n "$KERNEL_SUITE" ] || HOST_PACKAGES+=("linux-source-$KERNEL")
# make lint's; scripts/test.sh installs them (and the e2e suites' mmdebstrap)
# before its tasks start, which must not race for apt.
LINT_PACKAGES=(python3-ply python3-git gawk python3-sphinx sparse)

# step_file SLUG SRC DST: the content (on stdout) of the new file SRC, which
# lands as DST, in step SLUG of the base series.  The repository keeps the
# final version of every new file; where a later step changes the file (its
# kernel/patches/*.patch touches DST), those changes are undone here, last
# step first, so that each step gets the version it introduced.
step_file() {
	local slug=$1 src=$2 dst=$3 tmp p
	local later=()
	mapfile -t later < <(awk -v s="$slug" '
		$1 == "patch" { after = seen; if ($2 == s) seen = 1; next }
		after && NF == 1 && $1 ~ /^kernel\/patches\/.*\.patch$/ { print $1 }' "$TOP/series.conf")
	tmp=$(mktemp -d)
	mkdir -p "$tmp/${dst%/*}"
	cp "$TOP/$src" "$tmp/$dst"
	for ((p = ${#later[@]} - 1; p >= 0; p--)); do
		grep -qxF "+++ b/$dst" "$TOP/${later[p]}" || continue
		(cd "$tmp" && git apply -R --include="$dst" "$TOP/${later[p]}") ||
			{ rm -rf "$tmp"; die "${later[p]} does not undo on $src"; }
	done
	cat "$tmp/$dst"
	rm -rf "$tmp"
}

# qemu_accel: kvm or tcg.  Nested KVM often opens /dev/kvm and then fails:
# try it once, remember (qemu-run.sh, torture.sh).
qemu_accel() {
	local cache=$BUILD/.accel
	if [ ! -f "$cache" ]; then
		if [ -w /dev/kvm ] && timeout 20 qemu-system-x86_64 -accel kvm -M q35 -nodefaults \
			-display none -no-reboot -kernel /dev/null </dev/null >/dev/null 2>&1; then
			echo kvm > "$cache.$$"
		else
			echo tcg > "$cache.$$"
		fi
		mv -f "$cache.$$" "$cache" # two guests may probe at once (make test)
	fi
	cat "$cache"
}
