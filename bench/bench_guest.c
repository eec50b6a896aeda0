// SPDX-License-Identifier: GPL-2.0
/*
 * bench_guest: the guest side of "make bench", one static binary.
 *
 *   bench_guest boot ROUNDS MB_PER_ROUND MODULE.ko
 *	Workload 1, a synthetic userspace boot.  Each round makes MB_PER_ROUND
 *	membarrier(MEMBARRIER_CMD_GLOBAL) calls (each waits for one
 *	synchronize_rcu()), mounts and unmounts a tmpfs, creates and destroys
 *	a set of namespaces (mnt, uts, ipc, net, pid: a child unshare()s them
 *	and exits), creates a cgroup, moves itself in and out and removes it
 *	(what systemd does per unit); every 5th round also loads and unloads
 *	MODULE.ko.  Prints "wl1 total_ms=... KIND_n= KIND_med_ms= KIND_sum_ms= ..."
 *	where KIND is mb, mount, ns, cg, modload, modunload.
 *
 *   bench_guest mb N
 *	N membarrier(GLOBAL) calls back to back, nothing else running: the
 *	latency of one synchronize_rcu() from userspace, as in MEASURING.md.
 *	Prints "iso iso_n= iso_med_ms= ...".
 *
 *   bench_guest load PERIOD_MS DURATION_MS [spin]
 *	Workload 2's light load: one membarrier(GLOBAL) every PERIOD_MS
 *	(absolute schedule) for DURATION_MS, on CPU 0.  With "spin", a child
 *	spins in userspace on the last CPU meanwhile: the work the machine
 *	was booted for, which an expedited grace period must interrupt with
 *	an IPI (an idle CPU it skips).  Prints "load n= med_ms= ...".
 *
 *   bench_guest write
 *	Workload 3: time the write(2) of "1" to /proc/sys/kernel/user_booted
 *	(open is not timed), then a second write (boot already ended).
 *	Prints "write write_us=X write2_us=Y ret=R".
 *
 *   bench_guest forkexit N
 *	Issue 9's microbenchmark: N times fork(), the child _exit()s at once,
 *	the parent waits for it.  Both ends take cgroup_threadgroup_rwsem for
 *	reading, whose fast path favordynmods (and, in the series until
 *	issue 35, the cgroup subscriber while userspace booted) turns off.
 *	Prints "fork fork_n= fork_med_ms= ...".
 *
 *   bench_guest migrate N GAP_MS
 *	Issue 25's other side of that rwsem: N times, this process moves into
 *	a child cgroup and back by writes to cgroup.procs, GAP_MS apart.  Each
 *	migration takes the rwsem for writing: a grace period unless its
 *	readers are on the slow path already (favordynmods, or the cgroup
 *	subscriber while userspace booted, until issue 35).  Prints "migrate migrate_n= ...",
 *	one value per migration.
 *
 *   bench_guest files N GAP_MS
 *	Workload 14's quiet window: N times, a file in the working directory
 *	created and unlinked, GAP_MS apart: an inode freed through call_rcu()
 *	each time, no grace-period wait.  Prints "files n= gap_ms=".
 *
 *   bench_guest calib
 *	Fixed loops, timed: registers only, memory loads and stores, getppid()
 *	syscalls.  Run in the guest and on the host, the ratios say how much
 *	slower the emulated CPU is.  Prints "calib loop_ns= mem_ns= syscall_ns=".
 *
 * Times are CLOCK_MONOTONIC.  Exit status 0 on success, 2 on any error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/membarrier.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CG_ROOT "/sys/fs/cgroup"
#define MNT_DIR "/tmp/bench-mnt"
#define MOD_NAME "user_booted_subscriber"

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void fail(const char *what)
{
	fprintf(stderr, "bench_guest: %s: %s\n", what, strerror(errno));
	exit(2);
}

/* A growing list of one kind of operation's durations, in ms. */
struct series {
	const char *name;
	double *v;
	int n, cap;
};

