#!/bin/bash
# End-to-end test of the recipes of
# recipes/init-systems.rst for the init systems
# other than systemd: each recipe is installed *from the document itself*
# into a Debian root filesystem with that init, booted once with
# build/bzImage under QEMU (user_booted_reported, fallback 300 s), and judged.
#
#   sysvinit  bookworm, sysvinit-core: the sysvinit section's /etc/rc.local
#   openrc    bookworm, openrc + sysvinit-core: the same /etc/rc.local (the
#             OpenRC section sends Debian users there: no local.d on Debian)
#   runit     bookworm, runit-init: the runit section's /etc/sv/user-booted/run
#   busybox   bookworm, busybox-static as /sbin/init: the busybox section's
#             /etc/inittab
#   s6, dinit SKIP: not bootable from Debian packages (see the document)
#
# A recipe is the literal block whose first line, a comment, names its file
# ("# /etc/rc.local"), in the init's section; the block "# as root" of the
# same section holds the commands that install it, run in a chroot of the
# image.  Beside the recipe the image gets what the test needs, none of it a
# part of the recipe:
#   ub-slow   a service that takes 1 s to come up and, once up, logs
#             "ub-e2e: all-up" to the kernel log: the last of the init's
#             services, so that mark is the init's own "all services up"
#             (sysvinit/OpenRC: an LSB script, the last before rc.local's
#             $all; runit: a service with a ./check; busybox: the end of
#             the sysinit entry, /etc/init.d/rcS)
#   ub-probe  started by the init at the very end (an inittab "once" line, a
#             runit service): waits until kernel.user_booted reads 1 (at most
#             350 s, past the fallback: these bounds only order events, a
#             guest slowed by a systemd boot beside it keeps them), prints
#             "UB| key=value" lines (the kernel's "userspace boot ended"
#             line, the all-up mark, the exec events of the reporter's pid
#             from trace_event=sched:sched_process_exec, the init's own
#             status), "UB-VERDICT: pass", and powers off.
# Checks per init: booted and probed; the kernel ended boot "(reported)", not
# by its timeout; the reporter is the recipe's process (its comm, and the
# file its pid exec'd); the report came after the all-up mark (the time from
# one to the other is printed).
#
# INIT_E2E_INITS="sysvinit openrc runit busybox" (default) picks the inits;
# INIT_E2E_BASES_ONLY=1 builds the image bases and boots nothing (make test
# does so while the kernels build); INIT_E2E_TIMEOUT (450) bounds each boot, in s; CPU_FREE_FILE=PATH makes
# each boot wait until PATH exists (taking turns on a shared host).
# Images are cached by a hash of their recipe under build/rootfs/ (set
# ROOTFS_MIRROR for another Debian mirror); logs: build/init-e2e/INIT.log.
# Prints "ok N - ..." / "not ok N - ..." and "N passed, N failed"; exits
# non-zero on any failure.
set -eu
. "$(dirname "$0")/lib.sh"

DOC=$TOP/recipes/init-systems.rst
out=$BUILD/init-e2e
cache=$BUILD/rootfs
mkdir -p "$out" "$cache"
passed=0 failed=0 n=0
# check NAME DETAIL COMMAND...: one test line, DETAIL (if any) under it.
# Returns the command's status.
check() {
	local name=$1 detail=$2 rc=0
	shift 2
	n=$((n + 1))
	"$@" || rc=1
	if [ $rc -eq 0 ]; then
		echo "ok $n - $name"; passed=$((passed + 1))
	else
		echo "not ok $n - $name"; failed=$((failed + 1))
	fi
	[ -z "$detail" ] || echo "#   $detail"
	return $rc
}
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
finish() {
	echo "# wall clock: ${SECONDS_ALL}s in all"
	echo "$passed passed, $failed failed"
	[ "$failed" -eq 0 ]
	exit
}
SECONDS_ALL=0
start_all=$(date +%s)

[ "${INIT_E2E_BASES_ONLY:-0}" = 1 ] ||
	check "kernel image $BUILD/bzImage exists" "" test -f "$BUILD/bzImage" || finish
[ "$(id -u)" -eq 0 ] || { check "running as root (images keep root-owned files)" "" false || finish; }
need_packages mmdebstrap e2fsprogs busybox-static qemu-system-x86

