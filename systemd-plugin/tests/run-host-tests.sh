#!/bin/sh
# Host-side tests of the systemd plugin; no root, no VM.
#
# Builds and installs the plugin into a scratch prefix, then runs the test
# build of the generator (user-booted-generator-test: the same source, but it
# reads /proc, /etc, /run and /dev/kmsg below $USER_BOOTED_ROOT) against fake
# system trees, one per case, and checks the installed units, helper and
# man pages.
#
# Usage: tests/run-host-tests.sh [GROUP...]   GROUP: generator, units,
# helper, install (default: all).  Prints TAP ("ok N - name", "# SKIP" for a
# check this host cannot run), then "N passed, N failed, N skipped"; exits 1
# if anything failed, 77 if everything was skipped (meson test: skipped).
set -eu

src=$(cd "$(dirname "$0")/.." && pwd)
groups=${*:-generator units helper install}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

prefix=$work/prefix
build=$work/build
unitdir=$prefix/lib/systemd/system
if ! { meson setup "$build" "$src" --prefix="$prefix" &&
       meson compile -C "$build" && meson install -C "$build"; } >"$work/build.log" 2>&1; then
	cat "$work/build.log"
	echo "not ok 1 - build"
	echo "0 passed, 1 failed, 0 skipped"
	exit 1
fi
gen=$build/user-booted-generator-test
notify=$prefix/libexec/user-booted-notify
unit=user-booted.service
target=user-booted.target
boot_targets="default.target multi-user.target graphical.target rescue.target emergency.target basic.target"

passed=0 failed=0 skipped=0 n=0
# check NAME COMMAND...: one test line; a command that prints "SKIP: why"
# on its first line and returns 0 is a skip.
check() {
	name=$1; shift
	n=$((n + 1))
	if "$@" >"$work/out" 2>&1; then
		if [ "$(head -c 5 "$work/out")" = "SKIP:" ]; then
			echo "ok $n - $name # SKIP $(head -n 1 "$work/out" | cut -c7-)"
			skipped=$((skipped + 1))
		else
			echo "ok $n - $name"; passed=$((passed + 1))
		fi
	else
		echo "not ok $n - $name"; failed=$((failed + 1))
		sed 's/^/# /' "$work/out"
	fi
}
need() { command -v "$1" >/dev/null || { echo "SKIP: no $1 on this host"; return 1; }; }

# A fresh fake system that is booting and wants a report.
mkroot() {
	root=$work/root.$n
	rm -rf "$root"
	mkdir -p "$root/proc/sys/kernel" "$root/dev" "$root/etc" \
		"$root/run/systemd" "$root/out" "$root/early" "$root/late"
	echo 0 >"$root/proc/sys/kernel/user_booted"
	echo "root=/dev/vda console=ttyS0 user_booted_reported" >"$root/proc/cmdline"
	: >"$root/dev/kmsg"
}
cmdline() { echo "$*" >"$root/proc/cmdline"; }

# Runs the test generator on $root with a clean environment plus "$@".
gen() {
	env -u container -u SYSTEMD_VIRTUALIZATION -u SYSTEMD_IN_INITRD -u SYSTEMD_LOG_LEVEL \
		USER_BOOTED_ROOT="$root" "$@" "$gen" "$root/out" "$root/early" "$root/late"
}

# hooked: exactly the boot targets want the target.
hooked() {
	want=$(for t in $boot_targets; do echo "$t.wants/$target -> $unitdir/$target"; done | sort)
	got=$(cd "$root/out" && find . -type l -printf '%P -> %l\n' | sort)
	[ "$got" = "$want" ] || { printf 'want:\n%s\ngot:\n%s\n' "$want" "$got"; return 1; }
	[ -z "$(find "$root/early" "$root/late" -mindepth 1)" ]
}
nothing_written() {
	[ -z "$(find "$root/out" "$root/early" "$root/late" -mindepth 1)" ] || { ls -lR "$root/out"; return 1; }
}
silent() { [ ! -s "$root/dev/kmsg" ] || { cat "$root/dev/kmsg"; return 1; }; }
# logged LEVEL TEXT: a kmsg record at daemon.LEVEL (3 err, 4 warning, 7 debug).
logged() {
	grep -Eq "^<$((24 + $1))>user-booted-generator\[[0-9]+\]: .*$2" "$root/dev/kmsg" ||
		{ cat "$root/dev/kmsg"; return 1; }
}
# skips WHY-REGEX: nothing written, silent by default, the reason at debug.
skips() {
	r0=$root
	gen "$@" && nothing_written && silent || return 1
	cp -a "$r0" "$r0.debug" && root=$r0.debug && rm -rf "$root/out" && mkdir "$root/out"
	gen SYSTEMD_LOG_LEVEL=debug "$@" && nothing_written && logged 7 "Nothing to report: $why"
}

