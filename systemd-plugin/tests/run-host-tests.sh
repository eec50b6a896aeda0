#!/bin/sh
# Host-side tests of the systemd plugin; no root, no VM.
#
# Usage: tests/run-host-tests.sh [BUILDDIR] [GROUP...]
#   BUILDDIR  a configured and built meson build directory (meson test passes
#             its own): its artifacts are tested, with its options, installed
#             with DESTDIR into a scratch directory.  Without it (CI, make
#             test) a scratch build is made first: the in-tree uapi header,
#             warnings as errors.
#   GROUP     generator, units, report, install (default: all); without a
#             BUILDDIR also package: tests/package-dry-run.sh, a Debian
#             package build in a clean chroot (root and mmdebstrap, else SKIP;
#             about 30 s, 3 min more the first time: mmdebstrap).
# The generator's test build (user-booted-generator-test: the same source,
# reading /proc, /etc and /run below $USER_BOOTED_ROOT) runs against fake
# system trees; user-booted-report runs with a fake systemctl on PATH.
# Prints TAP ("ok N - name", "# SKIP" for a check this host cannot run),
# then "N passed, N failed, N skipped"; exits 1 if anything failed, 77 if
# everything was skipped (meson test: skipped).
set -eu

src=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
groups="generator units report install"
if [ -d "${1:-}" ]; then
	build=$(cd "$1" && pwd)
	shift
else
	groups="$groups package"
	build=$work/build
	if ! { meson setup --werror -Duapi="$src/../uapi" "$build" "$src" &&
	       meson compile -C "$build" && meson compile -C "$build" user-booted-generator-test; } >"$work/build.log" 2>&1; then
		cat "$work/build.log"
		echo "not ok 1 - build (-Duapi=$src/../uapi, --werror)"
		echo "0 passed, 1 failed, 0 skipped"
		exit 1
	fi
fi
groups=${*:-$groups}

# What this build installs where, from meson itself.
dest=$work/dest
DESTDIR=$dest meson install -C "$build" --no-rebuild --quiet >"$work/install.log" 2>&1 ||
	{ cat "$work/install.log"; echo "not ok 1 - meson install"; exit 1; }
installed() { meson introspect "$build" --installed | tr ',' '\n' | sed -n "s|.*\"\\([^\"]*/$1\\)\"[ }]*\$|\\1|p"; }
unit=user-booted.service
unitpath=$(installed "$unit")
genpath=$(installed user-booted-generator)
report=$(installed user-booted-report)
gen=$build/user-booted-generator-test
# Not built by default: meson test builds it (it depends on it).
[ -x "$gen" ] || [ "$groups" = "${groups#*generator}" ] ||
	{ echo "not ok 1 - $gen is not built (meson test builds it; or meson compile -C BUILDDIR user-booted-generator-test)"; exit 1; }

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

# A fresh fake system whose kernel waits for a report.
mkroot() {
	root=$work/root.$n
	rm -rf "$root"
	mkdir -p "$root/proc/sys/kernel" "$root/dev" "$root/etc" "$root/run/systemd" "$root/normal" "$root/early" "$root/late"
	echo 0 >"$root/proc/sys/kernel/user_booted"
	: >"$root/dev/kmsg"
}
# gen [VAR=VALUE...]: the test generator on $root, clean environment plus those.
gen() {
	env -u container -u SYSTEMD_VIRTUALIZATION -u SYSTEMD_IN_INITRD \
		USER_BOOTED_ROOT="$root" "$@" "$gen" "$root/normal" "$root/early" "$root/late" 2>"$root/stderr"
}
# said: what it logged to (the fake) /dev/kmsg and stderr.
said() { cat "$root/dev/kmsg" "$root/stderr"; }
links() { (cd "$1" && find . -mindepth 1 -printf '%P -> %l\n' | sort); }
# hooked [DIR]: exactly the three links, in DIR (default: the early dir),
# nothing anywhere else, nothing said.
hooked() {
	d=${1:-$root/early}
	want=$(printf '%s\n' basic rescue emergency | sort | while read -r t; do
		printf '%s.target.wants -> \n%s.target.wants/%s -> %s\n' "$t" "$t" "$unit" "$unitpath"; done | sort)
	got=$(links "$d")
	[ "$got" = "$want" ] || { printf 'want:\n%s\ngot:\n%s\n' "$want" "$got"; return 1; }
	for o in "$root/normal" "$root/early" "$root/late"; do
		[ "$o" = "$d" ] || [ -z "$(links "$o")" ] || { echo "$o: $(links "$o")"; return 1; }
	done
	[ -z "$(said)" ] || { said; return 1; }
}
nothing() { # written and said
	for o in "$root/normal" "$root/early" "$root/late"; do
		[ -z "$(links "$o")" ] || { echo "$o: $(links "$o")"; return 1; }
	done
	[ -z "$(said)" ] || { said; return 1; }
}

