#!/bin/bash
# make torture: rcutorture's own scenarios (tools/testing/selftests/rcutorture/
# bin/kvm.sh) on the series' 7.3 tree, with the series' boot mode ending in the
# middle of each run: kvm.sh's init never writes kernel.user_booted, so the
# fallback (sysctl.kernel.user_booted_timeout=N) ends userspace boot N s after
# init launch, while rcutorture runs.  Not part of make test.
#
# kvm.sh builds each scenario once (its CFcommon and scenario config plus
# CONFIG_USER_BOOTED=y), and runs it with the first set of boot arguments;
# kvm-again.sh runs the same kernels again with the others:
#   fallback-$T1   user_booted_reported sysctl.kernel.user_booted_timeout=$T1
#   fallback-$T2   the same with $T2
#   rcu-normal     the same with $T1, rcupdate.rcu_user_booted=1
#                  rcupdate.rcu_normal_after_boot=1 (follow the report even
#                  with isolated CPUs; normal grace periods after it)
# A run passes when kvm.sh's summary has no failure and every scenario's
# console says the fallback ended userspace boot (the series was in play).
#
#   TORTURE_CONFIGS   kvm.sh --configs (default: the scenarios RCU's
#                     maintainers asked for, below)
#   TORTURE_DURATION  minutes of each run (default 2); TORTURE_TIMEOUTS
#                     "T1 T2" in seconds (default "20 60"): both well inside it
#
# The base config is tinyconfig, not kvm.sh's default (defconfig): a
# defconfig scenario takes about 40 minutes to build here (2 cores), ten of
# them do not fit a session.  On top of it, what kvm.sh's guest needs
# (64-bit, serial console, initrd, ELF, /proc/sys, ACPI power-off), CPU_FREQ
# (defconfig's; without it QEMU's ACPI processor notify prints a warning
# that kvm.sh's console check fails TINY01 for), and
# for TASKS03, KPROBES, which defconfig has and which gives it Tasks RCU.
# kvm.sh's configcheck.sh still checks every scenario's own options against
# the built config: a scenario whose options did not take fails the run.
# kvm.sh boots the image it is given: its QEMU is found by name, and under
# the wrapper below it would boot vmlinux, hence --bootimage.
#
# QEMU: kvm.sh asks for -machine q35,accel=kvm; this machine's /dev/kvm may
# not work (nested), so kvm.sh gets a wrapper that probes KVM as
# qemu-run.sh does and otherwise runs the same command line under TCG.
# Results: build/torture/<date>/, summary build/torture/<date>/summary.txt
# (bench/torture/ keeps the committed ones).
set -eu
. "$(dirname "$0")/lib.sh"
[ "$KERNEL" = "$KERNEL_MAIN" ] || die "make torture runs the series as sent ($KERNEL_MAIN)"

configs=${TORTURE_CONFIGS:-TREE04 TREE05 TREE07 SRCU-N SRCU-P TASKS01 TASKS03 TRACE01 RUDE01 TINY01}
duration=${TORTURE_DURATION:-2}
read -r t1 t2 <<<"${TORTURE_TIMEOUTS:-20 60}"
[ "$((t2 + 30))" -lt "$((duration * 60))" ] || die "TORTURE_TIMEOUTS ($t1 $t2) must end boot mode inside a ${duration}-minute run"
[ -d "$TREE/.git" ] || die "no series tree: make tree first"
# kvm.sh's awk scripts are gawk's (mawk, Debian's default, cannot parse them).
need_packages gawk

wt=$BUILD/torture-tree
[ -d "$wt" ] || git -C "$TREE" worktree add -q --detach "$wt" series
git -C "$wt" checkout -q -f --detach series
git -C "$wt" clean -q -fdx -e tools/testing/selftests/rcutorture/res
stamp=$(date -u +%Y.%m.%d-%H.%M.%S)
res=$BUILD/torture/$stamp
mkdir -p "$res"

# The QEMU wrapper: accel=kvm -> the accelerator this machine has.
wrap=$res/qemu-system-x86_64
acc=$(qemu_accel)
cat >"$wrap" <<EOF
#!/bin/sh
# kvm.sh's command line, on $acc (scripts/torture.sh).
n=\$#
while [ \$n -gt 0 ]; do
	a=\$1; shift; n=\$((n - 1))
	case \$a in *accel=kvm*) a=\$(echo "\$a" | sed 's/accel=kvm/accel=$acc/') ;; esac
	set -- "\$@" "\$a"
done
exec qemu-system-x86_64 "\$@"
EOF
chmod +x "$wrap"