generator_tests() {
	t() { mkroot; gen && hooked && silent; }
	check "generator: adds $target to the six boot targets, says nothing" t

	t() { mkroot; gen SYSTEMD_LOG_LEVEL=debug && hooked && logged 7 "added $target to the boot targets"; }
	check "generator: SYSTEMD_LOG_LEVEL=debug: says what it did at daemon.debug" t

	t() { mkroot; cmdline "quiet systemd.log_level=debug"; gen && logged 7 "added"; }
	check "generator: systemd.log_level=debug on the command line" t

	t() { mkroot; cmdline "debug"; gen && logged 7 "added"; }
	check "generator: the bare 'debug' word on the command line" t

	t() { mkroot; cmdline "systemd.log_level=debug"; gen SYSTEMD_LOG_LEVEL=info && silent; }
	check "generator: \$SYSTEMD_LOG_LEVEL overrides the command line" t

	t() { mkroot; cmdline "user_booted_reported systemd.unit=foo.target"; gen && hooked &&
		[ -z "$(find "$root/out" -name '*.d')" ]; }
	check "generator: systemd.unit= changes nothing (basic.target covers a target of one's own)" t

	t() { mkroot; gen && cp -a "$root/out" "$work/a" && gen &&
		diff -r --no-dereference "$work/a" "$root/out" && rm -rf "$work/a"; }
	check "generator: idempotent, a second run gives the same tree and exit 0" t

	t() { mkroot; mkdir -p "$root/out/rescue.target.wants"; ln -s /wrong "$root/out/rescue.target.wants/$target"
		gen && hooked; }
	check "generator: replaces a stale symlink" t

	t() { mkroot; env -u container -u SYSTEMD_VIRTUALIZATION -u SYSTEMD_IN_INITRD \
		USER_BOOTED_ROOT="$root" "$gen" "$root/out" && hooked; }
	check "generator: accepts a single output directory" t

	t() { mkroot; ! USER_BOOTED_ROOT="$root" "$gen" && logged 3 "Expected 1 to 3"; }
	check "generator: fails without an output directory, logs at daemon.err" t

	t() { mkroot; ! env -u SYSTEMD_IN_INITRD -u container -u SYSTEMD_VIRTUALIZATION USER_BOOTED_ROOT="$root" \
		"$gen" "$root/nonexistent" && logged 3 "Failed to add"; }
	check "generator: fails when the output directory cannot be written" t

	# --- nothing to report: nothing written, nothing said unless asked
	t() { mkroot; rm "$root/proc/sys/kernel/user_booted"; why="the kernel has no"; skips; }
	check "skip: the kernel has no kernel.user_booted" t

	t() { mkroot; echo 1 >"$root/proc/sys/kernel/user_booted"; why="the kernel is not waiting"; skips; }
	check "skip: the sysctl reads 1 (no user_booted_reported, or boot ended)" t

	t() { mkroot; echo bogus >"$root/proc/sys/kernel/user_booted"; gen && nothing_written &&
		logged 4 "Cannot read"; }
	check "skip: an unreadable sysctl, with a warning" t

	t() { mkroot; : >"$root/etc/initrd-release"; why="this is the initrd"; skips; }
	check "skip: in the initrd (/etc/initrd-release)" t

	t() { mkroot; why="this is the initrd"; skips SYSTEMD_IN_INITRD=1; }
	check "skip: in the initrd (\$SYSTEMD_IN_INITRD=1)" t

	t() { mkroot; cmdline "rd.systemd.log_level=debug"; gen SYSTEMD_IN_INITRD=1 && nothing_written &&
		logged 7 "Nothing to report: this is the initrd"; }
	check "rd.systemd.log_level=debug counts in the initrd" t

	t() { mkroot; cmdline "rd.systemd.log_level=debug"; gen && hooked && silent; }
	check "rd.systemd.log_level= does not count outside the initrd" t

	t() { mkroot; : >"$root/etc/initrd-release"; gen SYSTEMD_IN_INITRD=0 && hooked; }
	check "\$SYSTEMD_IN_INITRD=0 from systemd wins over /etc/initrd-release" t

	t() { mkroot; why="this is a container"; skips SYSTEMD_VIRTUALIZATION=container:systemd-nspawn; }
	check "skip: in a container (\$SYSTEMD_VIRTUALIZATION=container:*)" t

	t() { mkroot; gen SYSTEMD_VIRTUALIZATION=vm:kvm && hooked; }
	check "hooks in a VM (\$SYSTEMD_VIRTUALIZATION=vm:kvm)" t

	t() { mkroot; echo docker >"$root/run/systemd/container"; why="this is a container"; skips; }
	check "skip: in a container (/run/systemd/container, systemd < 251)" t

	t() { mkroot; echo docker >"$root/run/systemd/container"; gen SYSTEMD_VIRTUALIZATION=none && hooked; }
	check "\$SYSTEMD_VIRTUALIZATION from systemd wins over /run/systemd/container" t

	t() { mkroot; cmdline "root=/dev/vda user_booted.auto=0 quiet"; gen && hooked; }
	check "no switch of its own: user_booted.auto=0 (an old name) changes nothing" t

	# Masks and disabling are systemd's business: the generator ignores them.
	t() { mkroot; mkdir -p "$root/etc/systemd/system"; ln -s /dev/null "$root/etc/systemd/system/$unit"
		gen && hooked; }
	check "a masked $unit does not change what the generator writes" t
}

