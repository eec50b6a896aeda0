# The end-of-boot report names the callers that waited: membarrier(GLOBAL)
# calls synchronize_rcu() directly, so its syscall must be among them.
# append: user_booted_reported
. /ub/lib.sh
check "20 membarrier(GLOBAL) calls while userspace boots" /ub/membarrier_lat 20
echo 1 > $sysctl_path
dmesg | grep 'rcu:   ' | sed 's/^/# /'
check "the report names membarrier among the callers" \
	sh -c "dmesg | grep -E 'rcu:   [0-9]+ waits, [0-9]+ us: .*membarrier'"
check "at least 20 waits counted for it" \
	sh -c "dmesg | sed -n 's/.*rcu:   \([0-9]*\) waits, [0-9]* us: .*membarrier.*/\1/p' | awk '\$1 >= 20 { ok = 1 } END { exit !ok }'"
tap_done