# doc_block SECTION KEY: the literal block of the document's section SECTION
# (a title underlined with "=") whose first line is "# KEY" (alone, or
# followed by a space or a colon), without that line, de-indented.  Fails
# unless exactly one block matches.
doc_block() {
	awk -v sec="$1" -v key="# $2" '
		{ l[NR] = $0 }
		END {
			for (i = 1; i <= NR; i++) {
				if (i < NR && l[i + 1] ~ /^=+$/ && l[i] !~ /^=*$/) cur = l[i]
				if (cur != sec || l[i] !~ /::$/) continue
				j = i + 1
				while (j <= NR && l[j] ~ /^[ \t]*$/) j++
				if (j > NR || l[j] !~ /^ /) continue
				match(l[j], /^ +/); ind = RLENGTH
				first = substr(l[j], ind + 1)
				if (first != key && index(first, key " ") != 1 && index(first, key ":") != 1) continue
				found++
				blank = ""
				for (k = j + 1; k <= NR; k++) {
					if (l[k] ~ /^[ \t]*$/) { blank = blank "\n"; continue }
					match(l[k], /^ */)
					if (RLENGTH < ind) break
					printf "%s%s\n", blank, substr(l[k], ind + 1); blank = ""
				}
			}
			exit found != 1
		}' "$DOC"
}

# The mirror is a frozen snapshot: Release files are past their Valid-Until
# date; only that check is off, signatures are checked against the keyring.
common=(--variant=minbase --aptopt='Acquire::Check-Valid-Until "false"'
	--keyring=/usr/share/keyrings/debian-archive-keyring.gpg
	--dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-exclude=/usr/share/man/*'
	--dpkgopt='path-exclude=/usr/share/locale/*')
hash() { printf '%s\n' "$@" "${ROOTFS_MIRROR:-}" | sha256sum | cut -c1-16; }
# base INIT SUITE PACKAGES: the cached minbase tarball with PACKAGES (and
# busybox-static: the probe's poweroff) on stdout's path.
base() {
	local recipe=("${common[@]}" "--include=$3,busybox-static" --format=tar "$2") tar
	tar=$cache/init-$1-$2-$(hash "${recipe[@]}").tar
	if [ ! -f "$tar" ]; then
		log "building the $1 image base ($2: $3), cached as ${tar#"$TOP"/}"
		rm -f "$cache/init-$1-$2-"*.tar
		mmdebstrap --quiet "${recipe[@]}" "$tar.tmp" ${ROOTFS_MIRROR:+"$ROOTFS_MIRROR"} >&2 || return 1
		mv "$tar.tmp" "$tar"
	fi
	echo "$tar"
}

# The probe: see the top of this file.
probe_script() {
	cat <<'EOF'
#!/bin/sh
# init-e2e probe (scripts/init-e2e.sh): started by the init at the end of boot.
exec >/dev/console 2>&1 </dev/null
PATH=/usr/local/sbin:/usr/sbin:/usr/bin:/sbin:/bin
f=/proc/sys/kernel/user_booted
i=0
# dash reads byte by byte: the sysctl gives "0" and EOF, no newline, so
# read's status is no use.
while [ -e $f ] && [ $i -lt 1400 ]; do
	v=; read -r v <$f
	[ "$v" = 1 ] && break
	sleep 0.25; i=$((i + 1))
done
t=/sys/kernel/tracing
[ -e $t/trace ] || mount -t tracefs nodev $t 2>/dev/null || true
pid=$(dmesg | sed -n 's/.*user_booted: userspace boot ended (reported).* by .*\[\([0-9]*\)\];.*/\1/p' | head -n 1)
echo
echo "UB| BEGIN"
{
	echo "sysctl=$(cat $f 2>/dev/null || echo missing)"
	echo "pid1=$(readlink /proc/1/exe)"
	dmesg | grep -e 'user_booted: ' -e 'ub-e2e: ' | sed 's/^/dmesg=/'
	[ -z "$pid" ] || grep " sched_process_exec: .* pid=$pid old_pid=" $t/trace | sed 's/^/exec=/'
	[ ! -x /usr/local/sbin/ub-status ] || /usr/local/sbin/ub-status 2>&1 | sed 's/^/status=/'
} | sed 's/^/UB| /'
echo "UB| END"
echo "UB-VERDICT: pass"
sleep 1
exec busybox poweroff -f
EOF
}

# LSB script of the sysvinit and OpenRC images' ub-slow.
ub_slow_lsb() {
	cat <<'EOF'
#!/bin/sh
### BEGIN INIT INFO
# Provides:          ub-slow
# Required-Start:    $local_fs
# Required-Stop:
# Default-Start:     2 3 4 5
# Default-Stop:
# Short-Description: init-e2e: the last service to come up (takes 1 s)
### END INIT INFO
[ "$1" = start ] || exit 0
sleep 1
echo "ub-e2e: all-up: ub-slow, the last service, is up" >/dev/kmsg
EOF
}