units_tests() {
	u=$unitdir/$unit
	t() { grep -qx "Type=simple" "$u" && grep -qx "ExecStart=-$notify" "$u" &&
		grep -qx "DefaultDependencies=no" "$u" && grep -qx "WantedBy=$target" "$u" &&
		! grep -E '^(Before=|RemainAfterExit|TimeoutStartSec|PrivateNetwork)' "$u" | grep -vqx 'Before=shutdown.target'; }
	check "units: Type=simple, ExecStart=- the installed helper, no default dependencies, WantedBy=$target" t

	t() { grep -qx 'ConditionPathExists=!/etc/initrd-release' "$u" && grep -qx 'ConditionVirtualization=!container' "$u"; }
	check "units: a manual start in the initrd or a container does nothing" t

	t() { for x in $boot_targets; do [ $x = basic.target ] && continue
		grep -q "^After=.*\b$x\b" "$u" || { echo "not after $x"; return 1; }; done; }
	check "units: the service is ordered after every boot target the generator hooks" t

	t() { grep -qx "DefaultDependencies=no" "$unitdir/$target" && ! grep -q '^\[Install\]' "$unitdir/$target"; }
	check "units: $target is static, no default dependencies (else ordering cycles)" t

	t() {
		need systemd-analyze || return 0
		out=$(MANPATH="$prefix/share/man" SYSTEMD_LOG_LEVEL=notice \
			systemd-analyze verify --man=yes "$unitdir/$target" "$u" 2>&1) || { echo "$out"; return 1; }
		[ -z "$out" ] || { echo "$out"; return 1; }
	}
	check "units: systemd-analyze verify is clean (helper and man pages found)" t

	t() {
		need systemd-analyze || return 0
		systemd-analyze security --help 2>/dev/null | grep -q -- --offline || { echo "SKIP: systemd-analyze security has no --offline"; return 0; }
		out=$(systemd-analyze security --offline=yes --root="$prefix" --threshold=30 "$u" 2>&1) ||
			{ echo "$out" | tail -n 3; return 1; }
		echo "$out" | tail -n 1
	}
	check "units: systemd-analyze security: exposure at most 3.0" t

	t() {
		need systemctl || return 0
		r=$work/sysroot && rm -rf "$r" && mkdir -p "$r/etc/systemd/system" "$r/usr/lib/systemd"
		cp -a "$unitdir" "$r/usr/lib/systemd/system"
		l=$r/etc/systemd/system/$target.wants/$unit
		systemctl --root="$r" --quiet enable "$unit" && [ -L "$l" ] &&
		systemctl --root="$r" --quiet disable "$unit" && [ ! -e "$l" ] &&
		systemctl --root="$r" --quiet mask "$unit" &&
		[ "$(readlink "$r/etc/systemd/system/$unit")" = /dev/null ] &&
		[ "$(systemctl --root="$r" is-enabled "$unit" 2>&1)" = masked ]
	}
	check "units: systemctl enable/disable/mask work on the shipped unit" t
}

