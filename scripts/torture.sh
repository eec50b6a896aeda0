#!/bin/bash
# make torture: rcutorture's own scenarios (tools/testing/selftests/rcutorture/
# bin/kvm.sh) on the series' 7.3 tree, with the series' boot mode ending in the
# middle of each run: kvm.sh's init never writes kernel.user_booted, so the
# fallback (user_booted_timeout=N) ends userspace boot N s after
# init launch, while rcutorture runs.  Not part of make test.
#
# kvm.sh builds each scenario once and runs it with the first set of boot
# arguments; kvm-again.sh runs the same kernels again with the others:
#   fallback-$T1   user_booted_reported user_booted_timeout=$T1
#   fallback-$T2   the same with $T2
#   rcu-normal     the same with $T1, rcupdate.rcu_user_booted_always=1
#                  rcupdate.rcu_normal_after_boot=1 (follow the report even
#                  with isolated CPUs; normal grace periods after it)
#   control        user_booted_reported=0 (the off switch): boot mode
#                  ends at init launch, as without the series
# Each scenario of each run must show (check()):
#   - kvm-recheck.sh clean: rcutorture's SUCCESS, no splat or warning;
#   - the CPUs kvm.sh gave the guest ("Total of N processors activated");
#   - with user_booted_reported, the fallback's line (the series in play);
#   - when rcutorture's writer saw boot-time expediting end (a line that
#     scripts/torture-writer.patch, an instrument applied to this worktree
#     only, adds): after the fallback's line where RCU follows the report
#     (fallback runs, no isolated CPUs, no rcu_normal); before it with
#     CPUs isolated (nohz_full=/isolcpus= that the kernel took: RCU keeps
#     today's end of boot mode there),
#     and before T1 in the control run; with rcu_normal, or Tiny RCU,
#     printed, not judged (the writer never expedites there).
#
#   TORTURE_CONFIGS   kvm.sh --configs (default: the scenarios RCU's
#                     maintainers asked for, below)
#   TORTURE_CPUS      kvm.sh --cpus (default 8): the vCPUs a batch of
#                     scenarios shares, on this machine's 2 cores under TCG;
#                     a scenario that asks for more gets this many
#   TORTURE_DURATION  minutes of each run (default 2: a smoke test; kvm.sh's
#                     own default is 30); TORTURE_TIMEOUTS "T1 T2" in
#                     seconds (default "20 60"): both well inside it
#
# The base config is tinyconfig + configs/torture-base.config, not kvm.sh's
# defconfig (about 40 minutes to build a scenario on two cores): the
# fragment says what it adds and why.  kvm.sh's configcheck.sh checks every
# scenario's own options against the built config; this script checks the
# base's CONFIG_BUG and CONFIG_USER_BOOTED.
#
# QEMU: kvm.sh knows QEMU by its bare name (its -smp, -machine and boot
# image depend on it) and asks for accel=kvm; this machine's /dev/kvm may not
# work (nested), so a wrapper of that name, first in PATH, probes KVM as
# qemu-run.sh does and otherwise runs the same command line under TCG.
# Results: build/torture/<date>/, summary build/torture/<date>/summary.txt
# (bench/torture/ keeps the committed ones).
set -eu
. "$(dirname "$0")/lib.sh"
[ "$KERNEL" = "$KERNEL_MAIN" ] || die "make torture runs the series as sent ($KERNEL_MAIN)"

configs=${TORTURE_CONFIGS:-TREE04 TREE05 TREE07 SRCU-N SRCU-P TASKS01 TASKS03 TRACE01 RUDE01 TINY01 NOCB01}
cpus=${TORTURE_CPUS:-8}
duration=${TORTURE_DURATION:-2}
read -r t1 t2 <<<"${TORTURE_TIMEOUTS:-20 60}"
[ "$((t2 + 30))" -lt "$((duration * 60))" ] || die "TORTURE_TIMEOUTS ($t1 $t2) must end boot mode inside a ${duration}-minute run"
[ -d "$TREE/.git" ] || die "no series tree: make tree first"
# kvm.sh's awk scripts are gawk's (mawk, Debian's default, cannot parse them).
need_packages gawk

wt=$BUILD/torture-tree
# (TORTURE_RECHECK, below, touches neither the worktree nor the wrappers.)
[ -z "${TORTURE_RECHECK:-}" ] || res=$(cd "$TORTURE_RECHECK" && pwd)
if [ -z "${TORTURE_RECHECK:-}" ]; then
[ -d "$wt" ] || git -C "$TREE" worktree add -q --detach "$wt" series
git -C "$wt" checkout -q -f --detach series
git -C "$wt" clean -q -fdx -e tools/testing/selftests/rcutorture/res
git -C "$wt" apply "$TOP/scripts/torture-writer.patch" || die "scripts/torture-writer.patch does not apply"
cp "$TOP/configs/torture-base.config" "$wt/kernel/configs/user-booted-torture.config"
stamp=$(date -u +%Y.%m.%d-%H.%M.%S)
res=$BUILD/torture/$stamp
mkdir -p "$res/bin"

