# Diagnosis for "make bench", not part of it: runs bench-boot.sh, then prints
# the kernel stack of every expedited grace period started in the post-boot
# window ("DIAG ..." lines).  Boot it with bench-boot's parameters plus
# trace_options=stacktrace, e.g. (arm B):
#   qemu-run.sh -i build/bench/initramfs.cpio.gz -a "ub.run=bench-diag \
#     user_booted_reported bench.report=1 bench.spin=1 trace_options=stacktrace \
#     trace_event=rcu:rcu_exp_grace_period,rcu:rcu_grace_period trace_buf_size=8M \
#     kprobe_event=p:bench/exp_ipi,rcu_exp_handler"
# Not a "make test" suite: it has no append line.
sh /ub/bench-boot.sh
awk '/BENCH phase=win/ { p = 1 } /BENCH phase=idle/ { p = 0 }
p && / rcu_exp_grace_period: .* start$/ { s = 1; print; next }
s && (/=>/ || /<stack trace>/) { print; next } { s = 0 }' /tmp/trace | sed 's/^/DIAG /'
