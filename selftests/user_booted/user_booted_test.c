// SPDX-License-Identifier: GPL-2.0
/*
 * kernel.user_booted and kernel.user_booted_timeout, as an adversary sees
 * them.  The state goes from 0 to 1 once per boot, so the cases come in the
 * order a boot goes through them:
 *
 *   booting.*    userspace boot has not ended (user_booted_reported, nothing
 *                reported yet): nothing short of a write of 1 ends it
 *   boot_end.*   each ends boot its own way, telling every subscriber once;
 *                one per boot: -r boot_end.<case>
 *   booted.*     after the end of boot
 *   boot_path.*  boot ended as the kernel command line says it should
 *
 * A case that cannot run here SKIPs, or fails with USER_BOOTED_STRICT=1.
 * Deliveries are counted by samples/user_booted (CONFIG_SAMPLE_USER_BOOTED=m).
 * The races inside the kernel are KUnit's (kernel/user_booted_test.c).
 */

#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/klog.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <linux/capability.h>
#include <linux/user_booted.h>

#include "../kselftest_harness.h"

#define TIMEOUT_PATH	"/proc/sys/kernel/user_booted_timeout"
#define PARAMS		"/sys/module/user_booted_subscriber/parameters/"
#define SUBSCRIBERS	64
#define NR_WRITERS	16
#define NOBODY		65534
#define LOG_END		"user_booted: userspace boot ended ("
/* enum user_booted_reason, as the sample's last_reason shows it. */
enum { UNREPORTED = 1, REPORTED, TIMEOUT };

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static bool can_run(struct __test_metadata *_metadata, bool met, const char *why)
{
	const char *s = getenv("USER_BOOTED_STRICT");

	if (!met && s && s[0] == '1')
		ASSERT_TRUE(met) TH_LOG("USER_BOOTED_STRICT=1 but: %s", why);
	return met;
}

static long read_long(const char *path)
{
	char buf[32] = "";
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);

	if (fd >= 0)
		close(fd);
	return n > 0 ? strtol(buf, NULL, 10) : -1;
}

static int state(void) { return read_long(USER_BOOTED_SYSCTL_PATH); }
static long param(const char *name)
{
	char path[128];

	snprintf(path, sizeof(path), PARAMS "%s", name);
	return read_long(path);
}

/* Write @len bytes at @off on a fresh fd: 0, the errno, or -1 if short. */
static int try_write(const char *path, const void *buf, size_t len, off_t off)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), err;
	ssize_t ret;

	if (fd < 0)
		return errno;
	ret = off ? pwrite(fd, buf, len, off) : write(fd, buf, len);
	err = ret < 0 ? errno : ret == (ssize_t)len ? 0 : -1;
	close(fd);
	return err;
}

static int log_count(const char *needle)
{
	int size = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0), n = 0;
	char *log = size > 0 ? calloc(1, size + 1) : NULL, *p = log;

	if (!log || klogctl(3 /* SYSLOG_ACTION_READ_ALL */, log, size) < 0)
		n = -1;
	while (n >= 0 && (p = strstr(p, needle)))
		n++, p++;
	free(log);
	return n;
}