static void add(struct series *s, double ms)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 64;
		s->v = realloc(s->v, s->cap * sizeof(*s->v));
		if (!s->v)
			fail("realloc");
	}
	s->v[s->n++] = ms;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Median (mean of the two middle values for even n), p90, max, sum. */
static void print_series(struct series *s)
{
	double sum = 0, med, p90;
	int i;

	if (!s->n) {
		printf(" %s_n=0", s->name);
		return;
	}
	qsort(s->v, s->n, sizeof(*s->v), cmp);
	for (i = 0; i < s->n; i++)
		sum += s->v[i];
	med = s->n % 2 ? s->v[s->n / 2] : (s->v[s->n / 2 - 1] + s->v[s->n / 2]) / 2;
	p90 = s->v[(s->n * 9) / 10 < s->n ? (s->n * 9) / 10 : s->n - 1];
	printf(" %s_n=%d %s_med_ms=%.4f %s_p90_ms=%.4f %s_max_ms=%.4f %s_sum_ms=%.3f",
	       s->name, s->n, s->name, med, s->name, p90, s->name, s->v[s->n - 1],
	       s->name, sum);
}

static void membarrier_global(void)
{
	if (syscall(__NR_membarrier, MEMBARRIER_CMD_GLOBAL, 0, 0))
		fail("membarrier");
}

static void write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY);

	if (fd < 0 || write(fd, s, strlen(s)) != (ssize_t)strlen(s))
		fail(path);
	close(fd);
}

static void namespaces(void)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		fail("fork");
	if (!pid) {
		if (unshare(CLONE_NEWNS | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWNET |
			    CLONE_NEWPID))
			_exit(3);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status)) {
		errno = ECHILD;
		fail("unshare in child");
	}
}

static void cgroup_cycle(int round)
{
	char dir[64], procs[80], pid[16];

	snprintf(dir, sizeof(dir), CG_ROOT "/bench%d", round);
	snprintf(procs, sizeof(procs), "%s/cgroup.procs", dir);
	snprintf(pid, sizeof(pid), "%d", getpid());
	if (mkdir(dir, 0755))
		fail(dir);
	write_file(procs, pid);
	write_file(CG_ROOT "/cgroup.procs", pid);
	if (rmdir(dir))
		fail(dir);
}

static int cmd_boot(int rounds, int mb, const char *ko)
{
	struct series s_mb = { .name = "mb" }, s_mount = { .name = "mount" }, s_ns = { .name = "ns" },
		      s_cg = { .name = "cg" }, s_ml = { .name = "modload" }, s_mu = { .name = "modunload" };
	double start, t;
	int r, i;

	mkdir(MNT_DIR, 0755);
	start = now_ms();
	for (r = 0; r < rounds; r++) {
		for (i = 0; i < mb; i++) {
			t = now_ms();
			membarrier_global();
			add(&s_mb, now_ms() - t);
		}
		t = now_ms();
		if (mount("bench", MNT_DIR, "tmpfs", 0, "size=1m"))
			fail("mount");
		if (umount2(MNT_DIR, 0))
			fail("umount");
		add(&s_mount, now_ms() - t);

		t = now_ms();
		namespaces();
		add(&s_ns, now_ms() - t);

		t = now_ms();
		cgroup_cycle(r);
		add(&s_cg, now_ms() - t);

		if (r % 5 == 0) {
			int fd = open(ko, O_RDONLY | O_CLOEXEC);

			if (fd < 0)
				fail(ko);
			t = now_ms();
			if (syscall(__NR_finit_module, fd, "", 0))
				fail("finit_module");
			add(&s_ml, now_ms() - t);
			close(fd);
			t = now_ms();
			if (syscall(__NR_delete_module, MOD_NAME, O_NONBLOCK))
				fail("delete_module");
			add(&s_mu, now_ms() - t);
		}
	}
	printf("wl1 total_ms=%.3f rounds=%d", now_ms() - start, rounds);
	print_series(&s_mb);
	print_series(&s_mount);
	print_series(&s_ns);
	print_series(&s_cg);
	print_series(&s_ml);
	print_series(&s_mu);
	printf("\n");
	return 0;
}