helper_tests() {
	t() { "$notify" --help | grep -q "$unit"; }
	check "helper: --help" t

	t() { ! "$notify" --timeout=5 2>/dev/null && ! "$notify" extra 2>/dev/null; }
	check "helper: rejects options and arguments (no timeout of its own)" t

	t() {
		[ ! -e /proc/sys/kernel/user_booted ] || { echo "SKIP: this kernel has the sysctl"; return 0; }
		! SYSTEMD_LOG_LEVEL= "$notify" 2>"$work/err" && grep -q "^<3>Cannot read /proc/sys/kernel/user_booted" "$work/err"
	}
	check "helper: fails clearly, at level err, on a kernel without the sysctl" t

	t() { ! grep -n '"/proc/sys/kernel/user_booted"' "$src"/src/*.c; }
	check "helper, generator: the sysctl path comes from <linux/user_booted.h>" t

	t() { ! grep -i 'warning:' "$work/build.log"; }
	check "helper, generator: build without compiler warnings (-Wall -Wextra)" t
}

install_tests() {
	t() {
		for f in "$prefix/lib/systemd/system-generators/user-booted-generator" "$notify"; do
			[ -x "$f" ] || { echo "missing $f"; return 1; }; done
		for f in "$unitdir/$unit" "$unitdir/$target" "$prefix"/share/man/man8/user-booted-generator.8 \
			"$prefix"/share/man/man8/user-booted-notify.8 "$prefix"/share/man/man8/$unit.8 \
			"$prefix"/share/man/man8/$target.8; do
			[ -f "$f" ] || { echo "missing $f"; return 1; }; done
		[ ! -e "$prefix/lib/systemd/system-generators/user-booted-generator-test" ]
	}
	check "install: generator, helper, units and man pages under the prefix, not the test build" t

	t() {
		grep -q "^\.B $prefix/libexec/user\\\\-booted\\\\-notify" "$prefix/share/man/man8/user-booted-notify.8" &&
		grep -q "^\.B $unitdir/user\\\\-booted.target" "$prefix/share/man/man8/user-booted-generator.8" &&
		! grep -q '@[a-z]*@' "$prefix"/share/man/man8/*.8 "$unitdir/$unit"
	}
	check "install: man pages and unit carry the install paths" t

	t() {
		need pkg-config || return 0
		d=$(pkg-config --variable=systemdsystemunitdir systemd)
		b=$work/build-default && meson setup "$b" "$src" >/dev/null 2>&1 &&
		meson introspect "$b" --installed | grep -q "\"$d/$unit\"" || { meson introspect "$b" --installed; return 1; }
	}
	check "install: with prefix /usr, units go to pkg-config's systemdsystemunitdir" t

	t() {
		[ ! -e /proc/sys/kernel/user_booted ] || { echo "SKIP: this kernel has the sysctl"; return 0; }
		mkroot
		USER_BOOTED_ROOT="$root" "$prefix/lib/systemd/system-generators/user-booted-generator" \
			"$root/out" "$root/early" "$root/late" && nothing_written
	}
	check "install: the installed generator ignores \$USER_BOOTED_ROOT" t

	t() {
		need groff || return 0
		for f in "$prefix"/share/man/man8/*.8; do
			out=$(cd "$prefix/share/man" && groff -t -man -ww -z "$f" 2>&1)
			[ -z "$out" ] || { echo "$f: $out"; return 1; }
		done
	}
	check "install: man pages render without groff warnings" t
}

for g in $groups; do
	"${g}_tests"
done
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] || exit 1
[ "$passed" -gt 0 ] || exit 77