static bool cmdline_has(const char *word)
{
	char buf[4096] = "", *tok, *save;
	FILE *f = fopen("/proc/cmdline", "r");

	if (!f || !fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	if (f)
		fclose(f);
	for (tok = strtok_r(buf, "\n ", &save); tok; tok = strtok_r(NULL, "\n ", &save))
		if (!strcmp(tok, word))
			return true;
	return false;
}

static long load_subscriber(void)
{
	if (param("subscribers") < 0 &&
	    system("modprobe -q user_booted_subscriber subscribers=64 >/dev/null 2>&1"))
		return -1;
	return param("subscribers");
}

/* What ends boot: proc_dointvec_minmax() reading 1 at offset 0. */
static bool ends_boot(const char *b, size_t len, off_t off)
{
	char tmp[22], *end;
	unsigned long v;
	size_t n;

	while (len && isspace((unsigned char)*b))
		b++, len--;
	if (off || !len || !isdigit((unsigned char)*b))
		return false;
	n = len < 21 ? len : 21;
	memcpy(tmp, b, n);
	tmp[n] = '\0';
	v = strtoul(tmp, &end, 0);
	n = end - tmp;
	return n < 21 && (n == len || memchr("\n\t ", *end, 3)) && v == 1;
}

struct snap { int state; long told, dups; int ends; };

static void snap(struct snap *s)
{
	*s = (struct snap){ state(), param("told"), param("duplicates"), log_count(LOG_END) };
}

static void expect_unchanged(struct __test_metadata *_metadata, const struct snap *b,
			     const char *what)
{
	struct snap a;

	snap(&a);
	EXPECT_TRUE(b->state == a.state && b->told == a.told && b->dups == a.dups &&
		    b->ends == a.ends)
		TH_LOG("%s changed state %d->%d, told %ld->%ld, ends %d->%d", what,
		       b->state, a.state, b->told, a.told, b->ends, a.ends);
}

/* Writes that must fail with EINVAL and change nothing. */
#define BAD(s) { s, sizeof(s) - 1 }
static const struct { const char *buf; size_t len; } bad[] = {
	BAD("0"), BAD("0\n"), BAD("2"), BAD("-1"), BAD("1x"), BAD("11"), BAD("10"),
	BAD("1.0"), BAD("+1"), BAD("1\r"), BAD("1\0"), BAD("y"), BAD("on"),
	BAD("true"), BAD("\n"), BAD(" "), BAD("\0"), BAD("\xef\xbc\x91"),
	BAD("000000000000000000001"),	/* 1, but too long for the parser */
};

static void check_bad_input(struct __test_metadata *_metadata, bool booting)
{
	static const struct iovec vec[][2] = {
		{ { "1", 1 }, { "x", 1 } }, { { "0", 1 }, { "\n", 1 } },
	};
	long page = sysconf(_SC_PAGESIZE), timeout = read_long(TIMEOUT_PATH);
	char *big = malloc(1 << 20), *map;
	struct snap before;
	size_t i;
	int fd;

	ASSERT_NE(NULL, big);
	snap(&before);
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		EXPECT_EQ(EINVAL, try_write(USER_BOOTED_SYSCTL_PATH, bad[i].buf, bad[i].len, 0))
			TH_LOG("bad write #%zu", i);
	/* Oversized: "1" and NULs, all ones; at offsets: ignored (sysctl_writes_strict). */
	memset(big, 0, 1 << 20);
	big[0] = '1';
	EXPECT_EQ(EINVAL, try_write(USER_BOOTED_SYSCTL_PATH, big, 1 << 20, 0));
	memset(big, '1', 8192);
	EXPECT_EQ(EINVAL, try_write(USER_BOOTED_SYSCTL_PATH, big, 8192, 0));
	EXPECT_EQ(0, try_write(USER_BOOTED_SYSCTL_PATH, "1\n", 2, 1));
	EXPECT_EQ(0, try_write(USER_BOOTED_SYSCTL_PATH, "1", 1, (off_t)1 << 40));
	for (i = 0; i < 2; i++) {
		fd = open(USER_BOOTED_SYSCTL_PATH, O_WRONLY | O_CLOEXEC);
		ASSERT_LE(0, fd);
		EXPECT_EQ(-1, writev(fd, vec[i], 2));
		EXPECT_EQ(EINVAL, errno);
		close(fd);
	}
	/* "1" on a page's last byte, an unmapped page after it: EFAULT. */
	map = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, map);
	munmap(map + page, page);
	map[page - 1] = '1';
	EXPECT_EQ(EFAULT, try_write(USER_BOOTED_SYSCTL_PATH, map + page - 1, 2, 0));
	munmap(map, page);
	/* The timeout: 1 to 86400 seconds, nothing else. */
	EXPECT_EQ(EINVAL, try_write(TIMEOUT_PATH, "0", 1, 0));
	EXPECT_EQ(EINVAL, try_write(TIMEOUT_PATH, "86401", 5, 0));
	EXPECT_EQ(EINVAL, try_write(TIMEOUT_PATH, "-5", 2, 0));
	EXPECT_EQ(EINVAL, try_write(TIMEOUT_PATH, "10s", 3, 0));
	EXPECT_EQ(timeout, read_long(TIMEOUT_PATH));
	expect_unchanged(_metadata, &before, "bad input");

	/* Random bytes, redrawn while booting if they could read as 1. */
	srandom(getpid());
	for (i = 0; i < 5000; i++) {
		size_t len = random() % (random() % 8 ? 8 : 5000), j;
		off_t off = random() % 16 ? 0 : random() % 5000;
		int err, want;

		for (j = 0; j < len; j++)
			big[j] = random() % 2 ? "01\n \t-x+"[random() % 8] : random();
		if (booting && memchr(big, '1', len))
			continue;
		err = try_write(USER_BOOTED_SYSCTL_PATH, big, len, off);
		if (!booting)
			continue;
		/* Empty, or at an offset: ignored, as for any numeric sysctl. */
		want = !len || off ? 0 : EINVAL;
		if (err != want)
			EXPECT_EQ(want, err) TH_LOG("random write #%zu of %zu bytes at %lld",
						    i, len, (long long)off);
		ASSERT_EQ(0, state());
	}
	expect_unchanged(_metadata, &before, "random writes");
	free(big);
}