# as_root SECTION STAGE: the section's "# as root" block, run in STAGE.
as_root() {
	local cmds
	cmds=$(doc_block "$1" "as root") || return 1
	printf '%s\n' "$cmds" | chroot "$2" /bin/sh -ex >&2
}
# install_doc SECTION FILE STAGE [MODE]: the section's block for FILE.
install_doc() {
	local body
	body=$(doc_block "$1" "$2") || return 1
	mkdir -p "$3$(dirname "$2")"
	printf '%s\n' "$body" >"$3$2"
}

# setup_INIT STAGE: the recipe from the document, then the test's parts.
# Each prints "COMM FILE": the reporter's comm and the file its pid exec'd.
setup_sysv_common() { # STAGE: inittab without gettys (no VT), the probe last
	sed -i -e '/^[1-6]:[0-9]*:respawn:.*getty/s/^/#/' "$1/etc/inittab"
	echo 'ub:2345:once:/usr/local/sbin/ub-probe' >>"$1/etc/inittab"
	ub_slow_lsb >"$1/etc/init.d/ub-slow"
	chmod +x "$1/etc/init.d/ub-slow"
}
setup_sysvinit() {
	# Documentation: "sysvinit" section, /etc/rc.local and its "as root".
	install_doc sysvinit /etc/rc.local "$1" && as_root sysvinit "$1" || return 1
	setup_sysv_common "$1"
	chroot "$1" update-rc.d ub-slow defaults >&2
	printf '#!/bin/sh\nrunlevel\nls /etc/rc2.d\n' >"$1/usr/local/sbin/ub-status"
	echo "rc.local /etc/rc.local"
}
setup_openrc() {
	# Documentation, "OpenRC": on Debian, use the sysvinit recipe.
	grep -q "On Debian, use the sysvinit" "$DOC" || return 1
	install_doc sysvinit /etc/rc.local "$1" && as_root sysvinit "$1" || return 1
	setup_sysv_common "$1"
	chroot "$1" rc-update add ub-slow default >&2
	printf '#!/bin/sh\nrc-status --nocolor default\n' >"$1/usr/local/sbin/ub-status"
	echo "rc.local /etc/rc.local"
}
setup_runit() {
	# Documentation: "runit" section, the run script and its "as root".
	install_doc runit /etc/sv/user-booted/run "$1" && as_root runit "$1" || return 1
	mkdir -p "$1/etc/sv/ub-slow" "$1/etc/sv/ub-probe"
	cat >"$1/etc/sv/ub-slow/run" <<'EOF'
#!/bin/sh
sleep 1
echo "ub-e2e: all-up: ub-slow, the last service, is up" >/dev/kmsg
touch /run/ub-slow.ready
exec sleep 100000
EOF
	printf '#!/bin/sh\nexec test -e /run/ub-slow.ready\n' >"$1/etc/sv/ub-slow/check"
	printf '#!/bin/sh\nexec /usr/local/sbin/ub-probe\n' >"$1/etc/sv/ub-probe/run"
	chmod +x "$1"/etc/sv/ub-*/run "$1/etc/sv/ub-slow/check"
	ln -s /etc/sv/ub-slow /etc/sv/ub-probe "$1/etc/runit/runsvdir/default/"
	printf '#!/bin/sh\ncd /etc/service && sv status *\n' >"$1/usr/local/sbin/ub-status"
	echo "run ./run"
}
setup_busybox() {
	# Documentation: "busybox init" section, /etc/inittab.
	install_doc "busybox init" /etc/inittab "$1" || return 1
	ln -sf /bin/busybox "$1/sbin/init"
	mkdir -p "$1/etc/init.d"
	cat >"$1/etc/init.d/rcS" <<'EOF'
#!/bin/sh
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t tmpfs tmpfs /run
sleep 1
echo "ub-e2e: all-up: rcS, the sysinit entry, is done" >/dev/kmsg
EOF
	chmod +x "$1/etc/init.d/rcS"
	echo '::once:/usr/local/sbin/ub-probe' >>"$1/etc/inittab"
	printf '#!/bin/sh\ncat /etc/inittab\n' >"$1/usr/local/sbin/ub-status"
	echo "sh /bin/sh"
}

kv() { sed -n "s/^$2=//p" "$out/$1.kv" | head -n 1; } # kv INIT KEY
# The kernel's "userspace boot ended" line as: timestamp reason comm pid.
ended() {
	sed -n 's/^dmesg=\[ *\([0-9.]*\)\] user_booted: userspace boot ended (\([a-z]*\)).* by \(.*\)\[\([0-9]*\)\];.*/\1 \2 \3 \4/p' \
		"$out/$1.kv" | head -n 1
}
allup() { sed -n 's/^dmesg=\[ *\([0-9.]*\)\] ub-e2e: all-up.*/\1/p' "$out/$1.kv" | tail -n 1; }