# The QEMU wrapper: accel=kvm -> the accelerator this machine has.
acc=$(qemu_accel)
real=$(command -v qemu-system-x86_64) || die "no qemu-system-x86_64"
# kvm.sh caps a guest's CPUs at the host's (getconf); under TCG they may be
# more than the host has, as TORTURE_CPUS says.
cat >"$res/bin/getconf" <<EOF
#!/bin/sh
[ "\$*" = _NPROCESSORS_ONLN ] && echo $cpus && exit 0
exec $(command -v getconf) "\$@"
EOF
cat >"$res/bin/qemu-system-x86_64" <<EOF
#!/bin/sh
# kvm.sh's command line, on $acc (scripts/torture.sh).
n=\$#
while [ \$n -gt 0 ]; do
	a=\$1; shift; n=\$((n - 1))
	case $acc:\$a in
	tcg:-enable-kvm) continue ;;
	*accel=kvm*) a=\$(echo "\$a" | sed 's/accel=kvm/accel=$acc/') ;;
	esac
	set -- "\$@" "\$a"
done
exec $real "\$@"
EOF
chmod +x "$res/bin/qemu-system-x86_64" "$res/bin/getconf"
export PATH=$res/bin:$PATH
fi

base="user_booted_reported user_booted_timeout="
bin=tools/testing/selftests/rcutorture/bin
start=$(date +%s)
failed=0
sum=$res/summary.txt
fail() { echo "  $1: FAIL: $2"; failed=$((failed + 1)); }

# at CONSOLE ERE: the uptime of the first console line matching ERE.
at() { sed -n -E "s/^\[ *([0-9.]+)\] .*$2.*/\1/p" "$1" | head -n 1; }
before() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a != "" && b != "" && a + 0 < b + 0) }'; }

# check RUN: kvm.sh's verdict and, per scenario, the CPUs, when boot mode
# ended and when rcutorture's writer saw it; appended to the summary as
# soon as RUN ends, so a stopped session keeps what finished.
check() {
	local run=$1 d c s args want got init fb exp iso unknown w n=0
	echo
	echo "== $run ($(($(date +%s) - start)) s after the start)"
	# kvm.sh's own verdict (kvm-recheck.sh: exit 0 when all is clean).
	(cd "$wt" && "$bin/kvm-recheck.sh" "$res/$run") >"$res/$run.recheck" 2>&1 ||
		fail "$run" "kvm-recheck.sh exit $?"
	sed 's/^/  /' "$res/$run.recheck"
	for s in $configs; do
		d=$res/$run/$s c=$res/$run/$s/console.log
		[ -s "$c" ] || { fail "$s" "no console log: did not run (${res#"$TOP"/}/$run.log)"; continue; }
		n=$((n + 1))
		args=$(sed -n 's/^\[ *[0-9.]*\] Kernel command line: //p' "$c" | head -n 1 | tr -d '\r')
		want=$(sed -n 's/^# TORTURE_CPU_COUNT=//p' "$d/qemu-cmd")
		got=$(sed -n -E 's/.*smp: Brought up [0-9]+ nodes?, ([0-9]+) CPUs?.*/\1/p' "$c" | head -n 1)
		[ -n "$got" ] || ! grep -q '^CONFIG_SMP=y' "$d/.config" 2>/dev/null || got=none
		[ -n "$got" ] || got=1
		init=$(at "$c" 'Run .* as init process')
		fb=$(at "$c" 'user_booted: init did not report')
		exp=$(at "$c" 'Boot-time GP expediting has ended \(make torture\)')
		# Isolated CPUs as the kernel took them: a nohz_full= or isolcpus=
		# that housekeeping_setup() refuses (TREE07's nohz_full=2-9 on the
		# 8 vCPUs TORTURE_CPUS gives it) is an unknown parameter to
		# init/main.c, which lists it; one it takes is not listed.
		unknown=$(sed -n 's/.*Unknown kernel command line parameters "\([^"]*\)".*/\1/p' "$c" | head -n 1)
		iso=no
		for w in $args; do
			case $w in
			nohz_full=* | isolcpus=*)
				case " $unknown " in
				*" $w "*) iso="no (refused: $w)" ;;
				*) iso=yes && break ;;
				esac ;;
			esac
		done
		echo "  $s: $got of $want CPUs; isolated CPUs: $iso; init at ${init:-?} s; fallback at ${fb:--} s; writer saw expediting end at ${exp:--} s"
		[ "$got" = "$want" ] || fail "$s" "the guest has $got CPUs, kvm.sh gave it $want"
		{ grep -q "^CONFIG_BUG=y" "$d/.config" && grep -q "^CONFIG_USER_BOOTED=y" "$d/.config"; } ||
			fail "$s" "its .config lacks CONFIG_BUG=y or CONFIG_USER_BOOTED=y"
		if [ "$run" = control ]; then
			[ -z "$fb" ] || fail "$s" "the fallback fired without user_booted_reported"
		elif [ -z "$fb" ]; then
			fail "$s" "no fallback line: boot mode never ended in this run"
		elif [ -n "$init" ]; then
			awk -v s="$s" -v f="$fb" -v i="$init" -v t="${args##*user_booted_timeout=}" \
				'BEGIN { printf "  %s: the fallback came %.1f s after init launch (timeout %d s)\n", s, f - i, t }'
		fi
		# Where the writer's line is judged: Tree RCU (Tiny never
		# expedites at boot), no normal grace periods forced, RCU following
		# the report (no isolated CPUs, or rcu_user_booted_always=1).
		case " $args " in *" rcupdate.rcu_normal=1 "* | *" rcupdate.rcu_normal_after_boot=1 "*) continue ;; esac
		grep -q '^CONFIG_TREE_RCU=y' "$d/.config" || continue
		if [ "$run" = control ]; then
			before "$exp" "$t1" || fail "$s" "without the report, boot-time expediting should end at init launch (writer: ${exp:-never})"
		elif [ "$iso" != yes ]; then
			before "$fb" "$exp" || fail "$s" "boot-time expediting ended before the fallback (writer: ${exp:-never})"
		elif [[ " $args " != *" rcupdate.rcu_user_booted_always=1 "* ]]; then
			# Isolated CPUs: RCU keeps today's end of boot mode.
			before "$exp" "$fb" || fail "$s" "with isolated CPUs boot-time expediting should end at init launch (writer: ${exp:-never})"
		fi
	done
	echo "  $n of $(wc -w <<<"$configs") scenarios ran"
}