/* Who may write: only root with CAP_SYS_ADMIN in the initial namespaces. */
enum who { NOBODY_USER, NO_CAP_SYS_ADMIN, USERNS_ROOT, PIDNS_INIT, NR_WHO };

static int become(enum who who)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[2];
	char map[] = "0 0 1";
	pid_t pid;
	int st;

	switch (who) {
	case NOBODY_USER:
		return setgroups(0, NULL) || setresgid(NOBODY, NOBODY, NOBODY) ||
		       setresuid(NOBODY, NOBODY, NOBODY) ? errno : 0;
	case NO_CAP_SYS_ADMIN:
		if (syscall(SYS_capget, &hdr, d))
			return errno;
		d[0].effective &= ~CAP_TO_MASK(CAP_SYS_ADMIN);
		d[0].permitted &= ~CAP_TO_MASK(CAP_SYS_ADMIN);
		return syscall(SYS_capset, &hdr, d) ? errno : 0;
	case USERNS_ROOT:
		if (unshare(CLONE_NEWUSER))
			return errno;
		return try_write("/proc/self/setgroups", "deny", 4, 0) ?:
		       try_write("/proc/self/uid_map", map, 5, 0) ?:
		       try_write("/proc/self/gid_map", map, 5, 0);
	default:
		if (unshare(CLONE_NEWPID))
			return errno;
		pid = fork();
		if (pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st))
			_exit(WEXITSTATUS(st));
		return pid ? ECHILD : 0;	/* the child is its PID 1 */
	}
}

/* In a child, as @who: open's errno << 4, or write's errno; 0xff: cannot be @who. */
static int attempt(enum who who, const char *path, const char *text)
{
	int st, fd, r;
	pid_t pid = fork();

	if (pid == 0) {
		if (become(who))
			_exit(0xff);
		fd = open(path, O_WRONLY | O_CLOEXEC);
		r = fd < 0 ? errno << 4 : write(fd, text, strlen(text)) < 0 ? errno : 0;
		_exit(r);
	}
	return pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) ? WEXITSTATUS(st) : 0xff;
}

static void check_unprivileged(struct __test_metadata *_metadata)
{
	static const char * const paths[] = { USER_BOOTED_SYSCTL_PATH, TIMEOUT_PATH };
	static const char * const texts[] = { "1\n", "0", "5", "garbage" };
	long timeout = read_long(TIMEOUT_PATH);
	struct snap before;
	int who, p, t, r;

	snap(&before);
	for (who = 0; who < NR_WHO; who++)
		for (p = 0; p < 2; p++)
			for (t = 0; t < 4; t++) {
				r = attempt(who, paths[p], texts[t]);
				if (r == 0xff && who >= USERNS_ROOT)
					continue;	/* no such namespaces here */
				/* nobody: EACCES at open (0644); the others: EPERM. */
				EXPECT_EQ(who == NOBODY_USER ? EACCES << 4 : EPERM, r)
					TH_LOG("as #%d writing \"%s\" to %s: %#x", who, texts[t],
					       paths[p], r);
			}
	EXPECT_EQ(timeout, read_long(TIMEOUT_PATH));
	expect_unchanged(_metadata, &before, "unprivileged writes");
}

FIXTURE(booting) { long subscribers; };
FIXTURE_SETUP(booting)
{
	self->subscribers = load_subscriber();
	if (!can_run(_metadata, state() == 0, "userspace boot has ended"))
		SKIP(return, "userspace boot has ended");
}

FIXTURE_TEARDOWN(booting) {}

