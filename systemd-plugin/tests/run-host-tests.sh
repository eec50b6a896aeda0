#!/bin/sh
# Host-side tests of the systemd plugin; no root, no VM.
#
# Builds and installs the plugin into a scratch prefix, then runs the test
# build of the generator (user-booted-generator-test: the same source, but it
# reads /proc, /etc, /run and /dev/kmsg below $USER_BOOTED_ROOT) against fake
# system trees, one per case.
#
# Usage: tests/run-host-tests.sh      Prints "ok N - name" lines, then
# "N passed, N failed"; exits non-zero if anything failed.
set -eu

src=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

prefix=$work/prefix
build=$work/build
if ! { meson setup "$build" "$src" --prefix="$prefix" \
	-Dsystemdsystemgeneratordir="$prefix/lib/systemd/system-generators" &&
       meson compile -C "$build" && meson install -C "$build"; } >"$work/build.log" 2>&1; then
	cat "$work/build.log"
	echo "not ok 1 - build"
	echo "0 passed, 1 failed"
	exit 1
fi
gen=$build/user-booted-generator-test
notify=$prefix/libexec/user-booted-notify
unit=user-booted.service
wants=default.target.wants/$unit

passed=0 failed=0 n=0
check() { # name command...: one test line
	name=$1; shift
	n=$((n + 1))
	if "$@" >"$work/out" 2>&1; then
		echo "ok $n - $name"; passed=$((passed + 1))
	else
		echo "not ok $n - $name"; failed=$((failed + 1))
		sed 's/^/# /' "$work/out"
	fi
}

# A fresh fake system that is booting and wants a report.
mkroot() {
	root=$work/root.$n
	rm -rf "$root"
	mkdir -p "$root/proc/sys/kernel" "$root/proc/self" "$root/dev" "$root/etc/systemd/system" \
		"$root/run/systemd/system" "$root/out" "$root/early" "$root/late"
	echo 0 >"$root/proc/sys/kernel/user_booted"
	echo "root=/dev/vda console=ttyS0 user_booted_reported" >"$root/proc/cmdline"
	echo "         0          0 4294967295" >"$root/proc/self/uid_map"
	: >"$root/dev/kmsg"
}

# Runs the test generator on $root with a clean environment plus "$@".
gen() {
	env -u container -u SYSTEMD_VIRTUALIZATION -u SYSTEMD_IN_INITRD \
		USER_BOOTED_ROOT="$root" "$@" "$gen" "$root/out" "$root/early" "$root/late"
}

enabled() {
	[ "$(readlink "$root/out/$wants")" = "../$unit" ] && [ -s "$root/out/$unit" ] &&
		[ -z "$(find "$root/early" "$root/late" -mindepth 1)" ]
}
nothing_written() {
	[ -z "$(find "$root/out" "$root/early" "$root/late" -mindepth 1)" ] || { ls -lR "$root"; return 1; }
}
logged() { grep -q -- "$1" "$root/dev/kmsg" || { cat "$root/dev/kmsg"; return 1; }; }


# --- enabled by default
t_enables() { mkroot; gen && enabled && logged "Enabled $unit"; }
check "enables $unit on a booting system that wants a report" t_enables

t_kmsg_format() { mkroot; gen && grep -Eq '^<30>user-booted-generator\[[0-9]+\]: Enabled' "$root/dev/kmsg"; }
check "logs one kmsg record, daemon.info, with name and pid" t_kmsg_format

t_unit_text() {
	mkroot; gen
	u=$root/out/$unit
	grep -qx "ExecStart=$notify" "$u" && grep -qx "Type=simple" "$u" &&
		grep -qx "After=default.target" "$u" && grep -qx "DefaultDependencies=no" "$u" &&
		! grep -q '^Before=default.target' "$u" && ! grep -q '^RemainAfterExit' "$u"
}
check "unit runs the installed helper, Type=simple, after default.target" t_unit_text

t_verify() {
	mkroot; gen
	out=$(MANPATH="$prefix/share/man" SYSTEMD_LOG_LEVEL=notice \
		systemd-analyze verify --man=yes "$root/out/$unit" 2>&1) || { echo "$out"; return 1; }
	[ -z "$out" ] || { echo "$out"; return 1; }
}
check "systemd-analyze verify is clean (helper and man pages found)" t_verify