# TORTURE_RECHECK=DIR: judge a finished run's results again (this script's
# checks as they are now), into DIR/summary.txt; nothing is built or run.
if [ -n "${TORTURE_RECHECK:-}" ]; then
	configs=$(for d in "$res/fallback-$t1"/*/ConfigFragment; do basename "$(dirname "$d")"; done | paste -sd' ')
	sed -i '/^$/,$d' "$sum"
	echo "(judged again by TORTURE_RECHECK, $(date -u '+%Y-%m-%d %H:%M UTC'), repository $(git -C "$TOP" log -1 --format=%h))" >>"$sum"
	for run in "fallback-$t1" "fallback-$t2" rcu-normal control; do
		[ ! -d "$res/$run" ] || check "$run" >>"$sum"
	done
	echo >>"$sum"
	echo "$failed failures (judged again)" >>"$sum"
	cat "$sum"
	[ "$failed" -eq 0 ]
	exit
fi

{
	echo "make torture, started $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "tree: $(git -C "$wt" log -1 --format='%h %s') on $(git -C "$wt" log -1 --format=%h base) (base), with scripts/torture-writer.patch"
	echo "repository: $(git -C "$TOP" log -1 --format='%h %s')"
	echo "kvm.sh --cpus $cpus --duration $duration --defconfig \"tinyconfig user-booted-torture.config\" (configs/torture-base.config) --kconfig CONFIG_USER_BOOTED=y"
	echo "QEMU $acc ($("$real" --version | head -n 1)), on $(nproc) host CPUs"
} >"$sum"

first=fallback-$t1
log "kvm.sh: $configs, ${duration} min each, $cpus vCPUs, $acc; boot mode ends at ${t1} s (then ${t2} s, rcu_normal, control); results in ${res#"$TOP"/}"
(cd "$wt" && "$bin/kvm.sh" --cpus "$cpus" --duration "$duration" --configs "$configs" \
	--defconfig "tinyconfig user-booted-torture.config" --kconfig "CONFIG_USER_BOOTED=y" \
	--kmake-arg "CC=$KCC" --trust-make --bootargs "${base}$t1" --results "$res" --datestamp "$first") \
	>"$res/$first.log" 2>&1 || true
check "$first" >>"$sum"
# again NAME ARGS: the same kernels, other boot arguments (copies: kvm-again
# rewrites each scenario's qemu-cmd in place).
again() {
	(cd "$wt" && "$bin/kvm-again.sh" "$res/$first" --duration "$duration" --bootargs "$2" \
		--rundir "$res/$1" --link copy) >"$res/$1.log" 2>&1 || true
	check "$1" >>"$sum"
}
again "fallback-$t2" "${base}$t2"
again rcu-normal "${base}$t1 rcupdate.rcu_user_booted_always=1 rcupdate.rcu_normal_after_boot=1"
again control user_booted_reported=0

{
	echo
	echo "$(($(date +%s) - start)) s wall clock; $failed failures"
} >>"$sum"
cat "$sum"
[ "$failed" -eq 0 ]