TEST_F(booting, reads_0_and_poll_waits)
{
	struct pollfd pfd = { .events = POLLPRI };
	char buf[8];

	pfd.fd = open(USER_BOOTED_SYSCTL_PATH, O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, pfd.fd);
	ASSERT_EQ(2, read(pfd.fd, buf, sizeof(buf)));
	EXPECT_EQ(0, memcmp(buf, "0\n", 2));
	EXPECT_EQ(0, poll(&pfd, 1, 300));
	EXPECT_EQ(0, param("told"));
	close(pfd.fd);
}

TEST_F(booting, bad_input_is_refused) { check_bad_input(_metadata, true); }
TEST_F(booting, unprivileged_writes_are_refused) { check_unprivileged(_metadata); }

/* Poll waiters: woken once boot ends, not before, and find 1. */
static void *poller(void *arg)
{
	struct pollfd pfd = { .fd = (long)arg, .events = POLLPRI };
	char buf[8];

	if (poll(&pfd, 1, 30000) != 1 || !(pfd.revents & POLLPRI) ||
	    pread(pfd.fd, buf, sizeof(buf), 0) != 2 || buf[0] != '1')
		return (void *)1;
	return NULL;
}

FIXTURE(boot_end) { long subscribers; pthread_t t[4]; int fd[4]; };
FIXTURE_SETUP(boot_end)
{
	char buf[8];
	int i;

	self->subscribers = load_subscriber();
	if (!can_run(_metadata, self->subscribers == SUBSCRIBERS, "no subscriber module") ||
	    !can_run(_metadata, state() == 0, "userspace boot has ended"))
		SKIP(return, "not booting, or no subscriber module");
	for (i = 0; i < 4; i++) {
		self->fd[i] = open(USER_BOOTED_SYSCTL_PATH, O_RDONLY | O_CLOEXEC);
		ASSERT_EQ(2, read(self->fd[i], buf, sizeof(buf)));
		ASSERT_EQ(0, pthread_create(&self->t[i], NULL, poller, (void *)(long)self->fd[i]));
	}
}

FIXTURE_TEARDOWN(boot_end)
{
	void *r;
	int i;

	if (self->subscribers != SUBSCRIBERS || !self->fd[3])
		return;
	for (i = 0; i < 4; i++) {
		pthread_join(self->t[i], &r);
		EXPECT_EQ(NULL, r) TH_LOG("poller %d: not woken, or read no 1", i);
	}
	EXPECT_EQ(1, state());
	EXPECT_EQ(SUBSCRIBERS, param("told"));
	EXPECT_EQ(0, param("duplicates"));
	EXPECT_EQ(1, log_count(LOG_END));
}

TEST_F(boot_end, report_wakes_waiters_and_ends_boot_once)
{
	/* The write returns once every subscriber was told. */
	ASSERT_EQ(0, try_write(USER_BOOTED_SYSCTL_PATH, USER_BOOTED_WRITE,
			       strlen(USER_BOOTED_WRITE), 0));
	EXPECT_EQ(SUBSCRIBERS, param("told"));
	EXPECT_EQ(REPORTED, param("last_reason"));
	EXPECT_EQ(1, log_count(LOG_END "reported) "));
	EXPECT_EQ(0, try_write(USER_BOOTED_SYSCTL_PATH, "1", 1, 0));
}

static void *writer(void *path)
{
	return (void *)(long)try_write(path, "1\n", 2, 0);
}

static void race(struct __test_metadata *_metadata, bool with_timeout)
{
	pthread_t t[NR_WRITERS];
	void *r;
	int i;

	for (i = 0; i < NR_WRITERS; i++)
		ASSERT_EQ(0, pthread_create(&t[i], NULL, writer, i || !with_timeout ?
					    USER_BOOTED_SYSCTL_PATH : TIMEOUT_PATH));
	for (i = 0; i < NR_WRITERS; i++) {
		pthread_join(t[i], &r);
		EXPECT_EQ(NULL, r) TH_LOG("writer %d: %ld", i, (long)r);
	}
}

TEST_F(boot_end, concurrent_reports_end_boot_once)
{
	race(_metadata, false);
	EXPECT_EQ(REPORTED, param("last_reason"));
}

/* A timeout of 1 s, long past: it fires at once, racing the reports. */
TEST_F_TIMEOUT(boot_end, report_racing_timeout_ends_boot_once, 60)
{
	race(_metadata, true);
	TH_LOG("reason %ld", param("last_reason"));
}