t_one_arg() { mkroot; env -u container -u SYSTEMD_VIRTUALIZATION -u SYSTEMD_IN_INITRD \
	USER_BOOTED_ROOT="$root" "$gen" "$root/out" && enabled; }
check "accepts a single output directory" t_one_arg

t_bad_args() { mkroot; ! USER_BOOTED_ROOT="$root" "$gen"; }
check "fails without an output directory" t_bad_args

t_unwritable() { mkroot; ! gen_in "$root/nonexistent"; }
gen_in() { env -u container -u SYSTEMD_VIRTUALIZATION -u SYSTEMD_IN_INITRD \
	USER_BOOTED_ROOT="$root" "$gen" "$1" "$root/early" "$root/late"; }
check "fails when the output directory cannot be written" t_unwritable

# --- skip rules
t_no_sysctl() { mkroot; rm "$root/proc/sys/kernel/user_booted"; gen && nothing_written && logged "Kernel has no"; }
check "skips when the kernel has no kernel.user_booted" t_no_sysctl

t_booted() { mkroot; echo 1 >"$root/proc/sys/kernel/user_booted"; gen && nothing_written && logged "already ended"; }
check "skips when boot has already ended" t_booted

t_initrd_file() { mkroot; mkdir -p "$root/etc"; : >"$root/etc/initrd-release"; gen && nothing_written && logged initrd; }
check "skips in the initrd (/etc/initrd-release)" t_initrd_file

t_initrd_env() { mkroot; gen SYSTEMD_IN_INITRD=1 && nothing_written && logged initrd; }
check "skips in the initrd (\$SYSTEMD_IN_INITRD=1)" t_initrd_env

t_initrd_env0() { mkroot; : >"$root/etc/initrd-release"; gen SYSTEMD_IN_INITRD=0 && enabled; }
check "\$SYSTEMD_IN_INITRD=0 from systemd wins over /etc/initrd-release" t_initrd_env0

t_ct_virt() { mkroot; gen SYSTEMD_VIRTUALIZATION=container:systemd-nspawn && nothing_written && logged container; }
check "skips in a container (\$SYSTEMD_VIRTUALIZATION=container:*)" t_ct_virt

t_vm_virt() { mkroot; gen SYSTEMD_VIRTUALIZATION=vm:kvm && enabled; }
check "enables in a VM (\$SYSTEMD_VIRTUALIZATION=vm:kvm)" t_vm_virt

t_ct_env() { mkroot; gen container=lxc && nothing_written && logged container; }
check "skips in a container (\$container)" t_ct_env

t_ct_file() { mkroot; echo docker >"$root/run/systemd/container"; gen && nothing_written && logged container; }
check "skips in a container (/run/systemd/container)" t_ct_file

t_userns() { mkroot; echo "         0     100000      65536" >"$root/proc/self/uid_map"; gen && nothing_written && logged container; }
check "skips in a user namespace" t_userns

t_no_userns() { mkroot; rm "$root/proc/self/uid_map"; gen && enabled; }
check "enables on a kernel without user namespaces" t_no_userns

# --- opt-out
t_optout() { mkroot; echo "root=/dev/vda user_booted.auto=0 quiet" >"$root/proc/cmdline"; gen && nothing_written && logged "user_booted.auto=0"; }
check "opt-out: user_booted.auto=0 on the kernel command line" t_optout

t_optout_dash() { mkroot; echo "user-booted.auto=off" >"$root/proc/cmdline"; gen && nothing_written; }
check "opt-out: '-' and '_' alike, boolean words (user-booted.auto=off)" t_optout_dash

t_optout_last() { mkroot; echo "user_booted.auto=0 user_booted.auto" >"$root/proc/cmdline"; gen && enabled; }
check "opt-out: the last occurrence wins (bare switch re-enables)" t_optout_last

t_optout_bad() { mkroot; echo "user_booted.auto=maybe" >"$root/proc/cmdline"; gen && enabled && logged "Ignoring invalid user_booted.auto=maybe"; }
check "opt-out: an invalid value is ignored with a warning" t_optout_bad