guest="CONFIG_64BIT=y CONFIG_TTY=y CONFIG_SERIAL_8250=y CONFIG_SERIAL_8250_CONSOLE=y CONFIG_PRINTK=y CONFIG_BLK_DEV_INITRD=y CONFIG_BINFMT_ELF=y CONFIG_PROC_FS=y CONFIG_SYSCTL=y CONFIG_HYPERVISOR_GUEST=y CONFIG_ACPI=y CONFIG_PCI=y CONFIG_CPU_FREQ=y"
# defconfig's KPROBES gives TASKS03 the Tasks RCU it asks for; SRCU-N and
# TREE09 set KPROBES=n and --kconfig would override them: hence two sets.
kprobes_configs=" TASKS03 "
base="user_booted_reported sysctl.kernel.user_booted_timeout="
bin=tools/testing/selftests/rcutorture/bin
start=$(date +%s)
failed=0
sum=$res/summary.txt

# check RUN: kvm.sh's verdict and, per scenario, when boot mode ended;
# appended to the summary as soon as RUN ends, so a stopped session keeps
# what finished.
check() {
	local run=$1 d c s at
	echo
	echo "== $run ($(($(date +%s) - start)) s after the start)"
	if [ ! -d "$res/$run" ]; then
		echo "  FAIL: did not run: see ${res#"$TOP"/}/$run.log"; failed=$((failed + 1)); return
	fi
	# kvm.sh's own verdict (kvm-recheck.sh: exit 0 when all is clean).
	(cd "$wt" && "$bin/kvm-recheck.sh" "$res/$run") >"$res/$run.recheck" 2>&1 ||
		{ echo "  FAIL: kvm-recheck.sh exit $?"; failed=$((failed + 1)); }
	sed 's/^/  /' "$res/$run.recheck"
	for d in "$res/$run"/*/; do
		c=$d/console.log
		[ -f "$c" ] || continue
		s=$(basename "$d")
		echo "  $s: $(grep -m1 -o ' user_booted_reported.*' "$d/qemu-cmd" 2>/dev/null | cut -c1-120)"
		at=$(sed -n 's/^\[ *\([0-9.]*\)\] user_booted: init did not report.*/\1/p' "$c" | head -n 1)
		if [ -n "$at" ]; then
			echo "  $s: boot mode ended by the fallback at $at s of uptime"
		else
			echo "  $s: FAIL: no fallback line: boot mode never ended in this run"; failed=$((failed + 1))
		fi
	done
}

{
	echo "make torture, started $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "tree: $(git -C "$wt" log -1 --format='%h %s') on $(git -C "$wt" log -1 --format=%h base) (base)"
	echo "repository: $(git -C "$TOP" log -1 --format='%h %s')"
	echo "kvm.sh --cpus $(nproc) --duration $duration --defconfig tinyconfig --kconfig \"CONFIG_USER_BOOTED=y $guest\" (and CONFIG_KPROBES=y for$kprobes_configs)"
	echo "QEMU $acc ($(qemu-system-x86_64 --version | head -n 1))"
} >"$sum"

# torture SUFFIX CONFIGS KCONFIG: kvm.sh once, then kvm-again.sh twice.
torture() {
	local sfx=$1 set=$2 kc=$3 first=fallback-$t1$1
	log "kvm.sh: $set, ${duration} min each, $acc, boot mode ends at ${t1} s (then ${t2} s, then rcu_normal); results in ${res#"$TOP"/}"
	(cd "$wt" && "$bin/kvm.sh" --cpus "$(nproc)" --duration "$duration" --configs "$set" \
		--defconfig tinyconfig --kconfig "$kc" \
		--bootimage arch/x86/boot/bzImage --kmake-arg "CC=$KCC" --trust-make \
		--qemu-cmd "$wrap" --bootargs "${base}$t1" --results "$res" --datestamp "$first") \
		>"$res/$first.log" 2>&1 || true
	check "$first" >>"$sum"
	(cd "$wt" && "$bin/kvm-again.sh" "$res/$first" --duration "$duration" \
		--bootargs "${base}$t2" --rundir "$res/fallback-$t2$sfx" --link hard) \
		>"$res/fallback-$t2$sfx.log" 2>&1 || true
	check "fallback-$t2$sfx" >>"$sum"
	(cd "$wt" && "$bin/kvm-again.sh" "$res/$first" --duration "$duration" \
		--bootargs "${base}$t1 rcupdate.rcu_user_booted=1 rcupdate.rcu_normal_after_boot=1" \
		--rundir "$res/rcu-normal$sfx" --link hard) >"$res/rcu-normal$sfx.log" 2>&1 || true
	check "rcu-normal$sfx" >>"$sum"
}

plain='' kp=''
for c in $configs; do
	case $kprobes_configs in *" $c "*) kp="$kp $c" ;; *) plain="$plain $c" ;; esac
done
[ -z "$plain" ] || torture "" "${plain# }" "CONFIG_USER_BOOTED=y $guest"
[ -z "$kp" ] || torture -kprobes "${kp# }" "CONFIG_USER_BOOTED=y $guest CONFIG_KPROBES=y"

{
	echo
	echo "$(($(date +%s) - start)) s wall clock; $failed failures"
} >>"$sum"
cat "$sum"
[ "$failed" -eq 0 ]
