# append: user_booted_reported sysctl.kernel.user_booted_timeout=5 user_booted_timeout=20
# Init was to report and does not: the fallback ends boot 20 s after init
# launch, not before, and the series logs one warning for it: no other
# (7.3's deprecated system_unbound_wq would add "enqueued on deprecated
# workqueue").  The timeout is a boot parameter: the sysctl. form cannot set
# the read-only sysctl (the kernel says so), and a write after launch fails
# with EACCES, as systemd-sysctl expects of a file it may not write.
. /ub/selftests-lib.sh
sysctl_timeout=/proc/sys/kernel/user_booted_timeout
check "userspace still boots at the start" [ "$(cat $sysctl_path)" = 0 ]
check "the sysctl is read-only (0444)" [ "$(stat -c %a $sysctl_timeout)" = 444 ]
check "the command line's sysctl.kernel.user_booted_timeout=5 was refused" \
	sh -c "dmesg | grep -q \"Failed to set sysctl parameter .kernel.user_booted_timeout=5.: permission denied\""
err=$(sh -c "echo 5 > $sysctl_timeout" 2>&1)
check "a write of the timeout after launch fails with EACCES: $err" \
	eval 'echo "$err" | grep -q "Permission denied"'
check "and the timeout still reads 20" [ "$(cat $sysctl_timeout)" = 20 ]
i=0
while [ "$(cat $sysctl_path)" = 0 ] && [ $i -lt 600 ]; do sleep 0.5; i=$((i + 1)); done
check "the fallback ended userspace boot" [ "$(cat $sysctl_path)" = 1 ]
# The kernel's own line says when: never before the timeout.
t=$(dmesg | sed -n 's/.*userspace boot ended (timeout) \([0-9.]*\) s after init launch.*/\1/p')
check "the fallback ended boot ${t:-(no line)} s after init launch, not before its 20 s" \
	awk -v t="$t" 'BEGIN { exit !(t != "" && t >= 20) }'
warns=$(dmesg -r | sed -n 's/^<[0-4]>//p')
echo "$warns" | sed 's/^/# warn+: /'
check "one warning from the series: init did not report within 20 s" \
	[ "$(echo "$warns" | grep -c 'user_booted: init did not report within 20 s')" = 1 ]
check "no workqueue warning" not_in_log 'deprecated workqueue'
check "boot ended once" [ "$(dmesg | grep -c 'userspace boot ended')" = 1 ]
run_selftest -f booted