/* Set on the command line; the fallback ends boot and warns. */
TEST_F_TIMEOUT(boot_end, timeout_ends_boot_with_a_warning, 120)
{
	while (state() == 0)
		usleep(50000);
	EXPECT_EQ(TIMEOUT, param("last_reason"));
	EXPECT_EQ(1, log_count("user_booted: init did not report within "));
}

/* Raised: boot goes on; lowered below the time spent: it ends at once. */
TEST_F_TIMEOUT(boot_end, shortened_timeout_ends_boot_at_once, 60)
{
	double t0;

	ASSERT_EQ(0, try_write(TIMEOUT_PATH, "3600", 4, 0));
	EXPECT_EQ(3600, read_long(TIMEOUT_PATH));
	usleep(500000);
	ASSERT_EQ(0, state());
	sleep(2);
	t0 = now();
	ASSERT_EQ(0, try_write(TIMEOUT_PATH, "1", 1, 0));
	while (state() == 0 && now() - t0 < 10)
		usleep(10000);
	/* At once, not after the 3600 s: room for a slow emulator. */
	EXPECT_GT(9.0, now() - t0) TH_LOG("ended %.2f s after the write", now() - t0);
	EXPECT_EQ(TIMEOUT, param("last_reason"));
}

FIXTURE(booted) {};
FIXTURE_SETUP(booted)
{
	if (!can_run(_metadata, state() == 1, "userspace still boots"))
		SKIP(return, "userspace still boots");
}

FIXTURE_TEARDOWN(booted) {}

TEST_F(booted, reads_1_after_boot_end) { EXPECT_EQ(1, state()); }

/* Any form that reads as 1 succeeds and does nothing; "0" is EINVAL. */
TEST_F(booted, rewriting_1_is_a_no_op)
{
	static const char * const ones[] = { "1", "1\n", " 1", "01", "0x1" };
	struct snap before;
	size_t i;

	snap(&before);
	for (i = 0; i < ARRAY_SIZE(ones); i++) {
		EXPECT_TRUE(ends_boot(ones[i], strlen(ones[i]), 0));
		EXPECT_EQ(0, try_write(USER_BOOTED_SYSCTL_PATH, ones[i], strlen(ones[i]), 0))
			TH_LOG("writing \"%s\"", ones[i]);
	}
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		EXPECT_FALSE(ends_boot(bad[i].buf, bad[i].len, 0)) TH_LOG("bad #%zu", i);
	EXPECT_EQ(0, system("sysctl -w kernel.user_booted=1 >/dev/null"));
	expect_unchanged(_metadata, &before, "writing 1");
}

TEST_F(booted, writing_0_is_refused_with_einval)
{
	EXPECT_EQ(EINVAL, try_write(USER_BOOTED_SYSCTL_PATH, "0\n", 2, 0));
	EXPECT_EQ(1, state());
}

TEST_F(booted, bad_input_is_refused) { check_bad_input(_metadata, false); }
TEST_F(booted, unprivileged_writes_are_refused) { check_unprivileged(_metadata); }

/* Boot ended at init launch: no report expected, or the command line's. */
FIXTURE(boot_path) {};
FIXTURE_SETUP(boot_path) {}
FIXTURE_TEARDOWN(boot_path) {}

static void check_ended_before(struct __test_metadata *_metadata, int reason)
{
	EXPECT_EQ(1, state());
	ASSERT_LT(0, load_subscriber());
	EXPECT_EQ(SUBSCRIBERS, param("told")) TH_LOG("late subscribers are told at once");
	EXPECT_EQ(reason, param("last_reason"));
	/* Nothing at info level: the log reads as on a stock kernel. */
	EXPECT_EQ(0, log_count(LOG_END));
}

TEST_F(boot_path, unreported_boot_ends_at_init_launch)
{
	if (!can_run(_metadata, !cmdline_has("user_booted_reported"), "user_booted_reported"))
		SKIP(return, "user_booted_reported is on the command line");
	check_ended_before(_metadata, UNREPORTED);
}

TEST_F(boot_path, cmdline_sysctl_ends_boot_before_init_launch)
{
	const char *why = "no sysctl.kernel.user_booted=1 on the command line";

	if (!can_run(_metadata, cmdline_has("sysctl.kernel.user_booted=1"), why))
		SKIP(return, "%s", why);
	check_ended_before(_metadata, REPORTED);
}

TEST_HARNESS_MAIN
