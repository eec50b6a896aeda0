# Guest side of "make bench" (bench/run.sh), workload 3: the cost of the
# notification.  Boot with user_booted_reported bench.subs=N: loads the
# sample module with N subscribers (none for N=0), then times the write(2)
# of "1" to kernel.user_booted with bench_guest, and prints the kernel's
# "subscribers told in X us" line.  Prints "BENCH ..." lines for the host.
# Not a "make test" suite: it has no append line.
subs=0
for arg in $(cat /proc/cmdline); do
	case $arg in bench.subs=*) subs=${arg#*=} ;; esac
done
bad() { echo "BENCH error=$*"; exit 1; }

[ "$(cat /proc/sys/kernel/user_booted)" = 0 ] || bad "booted without user_booted_reported?"
if [ "$subs" -gt 0 ]; then
	modprobe user_booted_subscriber subscribers="$subs" || bad "modprobe"
fi
out=$(bench_guest write) || bad "bench_guest write"
echo "BENCH $out subs=$subs"
if [ "$subs" -gt 0 ]; then
	told=$(cat /sys/module/user_booted_subscriber/parameters/told)
	echo "BENCH told=$told"
	[ "$told" = "$subs" ] || bad "told $told of $subs subscribers"
fi
# How much slower than the host's CPU the emulated one runs (bench/run.sh
# times the same loop on the host).
echo "BENCH $(bench_guest calib)"
# The tick rate, for the setup: jiffies advanced over 1 s of CLOCK_MONOTONIC.
jn() { awk '/^jiffies:/ { j = $2 } /^now at/ { n = $3 } END { print j, n }' /proc/timer_list; }
read -r j1 n1 <<EOT
$(jn)
EOT
sleep 1
read -r j2 n2 <<EOT
$(jn)
EOT
echo "BENCH hz=$(awk -v a="$j1" -v b="$j2" -v c="$n1" -v d="$n2" 'BEGIN { printf "%.0f", (b - a) / ((d - c) / 1e9) }')"
dmesg | grep -E 'user_booted: |rcu: userspace boot' | sed 's/^/BENCH dmesg /'
dmesg -r | sed -n 's/^<[0-4]>//p'
exit 0