/* Time @op @n times; print "NAME NAME_n= NAME_med_ms= ...". */
static int time_op(const char *name, int n, void (*op)(void))
{
	struct series s = { .name = name };
	double t;

	while (n-- > 0) {
		t = now_ms();
		op();
		add(&s, now_ms() - t);
	}
	printf("%s", name);
	print_series(&s);
	printf("\n");
	return 0;
}

static int cmd_mb(int n)
{
	return time_op("iso", n, membarrier_global);
}

static void fork_exit(void)
{
	pid_t pid = fork();

	if (pid < 0)
		fail("fork");
	if (!pid)
		_exit(0);
	if (waitpid(pid, NULL, 0) != pid)
		fail("waitpid");
}

static int cmd_forkexit(int n)
{
	return time_op("fork", n, fork_exit);
}

/*
 * Move this process into a child cgroup and back, N times: 2N migrations,
 * each timed alone and followed by an untimed GAP_MS sleep.  Without the gap
 * rcu_sync would let back-to-back writers share one grace period, which a
 * boot's migrations, spread over seconds, do not.
 */
static int cmd_migrate(int n, int gap_ms)
{
	struct series s = { .name = "migrate" };
	static const char * const to[] = { CG_ROOT "/bench-migrate/cgroup.procs",
					   CG_ROOT "/cgroup.procs" };
	struct timespec gap = { gap_ms / 1000, (gap_ms % 1000) * 1000000L };
	char pid[16];
	double t;
	int i;

	snprintf(pid, sizeof(pid), "%d", getpid());
	if (mkdir(CG_ROOT "/bench-migrate", 0755) && errno != EEXIST)
		fail(CG_ROOT "/bench-migrate");
	for (i = 0; i < 2 * n; i++) {
		nanosleep(&gap, NULL);
		t = now_ms();
		write_file(to[i % 2], pid);
		add(&s, now_ms() - t);
	}
	if (rmdir(CG_ROOT "/bench-migrate"))
		fail(CG_ROOT "/bench-migrate");
	printf("migrate");
	print_series(&s);
	printf(" gap_ms=%d\n", gap_ms);
	return 0;
}

/*
 * files N GAP_MS: create and unlink a file in the working directory N times,
 * GAP_MS apart: an inode freed through call_rcu() each time, and nothing
 * that waits for a grace period (workload 14's quiet window: what lazy
 * callbacks batch).
 */
static int cmd_files(int n, int gap_ms)
{
	struct timespec gap = { gap_ms / 1000, (gap_ms % 1000) * 1000000L };
	int i, fd;

	for (i = 0; i < n; i++) {
		fd = open("bench-file", O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, 0600);
		if (fd < 0)
			fail("bench-file");
		close(fd);
		if (unlink("bench-file"))
			fail("unlink bench-file");
		nanosleep(&gap, NULL);
	}
	printf("files n=%d gap_ms=%d\n", n, gap_ms);
	return 0;
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		fail("sched_setaffinity");
}

static int cmd_load(int period_ms, int duration_ms, int spin)
{
	struct series s = { .name = "load" };
	struct timespec next;
	double start = now_ms(), t;
	pid_t spinner = 0;
	int status;

	if (spin) {
		spinner = fork();
		if (spinner < 0)
			fail("fork");
		if (!spinner) {
			pin(sysconf(_SC_NPROCESSORS_ONLN) - 1);
			while (now_ms() - start < duration_ms)
				;
			_exit(0);
		}
		pin(0);
	}
	clock_gettime(CLOCK_MONOTONIC, &next);
	while (now_ms() - start < duration_ms) {
		t = now_ms();
		membarrier_global();
		add(&s, now_ms() - t);
		next.tv_nsec += period_ms * 1000000L;
		while (next.tv_nsec >= 1000000000L) {
			next.tv_nsec -= 1000000000L;
			next.tv_sec++;
		}
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL) == EINTR)
			;
	}
	if (spinner && waitpid(spinner, &status, 0) != spinner)
		fail("waitpid");
	printf("load period_ms=%d elapsed_ms=%.1f spin=%d", period_ms, now_ms() - start, spin);
	print_series(&s);
	printf("\n");
	return 0;
}