generator_tests() {
	t() { mkroot; gen && hooked; }
	check "generator: links $unit into basic, rescue and emergency.target.wants of the early dir, silently" t

	t() { mkroot; gen && gen && hooked; }
	check "generator: a second run (daemon-reload into kept dirs) exits 0 with the same tree" t

	t() { mkroot; env -u SYSTEMD_IN_INITRD -u SYSTEMD_VIRTUALIZATION USER_BOOTED_ROOT="$root" \
		"$gen" "$root/normal" 2>"$root/stderr" && hooked "$root/normal"; }
	check "generator: a single directory (systemd.generator(7): all three the same)" t

	t() { mkroot; ! USER_BOOTED_ROOT="$root" "$gen" 2>"$root/stderr" &&
		! USER_BOOTED_ROOT="$root" "$gen" a b 2>>"$root/stderr" &&
		[ "$(grep -c '^<27>user-booted-generator\[[0-9]*\]: expected 1 or 3 directories$' "$root/dev/kmsg")" = 2 ]; }
	check "generator: 0 or 2 directories: exit 1, a daemon.err line in /dev/kmsg" t

	t() { mkroot; rm -r "$root/dev"; ! USER_BOOTED_ROOT="$root" "$gen" 2>"$root/stderr" &&
		grep -q '^<27>user-booted-generator\[[0-9]*\]: expected 1 or 3 directories$' "$root/stderr"; }
	check "generator: without /dev/kmsg, the same line on stderr" t

	t() { mkroot; ! env -u SYSTEMD_IN_INITRD -u SYSTEMD_VIRTUALIZATION USER_BOOTED_ROOT="$root" \
		"$gen" "$root/normal" "$root/nonexistent" "$root/late" 2>"$root/stderr" &&
		grep -q "^<27>user-booted-generator\[[0-9]*\]: $root/nonexistent/basic.target.wants: No such file or directory$" "$root/dev/kmsg"; }
	check "generator: an unwritable output directory: exit 1, the path and errno at daemon.err" t

	# Nothing to report: nothing written, nothing said, exit 0.
	t() { mkroot; rm "$root/proc/sys/kernel/user_booted"; gen && nothing; }
	check "skip: the kernel has no kernel.user_booted" t
	t() { mkroot; ln -sf user_booted "$root/proc/sys/kernel/user_booted"; gen &&
		[ -z "$(links "$root/normal")$(links "$root/early")$(links "$root/late")" ] &&
		[ "$(said | wc -l)" = 1 ] && said | grep -qx \
		'<28>user-booted-generator\[[0-9]*\]: /proc/sys/kernel/user_booted: Too many levels of symbolic links'; }
	check "skip: a sysctl it cannot read (not ENOENT): one daemon.warning line, nothing written" t
	t() { mkroot; rm "$root/proc/sys/kernel/user_booted"; mkdir "$root/proc/sys/kernel/user_booted"; gen &&
		[ -z "$(links "$root/normal")$(links "$root/early")$(links "$root/late")" ] &&
		[ "$(said | wc -l)" = 1 ] && said | grep -qx \
		'<28>user-booted-generator\[[0-9]*\]: /proc/sys/kernel/user_booted: Is a directory'; }
	check "skip: a sysctl that opens but does not read (EISDIR): one daemon.warning line, nothing written" t
	# What a build without <linux/user_booted.h> compiles (distributions):
	# the literal path, on which the same fake system hooks and skips.
	t() { need cc || return 0
		cc -o "$work/gen-nohdr" -DUSER_BOOTED_TEST -DUSER_BOOTED_UNIT_DIR="\"${unitpath%/*}\"" \
			"$src/src/user-booted-generator.c" || return 1
		mkroot; gen=$work/gen-nohdr; gen && hooked || return 1
		mkroot; echo 1 >"$root/proc/sys/kernel/user_booted"; gen && nothing; }
	check "generator: built without <linux/user_booted.h>, it reads the same sysctl" t
	gen=$build/user-booted-generator-test

	t() { mkroot; echo 1 >"$root/proc/sys/kernel/user_booted"; gen && nothing; }
	check "skip: the sysctl reads 1 (not waiting, or boot ended: soft-reboot)" t
	t() { mkroot; echo 01 >"$root/proc/sys/kernel/user_booted"; gen && nothing; }
	check "skip: the sysctl reads anything but 0" t
	t() { mkroot; : >"$root/etc/initrd-release"; gen && nothing; }
	check "skip: in the initrd (/etc/initrd-release, systemd < 251)" t
	t() { mkroot; gen SYSTEMD_IN_INITRD=1 && nothing; }
	check "skip: in the initrd (\$SYSTEMD_IN_INITRD=1)" t
	t() { mkroot; : >"$root/etc/initrd-release"; gen SYSTEMD_IN_INITRD=0 && hooked; }
	check "\$SYSTEMD_IN_INITRD=0 from systemd wins over /etc/initrd-release" t
	t() { mkroot; gen SYSTEMD_VIRTUALIZATION=container:systemd-nspawn && nothing; }
	check "skip: in a container (\$SYSTEMD_VIRTUALIZATION=container:*)" t
	t() { mkroot; gen SYSTEMD_VIRTUALIZATION=vm:kvm && hooked; }
	check "hooks in a VM (\$SYSTEMD_VIRTUALIZATION=vm:kvm)" t
	t() { mkroot; echo docker >"$root/run/systemd/container"; gen && nothing; }
	check "skip: in a container (/run/systemd/container, systemd < 251)" t
	t() { mkroot; echo docker >"$root/run/systemd/container"; gen SYSTEMD_VIRTUALIZATION=none && hooked; }
	check "\$SYSTEMD_VIRTUALIZATION=none from systemd wins over /run/systemd/container" t
	t() { mkroot; mkdir -p "$root/etc/systemd/system"; ln -s /dev/null "$root/etc/systemd/system/$unit"
		gen && hooked; }
	check "a masked $unit does not change what the generator writes (systemd ignores it)" t
}