t_optout_quoted() { mkroot; echo 'foo="a user_booted.auto=0" bar' >"$root/proc/cmdline"; gen && enabled; }
check "opt-out: a quoted value of another parameter does not count" t_optout_quoted

t_optout_prefix() { mkroot; echo "xuser_booted.auto=0 user_booted.autox=0" >"$root/proc/cmdline"; gen && enabled; }
check "opt-out: only the exact parameter name counts" t_optout_prefix

t_mask_etc() { mkroot; ln -s /dev/null "$root/etc/systemd/system/$unit"; gen && nothing_written && logged masked; }
check "opt-out: masked in /etc (systemctl mask)" t_mask_etc

t_mask_run() { mkroot; : >"$root/run/systemd/system/$unit"; gen && nothing_written && logged masked; }
check "opt-out: masked in /run (empty file)" t_mask_run

t_override() { mkroot; echo "[Service]" >"$root/etc/systemd/system/$unit"; gen && enabled; }
check "an admin's own $unit in /etc is not a mask" t_override

# --- idempotence
snapshot() { (cd "$root/out" && find . -printf '%p %y %l\n' | sort && cat "$unit"); }
t_idem() {
	mkroot; gen; snapshot >"$work/a"; gen; snapshot >"$work/b"
	cmp "$work/a" "$work/b"
}
check "idempotent: a second run gives the same tree and exit 0" t_idem

t_stale() {
	mkroot; mkdir -p "$root/out/default.target.wants"
	ln -s /wrong "$root/out/$wants"; echo junk >"$root/out/$unit"
	gen && enabled && grep -qx "ExecStart=$notify" "$root/out/$unit" && ! grep -q junk "$root/out/$unit"
}
check "idempotent: replaces a stale unit and symlink" t_stale

# --- the installed binaries
t_installed() {
	[ -x "$prefix/lib/systemd/system-generators/user-booted-generator" ] && [ -x "$notify" ] &&
		[ -f "$prefix/share/man/man8/user-booted-generator.8" ] &&
		[ -f "$prefix/share/man/man8/user-booted-notify.8" ] &&
		[ ! -e "$prefix/lib/systemd/system-generators/user-booted-generator-test" ]
}
check "installs generator, helper and man pages, not the test build" t_installed

t_prod_ignores_root() {
	# The real generator must read the real /proc: this host has no
	# kernel.user_booted, so it must skip even though the fake root says 0.
	[ ! -e /proc/sys/kernel/user_booted ] || { echo "host has the sysctl; not applicable"; return 0; }
	mkroot
	USER_BOOTED_ROOT="$root" "$prefix/lib/systemd/system-generators/user-booted-generator" \
		"$root/out" "$root/early" "$root/late" && nothing_written
}
check "the installed generator ignores \$USER_BOOTED_ROOT" t_prod_ignores_root

t_man() { for f in "$src"/man/*.8; do out=$(groff -t -man -ww -z "$f" 2>&1); [ -z "$out" ] || { echo "$f: $out"; return 1; }; done; }
check "man pages render without groff warnings" t_man

t_notify_help() { "$notify" --help | grep -q -- --timeout; }
check "helper: --help" t_notify_help

t_notify_badarg() { ! "$notify" --timeout=soon && ! "$notify" extra; }
check "helper: rejects a bad --timeout and extra arguments" t_notify_badarg

t_notify_nosysctl() {
	[ ! -e /proc/sys/kernel/user_booted ] || { echo "host has the sysctl; not applicable"; return 0; }
	! "$notify" 2>"$work/err" && grep -q "Cannot read /proc/sys/kernel/user_booted" "$work/err"
}
check "helper: fails clearly on a kernel without the sysctl" t_notify_nosysctl

t_abi() {
	# The path comes from the uapi header only.
	! grep -n '"/proc/sys/kernel/user_booted"' "$src"/src/*.c
}
check "sources take the sysctl path from <linux/user_booted.h>" t_abi

t_warnings() { ! grep -i 'warning:' "$work/build.log" || return 1; }
check "builds without compiler warnings (-Wall -Wextra)" t_warnings

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