static int cmd_calib(void)
{
	const long n = 20000000, m = 4000000, k = 200000;
	unsigned int *a = calloc(1 << 16, sizeof(*a));	/* 256 KiB */
	unsigned long x = 1;
	double t0, t1, t2, t3;
	long i;

	if (!a)
		fail("calloc");
	t0 = now_ms();
	for (i = 0; i < n; i++) {	/* registers only */
		x = x * 6364136223846793005UL + 1442695040888963407UL;
		__asm__ volatile("" : "+r"(x));
	}
	t1 = now_ms();
	for (i = 0; i < m; i++) {	/* a load and a store per step */
		x = x * 6364136223846793005UL + 1442695040888963407UL;
		a[(x >> 33) & 0xffff] += a[i & 0xffff];
	}
	__asm__ volatile("" : : "r"(a[x & 0xffff]));
	t2 = now_ms();
	for (i = 0; i < k; i++)		/* kernel entry and exit */
		syscall(__NR_getppid);
	t3 = now_ms();
	printf("calib loop_ns=%.3f mem_ns=%.3f syscall_ns=%.1f\n", (t1 - t0) * 1e6 / n,
	       (t2 - t1) * 1e6 / m, (t3 - t2) * 1e6 / k);
	free(a);
	return 0;
}

static double timed_write(int fd, ssize_t *ret)
{
	struct timespec a, b;

	clock_gettime(CLOCK_MONOTONIC, &a);
	*ret = write(fd, "1", 1);
	clock_gettime(CLOCK_MONOTONIC, &b);
	return (b.tv_sec - a.tv_sec) * 1e6 + (b.tv_nsec - a.tv_nsec) / 1e3;
}

static int cmd_write(void)
{
	const char *path = "/proc/sys/kernel/user_booted";
	double us1, us2;
	ssize_t r1, r2;
	int fd;

	fd = open(path, O_WRONLY);
	if (fd < 0)
		fail(path);
	us1 = timed_write(fd, &r1);
	if (r1 != 1)
		fail("first write");
	close(fd);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		fail(path);
	us2 = timed_write(fd, &r2);
	if (r2 != 1)
		fail("second write");
	close(fd);
	printf("write write_us=%.2f write2_us=%.2f\n", us1, us2);
	return 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
		fprintf(stderr, "bench_guest: one CPU online, membarrier GLOBAL is a no-op\n");
		return 2;
	}
	if (argc == 5 && !strcmp(argv[1], "boot"))
		return cmd_boot(atoi(argv[2]), atoi(argv[3]), argv[4]);
	if (argc == 3 && !strcmp(argv[1], "mb"))
		return cmd_mb(atoi(argv[2]));
	if ((argc == 4 || argc == 5) && !strcmp(argv[1], "load"))
		return cmd_load(atoi(argv[2]), atoi(argv[3]), argc == 5 && !strcmp(argv[4], "spin"));
	if (argc == 2 && !strcmp(argv[1], "write"))
		return cmd_write();
	if (argc == 2 && !strcmp(argv[1], "calib"))
		return cmd_calib();
	if (argc == 3 && !strcmp(argv[1], "forkexit"))
		return cmd_forkexit(atoi(argv[2]));
	if (argc == 4 && !strcmp(argv[1], "migrate"))
		return cmd_migrate(atoi(argv[2]), atoi(argv[3]));
	if (argc == 4 && !strcmp(argv[1], "files"))
		return cmd_files(atoi(argv[2]), atoi(argv[3]));
	fprintf(stderr, "usage: bench_guest boot ROUNDS MB KO | mb N | calib | load PERIOD_MS DURATION_MS [spin] | write | forkexit N | migrate N GAP_MS | files N GAP_MS\n");
	return 2;
}
