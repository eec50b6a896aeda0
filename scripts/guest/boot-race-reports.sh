# append: user_booted_reported
# 16 writers report at once through the sysctl, 64 subscribers waiting:
# every write succeeds, boot ends once, each subscriber is told once.
. /ub/selftests-lib.sh
modprobe user_booted_subscriber subscribers=64
check "64 subscribers registered while userspace boots" \
	[ "$(cat $sysctl_path)" = 0 -a "$(subscriber_param told)" = 0 ]
: > /tmp/writers
for i in $(seq 16); do
	(echo 1 > $sysctl_path && echo ok >> /tmp/writers) &
done
wait
check "all 16 writes succeeded" [ "$(grep -c ok /tmp/writers)" = 16 ]
check "each subscriber was told once" \
	[ "$(subscriber_param told)" = 64 -a "$(subscriber_param duplicates)" = 0 ]
check "boot ended once, reported" [ "$(dmesg | grep -c 'userspace boot ended (reported)')" = 1 ]
run_selftest -f booted