units_tests() {
	u=$dest$unitpath
	t() { grep -qx "Type=simple" "$u" && grep -qx "ExecStart=-$report" "$u" &&
		grep -qx "DefaultDependencies=no" "$u" && grep -qx "IgnoreOnIsolate=yes" "$u" &&
		! grep -q '^\[Install\]' "$u"; }
	check "units: static, Type=simple, ExecStart=- the installed script, no default dependencies" t

	t() { grep -qx 'ConditionPathExists=!/etc/initrd-release' "$u" && grep -qx 'ConditionVirtualization=!container' "$u"; }
	check "units: a manual start in the initrd or a container does nothing" t

	t() { grep -qx 'ConditionPathExists=/proc/sys/kernel/user_booted' "$u"; }
	check "units: a manual start on a kernel without kernel.user_booted does nothing" t

	t() { grep -qx 'NoNewPrivileges=yes' "$u" && grep -qx 'CapabilityBoundingSet=CAP_SYS_ADMIN' "$u" &&
		! grep -qE '^(ProtectKernelTunables|ProtectSystem|PrivateTmp)=' "$u"; }
	check "units: no new privileges, CAP_SYS_ADMIN alone; /proc/sys left writable" t

	t() { for x in default multi-user graphical rescue emergency basic; do
		grep -q "^After=.*\b$x\.target\b" "$u" || { echo "not after $x.target"; return 1; }; done
		! grep -E '^(Before|Wants|Requires)=' "$u" | grep -vqx 'Before=shutdown.target'; }
	check "units: ordered after every boot target, before nothing but shutdown.target" t

	t() { grep -qx 'After=systemd-update-utmp-runlevel.service' "$u"; }
	check "units: ordered after systemd-update-utmp-runlevel.service (startup's last oneshot before 258): its job the last" t

	# A system root with what this build installs, the unit where systemd
	# looks also when the build's prefix is not /usr.
	r=$work/sysroot && rm -rf "$r" && cp -a "$dest" "$r" && mkdir -p "$r/etc/systemd/system" "$r/usr/lib/systemd/system"
	[ -e "$r/usr/lib/systemd/system/$unit" ] || cp "$u" "$r/usr/lib/systemd/system/"
	# verify MAN: systemd-analyze verify --man=MAN of the installed unit, clean.
	verify() {
		# It makes /run/systemd/ even with --root: a rootless package build
		# in a chroot cannot (make plugin-dry-run), so there it skips.
		[ -d /run/systemd ] || [ -w /run ] ||
			{ echo "SKIP: systemd-analyze verify needs /run/systemd/, which this user cannot make"; return 0; }
		man=$(installed user-booted.service.8) && man=${man%/man8/*}
		out=$(MANPATH="$dest$man" SYSTEMD_LOG_LEVEL=notice \
			systemd-analyze verify --root="$r" --man="$1" "$unit" 2>&1) || { echo "$out"; return 1; }
		[ -z "$out" ] || { echo "$out"; return 1; }
	}
	t() { need systemd-analyze || return 0; verify no; }
	check "units: systemd-analyze verify is clean" t
	# --man=yes runs man(1) on each Documentation= page and fails without
	# it (a package build's chroot has systemd-analyze, not man-db).
	t() { need systemd-analyze && need man || return 0; verify yes; }
	check "units: systemd-analyze verify --man=yes finds its Documentation= pages (installed)" t

	t() {
		need systemctl || return 0
		[ "$(systemctl --root="$r" is-enabled "$unit" 2>&1)" = static ] &&
		systemctl --root="$r" --quiet mask "$unit" &&
		[ "$(readlink "$r/etc/systemd/system/$unit")" = /dev/null ] &&
		[ "$(systemctl --root="$r" is-enabled "$unit" 2>&1)" = masked ]
	}
	check "units: systemctl is-enabled says static; systemctl mask masks it" t
}

# fake_report SYSTEMCTL_SCRIPT: the installed script, its sysctl a file in
# $work and its period 1 s (nothing else changed), with a fake systemctl
# first on PATH; prints the path of the copy.
fake_report() {
	mkdir -p "$work/bin"
	printf '#!/bin/sh\n%s\n' "$1" >"$work/bin/systemctl" && chmod +x "$work/bin/systemctl"
	sed -e "s|^sysctl=.*|sysctl=$work/user_booted|" -e 's|^period=.*|period=1|' "$dest$report" >"$work/report"
	chmod +x "$work/report"
	echo "$work/report"
}
run_report() { PATH="$work/bin:$PATH" "$(fake_report "$1")" >"$work/stdout" 2>"$work/stderr"; }

report_tests() {
	t() { sh -n "$dest$report" && [ -x "$dest$report" ] && grep -qx 'sysctl=/proc/sys/kernel/user_booted' "$dest$report"; }
	check "report: installed executable, valid sh, the sysctl path" t

	t() { echo 0 >"$work/user_booted"; run_report 'echo running' && [ "$(cat "$work/user_booted")" = 1 ] &&
		[ ! -s "$work/stdout" ] && [ ! -s "$work/stderr" ]; }
	check "report: startup finished: writes 1, says nothing" t

	t() { echo 0 >"$work/user_booted"; run_report 'echo degraded; exit 1' && [ "$(cat "$work/user_booted")" = 1 ]; }
	check "report: degraded (a failed unit) still reports" t

	# The first two waits never return (PID 1 re-executed under them).
	t() { echo 0 >"$work/user_booted"; : >"$work/calls"
		run_report "echo x >>$work/calls; [ \$(wc -l <$work/calls) -gt 2 ] || exec sleep 100; echo maintenance; exit 3" &&
		[ "$(cat "$work/user_booted")" = 1 ] && [ "$(wc -l <"$work/calls")" = 3 ] &&
		[ "$(grep -cx '<7>systemctl is-system-running --wait: "", exit 124 (124: timed out); asking again' "$work/stdout")" = 2 ] &&
		[ "$(wc -l <"$work/stdout")" = 2 ]; }
	check "report: a wait that never returns is given up after the period and asked again (said at debug level)" t

	# A systemctl that fails at once (no wait): asked again.
	t() { echo 0 >"$work/user_booted"; : >"$work/calls"
		run_report "echo x >>$work/calls; [ \$(wc -l <$work/calls) -gt 1 ] && { echo running; exit 0; }; echo starting; exit 1" &&
		[ "$(cat "$work/user_booted")" = 1 ] && [ "$(wc -l <"$work/calls")" = 2 ] &&
		[ "$(cat "$work/stdout")" = '<7>systemctl is-system-running --wait: "starting", exit 1 (124: timed out); asking again' ]; }
	check "report: a wait that fails at once is asked again, said at debug level" t

	# The kernel ended boot first (a sysctl gives "1" without a newline to
	# dash's byte-wise read), startup never finishes: one warning naming
	# startup's jobs, no write (the file keeps its "1"), exit 0 after one
	# wait; no awk (not Essential on Debian).
	t() { printf 1 >"$work/user_booted"; : >"$work/calls"
		printf '#!/bin/sh\nexit 2\n' >"$work/bin/awk"; chmod +x "$work/bin/awk"
		PATH="$work/bin:$PATH" timeout 30 "$(fake_report "case \$1 in list-jobs)
				echo ' 12 hold.service start running'; echo ' 1 multi-user.target start waiting'; exit 0;; esac
			echo x >>$work/calls; exec sleep 100")" >"$work/stdout" 2>"$work/stderr"
		rc=$?; rm "$work/bin/awk"
		[ $rc = 0 ] && [ "$(wc -l <"$work/calls")" = 1 ] && [ ! -s "$work/stderr" ] &&
		[ "$(grep -v '^<7>' "$work/stdout")" = "<4>The kernel ended userspace boot before systemd's startup finished; startup still waits for: hold.service start (running), multi-user.target start (waiting)" ] &&
		[ "$(cat "$work/user_booted")" = 1 ] && [ "$(wc -c <"$work/user_booted")" = 1 ] ||
		{ echo "rc $rc, $(wc -l <"$work/calls") waits"; cat "$work/stdout" "$work/stderr"; return 1; }; }
	check "report: the kernel ended boot first, startup never finishes: one warning naming its jobs, no write, exit 0" t

	t() { printf 1 >"$work/user_booted"
		PATH="$work/bin:$PATH" timeout 30 "$(fake_report "case \$1 in list-jobs)
				for i in \$(seq 11); do echo \" \$i u\$i.service start waiting\"; done; exit 0;; esac
			exec sleep 100")" >"$work/stdout" 2>"$work/stderr" &&
		[ "$(grep -cv '^<7>' "$work/stdout")" = 1 ] &&
		grep -qx "<4>.*startup still waits for: u1.service start (waiting), .*, u8.service start (waiting), and 3 more jobs" "$work/stdout"; }
	check "report: the warning names 8 jobs and counts the rest" t

	t() { run_report 'echo running'; rm -f "$work/user_booted"; mkdir "$work/user_booted"
		! run_report 'echo running' && grep -q "^<3>Cannot write 1 to $work/user_booted: .*Is a directory" "$work/stderr" &&
		rmdir "$work/user_booted"; }
	check "report: a failed write: exit 1, an err-level line with the errno" t
}

install_tests() {
	t() {
		for f in "$genpath" "$report"; do [ -x "$dest$f" ] || { echo "missing $f"; return 1; }; done
		case $report in */user-booted/user-booted-report) ;; *) echo "$report"; return 1 ;; esac
		for f in "$unitpath" "$(installed user-booted.service.8)" "$(installed user-booted-generator.8)" \
			"$(installed user-booted-report.8)"; do
			[ -f "$dest$f" ] || { echo "missing $f"; return 1; }; done
		! meson introspect "$build" --installed | grep -q user-booted-generator-test
	}
	check "install: generator, script (in libexecdir/user-booted/), unit and man pages; not the test build" t

	# man user-booted-report: the alias names the page of the service.
	t() {
		need man || return 0
		m=$(installed user-booted.service.8) && m=$dest${m%/man8/*}
		[ "$(LC_ALL=C MANPATH="$m" MANWIDTH=80 man user-booted-report 2>&1 | col -b)" = \
		  "$(LC_ALL=C MANPATH="$m" MANWIDTH=80 man user-booted.service 2>&1 | col -b)" ] &&
		LC_ALL=C MANPATH="$m" MANWIDTH=200 man user-booted-report 2>&1 | grep -q "user-booted.service, *user-booted-report - tell"
	}
	check "install: man user-booted-report shows user-booted.service(8)" t

	t() {
		grep -q "^\.B ${report%/*}/user\\\\-booted\\\\-report" "$dest$(installed user-booted.service.8)" &&
		grep -q "^\.IR ${unitpath%/*}/user\\\\-booted.service" "$dest$(installed user-booted-generator.8)" &&
		! grep -l '@[a-z_]*@' "$dest$unitpath" "$dest$report" $(find "$dest" -path '*/man8/*.8')
	}
	check "install: man pages, unit and script carry the install paths" t

	t() {
		need pkg-config || return 0
		opts=$(meson introspect "$build" --buildoptions)
		[ "$(echo "$opts" | grep -o '"name": "prefix", "value": "[^"]*"')" = '"name": "prefix", "value": "/usr"' ] ||
			{ echo "SKIP: this build's prefix is not /usr"; return 0; }
		# A packager's -Dsystemdsystem...dir= wins over pkg-config.
		! echo "$opts" | grep -qE '"name": "systemdsystem(unit|generator)dir", "value": "[^"]'  ||
			{ echo "SKIP: this build sets its unit or generator directory"; return 0; }
		[ "$unitpath" = "$(pkg-config --variable=systemdsystemunitdir systemd)/$unit" ] &&
		[ "$genpath" = "$(pkg-config --variable=systemdsystemgeneratordir systemd)/user-booted-generator" ] ||
			{ echo "$unitpath $genpath"; return 1; }
	}
	check "install: with prefix /usr, unit and generator go to pkg-config systemd's directories" t

	# A build root without systemd.pc: systemd's defaults under the prefix.
	t() {
		need meson || return 0
		PKG_CONFIG_LIBDIR=$work/no-pc PKG_CONFIG_PATH= meson setup --prefix /usr "$work/nopc" "$src" >"$work/nopc.log" 2>&1 &&
		grep -q 'systemd.pc not found: systemdsystemunitdir = /usr/lib/systemd/system$' "$work/nopc.log" &&
		grep -q 'systemd.pc not found: systemdsystemgeneratordir = /usr/lib/systemd/system-generators$' "$work/nopc.log" &&
		meson introspect "$work/nopc" --installed | grep -q '"/usr/lib/systemd/system/user-booted.service"' ||
			{ cat "$work/nopc.log"; return 1; }
	}
	check "install: without systemd.pc, systemd's default directories under the prefix, said by meson" t

	t() {
		[ ! -e /proc/sys/kernel/user_booted ] || { echo "SKIP: this host's kernel has the sysctl"; return 0; }
		mkroot
		USER_BOOTED_ROOT="$root" "$dest$genpath" "$root/normal" "$root/early" "$root/late" 2>"$root/stderr" && nothing
	}
	check "install: the installed generator ignores \$USER_BOOTED_ROOT" t

	t() {
		need groff || return 0
		for f in $(find "$dest" -path '*/man8/*.8'); do
			# (.so names the page from the man directory, as man(1) reads it)
			out=$(cd "${f%/man8/*}" && groff -t -man -ww -z "$f" 2>&1)
			[ -z "$out" ] || { echo "$f: $out"; return 1; }
		done
	}
	check "install: man pages render without groff warnings" t
}

package_tests() {
	t() {
		[ "$(id -u)" = 0 ] || { echo "SKIP: not root (chroot)"; return 0; }
		need mmdebstrap || return 0
		"$src/tests/package-dry-run.sh" bookworm
	}
	check "package: a Debian bookworm package build without the uapi header and man: configure, build, DESTDIR install, meson test" t
}

for g in $groups; do
	"${g}_tests"
done
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] || exit 1
[ "$passed" -gt 0 ] || exit 77