# run INIT SUITE PACKAGES: build, boot and judge one init.
run() {
	local init=$1 suite=$2 pkgs=$3 tar stage img log rc=0 expect comm file ts reason rcomm pid up lag t0
	log=$out/$init.log img=$out/$init.ext4
	t0=$SECONDS
	if ! tar=$(base "$init" "$suite" "$pkgs"); then
		check "$init: image base built (mmdebstrap $suite $pkgs)" "" false || true
		return
	fi
	[ "${INIT_E2E_BASES_ONLY:-0}" = 0 ] || return 0
	stage=$(mktemp -d "$out/stage-$init.XXXXXX")
	tar -C "$stage" -xpf "$tar"
	mkdir -p "$stage/usr/local/sbin"
	probe_script >"$stage/usr/local/sbin/ub-probe"
	chmod +x "$stage/usr/local/sbin/ub-probe"
	echo "ub-$init" >"$stage/etc/hostname"
	expect=$("setup_$init" "$stage" 2>"$out/$init.setup") || expect=
	[ ! -e "$stage/usr/local/sbin/ub-status" ] || chmod +x "$stage/usr/local/sbin/ub-status"
	check "$init: recipe installed from the document ($suite: $pkgs)" \
		"$(tail -n 3 "$out/$init.setup" | tr '\n' ';')" test -n "$expect" || { rm -rf "$stage"; return; }
	rm -f "$img"
	mkfs.ext4 -q -F -L "ub-$init" -d "$stage" "$img" 512M >/dev/null
	rm -rf "$stage"
	local build_s=$((SECONDS - t0))
	# CPU_FREE_FILE: wait for it before booting (a host that shares its CPUs).
	if [ -n "${CPU_FREE_FILE:-}" ]; then
		while [ ! -e "$CPU_FREE_FILE" ]; do sleep 20; done
	fi
	t0=$SECONDS
	# -r: the guest's RNG seeded at boot (nothing waits for entropy).
	bash "$TOP/scripts/qemu-run.sh" -r -d "$img" -t "${INIT_E2E_TIMEOUT:-450}" -l "$log" \
		-a "root=/dev/vda rw user_booted_reported user_booted_timeout=300 trace_event=sched:sched_process_exec" \
		2>"$log.qemu" || rc=$?
	rm -f "$img"
	tr -d '\r' <"$log" | sed -n '/UB| BEGIN/,/UB| END/s/^.*UB| //p' >"$out/$init.kv"
	check "$init: booted, the probe ran and powered off" \
		"log: ${log#"$TOP"/}; $(head -n 1 "$log.qemu"); image ${build_s}s, boot $((SECONDS - t0))s" \
		test $rc -eq 0 -a -s "$out/$init.kv" || return 0
	read -r comm file <<<"$expect"
	read -r ts reason rcomm pid <<<"$(ended "$init")" || true
	check "$init: the kernel says userspace boot ended (reported), not by its timeout" \
		"$(sed -n 's/^dmesg=.*\(user_booted: userspace boot ended.*\)/\1/p' "$out/$init.kv" | head -n 1)" \
		test "${reason:-}" = reported || true
	check "$init: the reporter is the recipe's process ($comm, exec of $file)" \
		"reporter ${rcomm:-?}[${pid:-?}]; its execs: $(sed -n 's/^exec=.*sched_process_exec: //p' "$out/$init.kv" | tr '\n' ';')" \
		eval 'test "${rcomm:-}" = "$comm" && grep -q "^exec=.* sched_process_exec: filename=$file pid=$pid " "$out/$init.kv"' || true
	up=$(allup "$init")
	lag=$(awk -v r="${ts:-}" -v u="$up" 'BEGIN { if (r != "" && u != "") printf "%.3f", r - u }')
	echo "# $init: all services up at ${up:-?} s, reported at ${ts:-?} s: ${lag:-?} s from all-up to the report"
	check "$init: the report came after the init's all-up point" "" \
		awk -v l="${lag:-}" 'BEGIN { exit !(l != "" && l >= 0) }' || true
	echo "$init ${lag:-?}" >>"$out/lags"
}

rm -f "$out/lags"
for init in ${INIT_E2E_INITS:-sysvinit openrc runit busybox}; do
	case $init in
	sysvinit) run sysvinit bookworm sysvinit-core ;;
	openrc) run openrc bookworm openrc,sysvinit-core ;;
	runit) run runit bookworm runit-init ;;
	busybox) run busybox bookworm busybox-static ;;
	*) check "$init: a known init (sysvinit openrc runit busybox)" "" false || true ;;
	esac
done
skip "s6: recipe booted" "Debian packages s6, not s6-linux-init or s6-rc (bookworm, trixie, sid): no s6 init to boot"
skip "dinit: recipe booted" "Debian does not package dinit (bookworm, trixie, sid)"
SECONDS_ALL=$(($(date +%s) - start_all))
finish
