// SPDX-License-Identifier: GPL-2.0
/*
 * kernel.user_booted: init tells the kernel that userspace has booted.
 *
 * The state goes from 0 to 1 once per boot, so the cases come in the order a
 * boot goes through them:
 *
 *   booting.*    need userspace boot not to have ended (a boot with
 *                user_booted_reported, before anything reported); they prove
 *                that nothing short of a valid report ends it
 *   boot_end.*   each ends boot in its own way and proves that every
 *                subscriber is told exactly once; only the first one to run
 *                in a boot can, so run one per boot: -r boot_end.<case>
 *   booted.*     after the end of boot
 *   boot_path.*  boot ended the way the kernel command line says it should
 *
 * A case that cannot run on this system (boot already ended, parameter not
 * on the command line, subscriber module missing) SKIPs and says why.  With
 * USER_BOOTED_STRICT=1 in the environment it fails instead: the test boots
 * made for these cases set it.
 *
 * Deliveries to subscribers are counted by samples/user_booted
 * (CONFIG_SAMPLE_USER_BOOTED=m), loaded with modprobe.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/klog.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <linux/capability.h>
#include <linux/user_booted.h>

#include "../kselftest_harness.h"

#define SUBSCRIBER_PARAMS	"/sys/module/user_booted_subscriber/parameters/"
#define SUBSCRIBERS		64
#define NR_WRITERS		64
#define NR_RACING_REPORTERS	8
#define RANDOM_WRITES		10000
#define RANDOM_MAX_LEN		8192
#define NOBODY			65534
/* How long a waiter may take to wake once boot ended (TCG, KASAN). */
#define WAKE_LATENCY_S		2.0
/* A waiter gives up after this; long enough never to matter. */
#define WAIT_LIMIT_MS		20000
/* Long enough for a wrong wake-up to happen. */
#define QUIET_MS		300
#define NO_SUBSCRIBER	"cannot load user_booted_subscriber (CONFIG_SAMPLE_USER_BOOTED=m)"
#define NO_SYSCTL	"no " USER_BOOTED_SYSCTL_PATH ": kernel without user_booted"

/* The kernel's own record of the end of boot, and its fallback warning. */
#define LOG_BOOT_END		"user_booted: userspace boot ended ("
#define LOG_TIMEOUT_WARNING	"user_booted: init did not report within "

/* include/linux/syslog.h, not in the uapi. */
#define SYSLOG_ACTION_READ_ALL		3
#define SYSLOG_ACTION_SIZE_BUFFER	10

/*
 * enum user_booted_reason (include/linux/user_booted.h): not uapi, the
 * subscriber sample shows it as a number in its last_reason parameter.
 */
enum reason {
	REASON_UNREPORTED = 1,
	REASON_CMDLINE,
	REASON_REPORTED,
	REASON_TIMEOUT,
};

static const char * const reason_names[] = {
	[REASON_UNREPORTED] = "unreported",
	[REASON_CMDLINE] = "cmdline",
	[REASON_REPORTED] = "reported",
	[REASON_TIMEOUT] = "timeout",
};

/* ------------------------------------------------------------------ */
/* Small helpers                                                       */
/* ------------------------------------------------------------------ */

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static bool have_user_booted(void)
{
	return !access(USER_BOOTED_SYSCTL_PATH, F_OK);
}

static bool strict_mode(void)
{
	const char *s = getenv("USER_BOOTED_STRICT");

	return s && s[0] == '1';
}

/*
 * Can this case run here?  If not, the caller SKIPs with @why; under
 * USER_BOOTED_STRICT=1 the case fails here instead.
 */
static bool can_run(struct __test_metadata *_metadata, bool met,
		    const char *why)
{
	if (met || !strict_mode())
		return met;
	ASSERT_TRUE(met) TH_LOG("USER_BOOTED_STRICT=1 but: %s", why);
	return false;
}

/* Read a small file into @buf; returns the length or -errno. */
static ssize_t read_file(const char *path, char *buf, size_t size)
{
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	if (n < 0)
		n = -errno;
	else
		buf[n] = '\0';
	close(fd);
	return n;
}

/* Returns USER_BOOTED_NO or USER_BOOTED_YES, -errno, or -EPROTO for junk. */
static int read_state_fd(int fd)
{
	char buf[16] = "";
	char yes[8], no[8];
	ssize_t n;

	n = pread(fd, buf, sizeof(buf) - 1, 0);
	if (n < 0)
		return -errno;
	snprintf(yes, sizeof(yes), "%d\n", USER_BOOTED_YES);
	snprintf(no, sizeof(no), "%d\n", USER_BOOTED_NO);
	if (!strcmp(buf, yes))
		return USER_BOOTED_YES;
	if (!strcmp(buf, no))
		return USER_BOOTED_NO;
	return -EPROTO;
}

static int read_state(void)
{
	int fd, state;

	fd = open(USER_BOOTED_SYSCTL_PATH, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	state = read_state_fd(fd);
	close(fd);
	return state;
}

/*
 * Write @len bytes at @off on a fresh descriptor of @path.  Returns 0 if the
 * kernel took them all, otherwise the errno (-1 for a short write).
 */
static int try_write_path(const char *path, const void *buf, size_t len,
			  off_t off)
{
	ssize_t ret;
	int fd, err;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	/* Plain write() at 0: some /proc files cannot pwrite(). */
	ret = off ? pwrite(fd, buf, len, off) : write(fd, buf, len);
	err = ret < 0 ? errno : ret == (ssize_t)len ? 0 : -1;
	close(fd);
	return err;
}

static int try_write(const void *buf, size_t len, off_t off)
{
	return try_write_path(USER_BOOTED_SYSCTL_PATH, buf, len, off);
}

static int report(void)
{
	return try_write(USER_BOOTED_WRITE, strlen(USER_BOOTED_WRITE), 0);
}

static const char *errname(int err)
{
	return err > 0 ? strerror(err) : err ? "a short write" : "success";
}

/* The ABI's only valid write: USER_BOOTED_WRITE, its newline optional. */
static bool valid_report(const char *buf, size_t len, off_t off)
{
	size_t full = strlen(USER_BOOTED_WRITE);

	return !off && (len == full || len == full - 1) &&
	       !memcmp(buf, USER_BOOTED_WRITE, len);
}

static long read_timeout(void)
{
	char buf[32];

	if (read_file(USER_BOOTED_TIMEOUT_SYSCTL_PATH, buf, sizeof(buf)) <= 0)
		return -1;
	return strtol(buf, NULL, 10);
}

static int write_timeout(long secs)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%ld\n", secs);
	return try_write_path(USER_BOOTED_TIMEOUT_SYSCTL_PATH, buf, strlen(buf), 0);
}

/* Seconds this process has existed: a lower bound for the time since init launch. */
static double process_age(void)
{
	char buf[1024], *p;
	unsigned long long start = 0;
	struct timespec ts;
	int i;

	if (read_file("/proc/self/stat", buf, sizeof(buf)) <= 0)
		return 0;
	p = strrchr(buf, ')');
	/* Field 22, starttime, in clock ticks since boot; p is at field 2. */
	for (i = 2; p && i < 22; i++)
		p = strchr(p + 1, ' ');
	if (!p || sscanf(p + 1, "%llu", &start) != 1)
		return 0;
	clock_gettime(CLOCK_BOOTTIME, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9 - (double)start / sysconf(_SC_CLK_TCK);
}

/* ------------------------------------------------------------------ */
/* Kernel command line                                                 */
/* ------------------------------------------------------------------ */

/* Is @param on the command line?  Copies what follows its '=' to @value. */
static bool cmdline_param(const char *param, char *value, size_t size)
{
	static char cmdline[4096];
	size_t len = strlen(param);
	char *tok, *save;

	if (read_file("/proc/cmdline", cmdline, sizeof(cmdline)) <= 0)
		return false;
	for (tok = strtok_r(cmdline, " \t\n", &save); tok;
	     tok = strtok_r(NULL, " \t\n", &save)) {
		if (strncmp(tok, param, len) || (tok[len] && tok[len] != '='))
			continue;
		if (value)
			snprintf(value, size, "%s", tok[len] ? tok + len + 1 : "");
		return true;
	}
	return false;
}

/* user_booted_reported, as the kernel parses it (kstrtobool). */
static bool cmdline_expects_report(void)
{
	char v[16];

	if (!cmdline_param("user_booted_reported", v, sizeof(v)))
		return false;
	return !v[0] || strchr("1yYtT", v[0]) ||
	       !strcasecmp(v, "on");
}

static bool cmdline_sets_user_booted(void)
{
	char v[16];

	return cmdline_param("sysctl.kernel.user_booted", v, sizeof(v)) &&
	       valid_report(v, strlen(v), 0);
}

/* ------------------------------------------------------------------ */
/* The counting subscriber and the kernel log                          */
/* ------------------------------------------------------------------ */

static long subscriber_param(const char *name)
{
	char path[128], buf[32];

	snprintf(path, sizeof(path), SUBSCRIBER_PARAMS "%s", name);
	if (read_file(path, buf, sizeof(buf)) <= 0)
		return -1;
	return strtol(buf, NULL, 10);
}

/* Load the subscriber unless loaded; returns its notifier count or -1. */
static long load_subscriber(void)
{
	char cmd[128];

	if (subscriber_param("subscribers") < 0) {
		snprintf(cmd, sizeof(cmd),
			 "modprobe -q user_booted_subscriber subscribers=%d >/dev/null 2>&1",
			 SUBSCRIBERS);
		if (system(cmd))
			return -1;
	}
	return subscriber_param("subscribers");
}

/* The kernel log, NUL-terminated, to free(); NULL if unreadable. */
static char *kernel_log(void)
{
	int size = klogctl(SYSLOG_ACTION_SIZE_BUFFER, NULL, 0);
	char *log;
	int n;

	if (size <= 0)
		return NULL;
	log = malloc(size + 1);
	if (!log)
		return NULL;
	n = klogctl(SYSLOG_ACTION_READ_ALL, log, size);
	if (n < 0) {
		free(log);
		return NULL;
	}
	log[n] = '\0';
	return log;
}

static int count_in(const char *log, const char *needle)
{
	int n = 0;

	while (log && (log = strstr(log, needle))) {
		n++;
		log++;
	}
	return n;
}

static int log_count(const char *needle)
{
	char *log = kernel_log();
	int n = log ? count_in(log, needle) : -1;

	free(log);
	return n;
}

/*
 * "user_booted: userspace boot ended (<reason>) S.mmm s after init launch,
 * by <comm>[<pid>]; N subscribers told in X us"
 */
struct boot_end_line {
	int count;		/* how many such lines the log holds */
	char reason[16];
	unsigned long secs, msecs;
	char comm[32];
	int pid;
	unsigned int subscribers;
	unsigned long us;
};

/* Parse the last end-of-boot line; false if it does not parse. */
static bool read_boot_end_line(struct boot_end_line *e)
{
	char *log = kernel_log();
	const char *p, *last = NULL;
	int n;

	memset(e, 0, sizeof(*e));
	for (p = log; p && (p = strstr(p, LOG_BOOT_END)); p++) {
		last = p;
		e->count++;
	}
	n = last ? sscanf(last + strlen(LOG_BOOT_END),
			  "%15[a-z]) %lu.%3lu s after init launch, by %31[^[][%d]; %u subscribers told in %lu us",
			  e->reason, &e->secs, &e->msecs, e->comm, &e->pid,
			  &e->subscribers, &e->us) : 0;
	free(log);
	return n == 7;
}

/* ------------------------------------------------------------------ */
/* State snapshots                                                     */
/* ------------------------------------------------------------------ */

struct snapshot {
	int state;
	long told;		/* -1 without the subscriber module */
	long duplicates;
	int end_lines;		/* end-of-boot lines in the kernel log */
};

static void take_snapshot(struct snapshot *s)
{
	s->state = read_state();
	s->told = subscriber_param("told");
	s->duplicates = subscriber_param("duplicates");
	s->end_lines = log_count(LOG_BOOT_END);
}

static void expect_unchanged(struct __test_metadata *_metadata,
			     const struct snapshot *before, const char *what)
{
	struct snapshot after;

	take_snapshot(&after);
	EXPECT_EQ(before->state, after.state)
		TH_LOG("kernel.user_booted changed after %s", what);
	EXPECT_EQ(before->told, after.told)
		TH_LOG("a subscriber was told after %s", what);
	EXPECT_EQ(before->duplicates, after.duplicates)
		TH_LOG("a subscriber was told twice after %s", what);
	EXPECT_EQ(before->end_lines, after.end_lines)
		TH_LOG("the kernel logged an end of boot after %s", what);
}

/* Write and expect @err (0: accepted) and no change of state at all. */
static void expect_write(struct __test_metadata *_metadata, const void *buf,
			 size_t len, off_t off, int err, const char *what)
{
	struct snapshot before;
	int got;

	take_snapshot(&before);
	got = try_write(buf, len, off);
	EXPECT_EQ(err, got)
		TH_LOG("writing %s: expected %s, got %s", what, errname(err),
		       errname(got));
	expect_unchanged(_metadata, &before, what);
}

/* Every subscriber told exactly once, for @reason. */
static void expect_told_once(struct __test_metadata *_metadata, long subscribers,
			     enum reason reason)
{
	EXPECT_EQ(subscribers, subscriber_param("told"))
		TH_LOG("%ld subscribers must each be told once", subscribers);
	EXPECT_EQ(0, subscriber_param("duplicates"))
		TH_LOG("a subscriber was told more than once");
	EXPECT_EQ(reason, subscriber_param("last_reason"))
		TH_LOG("subscribers must be told the reason %s",
		       reason_names[reason]);
}

/* ------------------------------------------------------------------ */
/* Bad input, checked the same way before and after the end of boot     */
/* ------------------------------------------------------------------ */

#define BAD(s) { #s, s, sizeof(s) - 1 }

static const struct bad_write {
	const char *what;
	const char *buf;
	size_t len;
} bad_writes[] = {
	BAD("0"), BAD("0\n"), BAD("2"), BAD("-1"), BAD("1x"), BAD(" 1"),
	BAD("\t1"), BAD("\n1"), BAD("01"), BAD("+1"), BAD("1 "), BAD("1\t"),
	BAD("1\r"), BAD("1\r\n"), BAD("1\n\n"), BAD("1\n1"), BAD("1\0"),
	BAD("11"), BAD("10"), BAD("1.0"), BAD("0x1"), BAD("y"), BAD("Y"),
	BAD("on"), BAD("true"), BAD("yes"), BAD("\n"), BAD("\0"), BAD(" "),
	BAD("\xef\xbc\x91"),	/* U+FF11, FULLWIDTH DIGIT ONE */
	BAD(""),		/* an empty write */
};

static void check_bad_writes(struct __test_metadata *_metadata)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad_writes); i++)
		expect_write(_metadata, bad_writes[i].buf, bad_writes[i].len, 0,
			     EINVAL, bad_writes[i].what);
}

static void check_oversized_writes(struct __test_metadata *_metadata)
{
	static const size_t sizes[] = { 4096, 4097, 8192, 1 << 20 };
	char *buf, what[64];
	size_t i;

	buf = malloc(1 << 20);
	ASSERT_NE(NULL, buf);
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		size_t n = sizes[i];

		/* "1\n" then NULs, as a careless writer of a whole buffer. */
		memset(buf, 0, n);
		memcpy(buf, USER_BOOTED_WRITE, strlen(USER_BOOTED_WRITE));
		snprintf(what, sizeof(what), "\"1\\n\" padded with NULs to %zu bytes", n);
		expect_write(_metadata, buf, n, 0, EINVAL, what);

		memset(buf, '\n', n);
		buf[0] = '1';
		snprintf(what, sizeof(what), "\"1\" and %zu newlines", n - 1);
		expect_write(_metadata, buf, n, 0, EINVAL, what);

		memset(buf, '1', n);
		snprintf(what, sizeof(what), "%zu ones", n);
		expect_write(_metadata, buf, n, 0, EINVAL, what);
	}
	free(buf);
}

static void check_offset_writes(struct __test_metadata *_metadata)
{
	static const off_t offsets[] = { 1, 2, 4096, 1 << 20, (off_t)1 << 40 };
	char what[64];
	size_t i;
	int fd, err;

	for (i = 0; i < ARRAY_SIZE(offsets); i++) {
		snprintf(what, sizeof(what), "\"1\" at offset %lld",
			 (long long)offsets[i]);
		expect_write(_metadata, "1", 1, offsets[i], EINVAL, what);
		snprintf(what, sizeof(what), "\"1\\n\" at offset %lld",
			 (long long)offsets[i]);
		expect_write(_metadata, "1\n", 2, offsets[i], EINVAL, what);
	}

	/* The file position counts, not just pwrite()'s offset. */
	fd = open(USER_BOOTED_SYSCTL_PATH, O_WRONLY | O_CLOEXEC);
	ASSERT_LE(0, fd);
	ASSERT_EQ(1, lseek(fd, 1, SEEK_SET));
	err = write(fd, "1", 1) < 0 ? errno : 0;
	EXPECT_EQ(EINVAL, err) TH_LOG("write(\"1\") after lseek(1): %s", errname(err));
	close(fd);
}

/*
 * A write the kernel sees only in part must not count: the second half of a
 * split "1\n", a writev() whose pieces make an invalid whole, and a buffer
 * whose tail cannot be read (EFAULT, nothing acted on).
 */
static void check_partial_writes(struct __test_metadata *_metadata)
{
	struct iovec bad_vec[][2] = {
		{ { "1", 1 }, { "x", 1 } },
		{ { "1", 1 }, { "\n\n", 2 } },
		{ { " ", 1 }, { "1", 1 } },
		{ { "0", 1 }, { "\n", 1 } },
	};
	long page = sysconf(_SC_PAGESIZE);
	struct snapshot before;
	size_t i;
	char *map;
	int fd, err;

	expect_write(_metadata, "\n", 1, 1, EINVAL,
		     "\"\\n\" at offset 1, the second half of a split \"1\\n\"");

	for (i = 0; i < ARRAY_SIZE(bad_vec); i++) {
		take_snapshot(&before);
		fd = open(USER_BOOTED_SYSCTL_PATH, O_WRONLY | O_CLOEXEC);
		ASSERT_LE(0, fd);
		err = writev(fd, bad_vec[i], 2) < 0 ? errno : 0;
		close(fd);
		EXPECT_EQ(EINVAL, err) TH_LOG("writev() #%zu: %s", i, errname(err));
		expect_unchanged(_metadata, &before, "an invalid writev()");
	}

	/* "1" on the last byte of a page, the newline on an unmapped one. */
	map = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, map);
	ASSERT_EQ(0, munmap(map + page, page));
	map[page - 1] = '1';
	expect_write(_metadata, map + page - 1, 2, 0, EFAULT,
		     "\"1\" followed by an unmapped byte");
	expect_write(_metadata, map + page, 1, 0, EFAULT, "an unmapped byte");
	munmap(map, page);
}

/* xorshift64*: reproducible from the seed in the log. */
static __u64 next_random(__u64 *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ULL;
}

/*
 * A random write: mostly short (where the parser's edge cases are), up to
 * RANDOM_MAX_LEN bytes; bytes from a small alphabet half of the time; one
 * in sixteen at a non-zero offset.
 */
static size_t random_write(__u64 *s, char *buf, off_t *off)
{
	static const char alphabet[] = "01\n \t+-x";	/* and its NUL */
	bool from_alphabet = next_random(s) & 1;
	size_t len, i;

	switch (next_random(s) % 4) {
	case 0:
	case 1:
		len = next_random(s) % 4;
		break;
	case 2:
		len = next_random(s) % 65;
		break;
	default:
		len = next_random(s) % (RANDOM_MAX_LEN + 1);
		break;
	}
	for (i = 0; i < len; i++)
		buf[i] = from_alphabet ?
			 alphabet[next_random(s) % sizeof(alphabet)] :
			 (char)next_random(s);
	*off = next_random(s) % 16 ? 0 : 1 + next_random(s) % RANDOM_MAX_LEN;
	return len;
}

/*
 * RANDOM_WRITES random writes: each refused with EINVAL unless it is the
 * valid report, the state checked after every one.  While booting a valid
 * report would end boot, so one drawn is drawn again.
 */
static void check_random_writes(struct __test_metadata *_metadata, bool booting)
{
	unsigned int i, valid = 0, wrong = 0, redrawn = 0;
	int expected_state = booting ? USER_BOOTED_NO : USER_BOOTED_YES;
	const char *env = getenv("USER_BOOTED_SEED");
	__u64 seed, s;
	struct snapshot before;
	char *buf;
	int fd;

	seed = env ? strtoull(env, NULL, 0) : (__u64)time(NULL) ^ getpid();
	seed = seed ?: 1;
	s = seed;
	TH_LOG("%d random writes, USER_BOOTED_SEED=%llu repeats them",
	       RANDOM_WRITES, (unsigned long long)seed);
	buf = malloc(RANDOM_MAX_LEN);
	ASSERT_NE(NULL, buf);
	fd = open(USER_BOOTED_SYSCTL_PATH, O_WRONLY | O_CLOEXEC);
	ASSERT_LE(0, fd);
	take_snapshot(&before);

	for (i = 0; i < RANDOM_WRITES; i++) {
		bool is_valid;
		size_t len;
		ssize_t ret;
		off_t off;
		int err, state;

		for (;;) {
			len = random_write(&s, buf, &off);
			is_valid = valid_report(buf, len, off);
			if (!is_valid || !booting)
				break;
			redrawn++;
		}
		ret = pwrite(fd, buf, len, off);
		err = ret < 0 ? errno : ret == (ssize_t)len ? 0 : -1;
		valid += is_valid;
		if (err != (is_valid ? 0 : EINVAL) && wrong++ < 5)
			TH_LOG("write #%u, %zu bytes at offset %lld, starting %02x %02x %02x: %s",
			       i, len, (long long)off, len > 0 ? buf[0] & 0xff : 0,
			       len > 1 ? buf[1] & 0xff : 0, len > 2 ? buf[2] & 0xff : 0,
			       errname(err));
		state = read_state();
		ASSERT_EQ(expected_state, state)
			TH_LOG("write #%u (%zu bytes at offset %lld) changed the state",
			       i, len, (long long)off);
	}
	close(fd);
	free(buf);
	EXPECT_EQ(0U, wrong) TH_LOG("%u writes got the wrong answer", wrong);
	TH_LOG("%u valid reports written, %u redrawn", valid, redrawn);
	expect_unchanged(_metadata, &before, "the random writes");
}

/* ------------------------------------------------------------------ */
/* Privilege                                                           */
/* ------------------------------------------------------------------ */

enum identity {
	AS_NOBODY,
	AS_ROOT_WITHOUT_CAP_SYS_ADMIN,
	AS_ROOT_IN_USERNS,
	AS_ROOT_IN_PIDNS,
};

struct attempt {
	int setup_err;	/* could not become @identity */
	int open_err;
	int write_err;
	int state;	/* as read by that identity */
};

static int drop_cap_sys_admin(void)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
	int i = CAP_TO_INDEX(CAP_SYS_ADMIN);

	if (syscall(SYS_capget, &hdr, data))
		return errno;
	data[i].effective &= ~CAP_TO_MASK(CAP_SYS_ADMIN);
	data[i].permitted &= ~CAP_TO_MASK(CAP_SYS_ADMIN);
	data[i].inheritable &= ~CAP_TO_MASK(CAP_SYS_ADMIN);
	return syscall(SYS_capset, &hdr, data) ? errno : 0;
}

static int write_proc_self(const char *file, const char *text)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/self/%s", file);
	return try_write_path(path, text, strlen(text), 0);
}

/* Root of a new user namespace, uid 0 mapped to the global root. */
static int become_userns_root(void)
{
	int err;

	if (unshare(CLONE_NEWUSER))
		return errno;
	err = write_proc_self("setgroups", "deny");
	if (!err)
		err = write_proc_self("uid_map", "0 0 1");
	if (!err)
		err = write_proc_self("gid_map", "0 0 1");
	return err;
}

/*
 * PID 1 of a new PID namespace, as a container's init is (unshare -p -f):
 * the caller waits for it and exits with its status.
 */
static int become_pidns_init(void)
{
	int status;
	pid_t pid;

	if (unshare(CLONE_NEWPID))
		return errno;
	pid = fork();
	if (pid < 0)
		return errno;
	if (pid == 0)
		return getpid() == 1 ? 0 : ESRCH;
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		_exit(1);
	_exit(WEXITSTATUS(status));
}

/* Returns 0, or the errno of the step that failed. */
static int become(enum identity who)
{
	if (who == AS_ROOT_IN_PIDNS)
		return become_pidns_init();
	if (who == AS_ROOT_WITHOUT_CAP_SYS_ADMIN)
		return drop_cap_sys_admin();
	if (who == AS_ROOT_IN_USERNS)
		return become_userns_root();
	if (setgroups(0, NULL) || setresgid(NOBODY, NOBODY, NOBODY) ||
	    setresuid(NOBODY, NOBODY, NOBODY))
		return errno;
	return 0;
}

/* Open @path and write @text to it as @who, in a child. */
static struct attempt attempt_as(enum identity who, const char *path,
				 const char *text)
{
	struct attempt a = { .setup_err = ECHILD };
	int pipefd[2];
	pid_t pid;

	if (pipe(pipefd))
		return a;
	pid = fork();
	if (pid == 0) {
		int fd;

		close(pipefd[0]);
		a.setup_err = become(who);
		a.state = read_state();
		if (!a.setup_err) {
			fd = open(path, O_WRONLY | O_CLOEXEC);
			a.open_err = fd < 0 ? errno : 0;
			if (fd >= 0 && write(fd, text, strlen(text)) < 0)
				a.write_err = errno;
		}
		if (write(pipefd[1], &a, sizeof(a)) != sizeof(a))
			_exit(1);
		_exit(0);
	}
	close(pipefd[1]);
	if (pid < 0 || read(pipefd[0], &a, sizeof(a)) != sizeof(a))
		a.setup_err = ECHILD;
	close(pipefd[0]);
	if (pid > 0)
		waitpid(pid, NULL, 0);
	return a;
}

static const char * const identity_names[] = {
	[AS_NOBODY] = "nobody",
	[AS_ROOT_WITHOUT_CAP_SYS_ADMIN] = "root without CAP_SYS_ADMIN",
	[AS_ROOT_IN_USERNS] = "root in a new user namespace",
	[AS_ROOT_IN_PIDNS] = "init of a child PID namespace",
};

/*
 * The file is 0644 (like kptr_restrict): nobody cannot open it for writing
 * (EACCES).  Root without CAP_SYS_ADMIN in the initial user namespace opens
 * it and gets EPERM from the write, whatever the bytes, valid or not; so
 * does root of a user namespace mapped to the global root (other mappings
 * get EACCES at open), and a container's init in a child PID namespace,
 * with all its capabilities: only the system's init ends the system's boot.
 */
static void check_privilege(struct __test_metadata *_metadata, enum identity who)
{
	static const char * const texts[] = { "1\n", "1", "0", "garbage" };
	struct snapshot before;
	struct attempt a;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(texts); i++) {
		take_snapshot(&before);
		a = attempt_as(who, USER_BOOTED_SYSCTL_PATH, texts[i]);
		if (who == AS_ROOT_IN_USERNS && (a.setup_err == EPERM ||
						 a.setup_err == EINVAL ||
						 a.setup_err == ENOSPC))
			SKIP(return, "no user namespaces here: %s",
			     strerror(a.setup_err));
		if (who == AS_ROOT_IN_PIDNS && a.setup_err == EINVAL)
			SKIP(return, "no PID namespaces here: %s",
			     strerror(a.setup_err));
		ASSERT_EQ(0, a.setup_err)
			TH_LOG("cannot become %s: %s", identity_names[who],
			       strerror(a.setup_err));
		ASSERT_NE(-EACCES, a.state)
			TH_LOG("%s cannot reach %s: is / or /proc not searchable?",
			       identity_names[who], USER_BOOTED_SYSCTL_PATH);
		EXPECT_EQ(before.state, a.state)
			TH_LOG("%s must be able to read the state", identity_names[who]);
		if (who == AS_NOBODY) {
			EXPECT_EQ(EACCES, a.open_err)
				TH_LOG("nobody opening the 0644 file for writing: %s",
				       errname(a.open_err));
		} else if (who == AS_ROOT_WITHOUT_CAP_SYS_ADMIN ||
			   who == AS_ROOT_IN_PIDNS || !a.open_err) {
			EXPECT_EQ(0, a.open_err)
				TH_LOG("%s opening the file: %s", identity_names[who],
				       errname(a.open_err));
			EXPECT_EQ(EPERM, a.write_err)
				TH_LOG("%s writing \"%s\": %s", identity_names[who],
				       texts[i], errname(a.write_err));
		} else {
			EXPECT_EQ(EACCES, a.open_err)
				TH_LOG("%s opening the file: %s", identity_names[who],
				       errname(a.open_err));
		}
		expect_unchanged(_metadata, &before, "an unprivileged write");
	}

	/* Nor does a child PID namespace set the system's fallback. */
	if (who == AS_ROOT_IN_PIDNS) {
		long timeout = read_timeout();

		a = attempt_as(who, USER_BOOTED_TIMEOUT_SYSCTL_PATH, "7\n");
		if (a.setup_err == EINVAL)
			SKIP(return, "no PID namespaces here");
		ASSERT_EQ(0, a.setup_err);
		EXPECT_EQ(0, a.open_err);
		EXPECT_EQ(EPERM, a.write_err)
			TH_LOG("%s writing %s: %s", identity_names[who],
			       USER_BOOTED_TIMEOUT_SYSCTL_PATH, errname(a.write_err));
		EXPECT_EQ(timeout, read_timeout());
	}

	/* The timeout is 0644: nobody cannot even open it for writing. */
	if (who == AS_NOBODY) {
		long timeout = read_timeout();

		a = attempt_as(who, USER_BOOTED_TIMEOUT_SYSCTL_PATH, "1\n");
		ASSERT_EQ(0, a.setup_err);
		EXPECT_EQ(EACCES, a.open_err)
			TH_LOG("nobody opening %s for writing: %s",
			       USER_BOOTED_TIMEOUT_SYSCTL_PATH, errname(a.open_err));
		EXPECT_EQ(timeout, read_timeout());
	}
}

/* ------------------------------------------------------------------ */
/* Waiting for the end of boot                                         */
/* ------------------------------------------------------------------ */

/* Set just before the write that ends boot: a waiter woken earlier is wrong. */
static atomic_bool boot_end_started;

struct waiter {
	pthread_t thread;
	bool use_epoll;
	int fd, epfd;
	int woke;		/* poll()'s or epoll_wait()'s result */
	unsigned int revents;
	atomic_bool done;
	bool early;		/* woke before boot_end_started */
	double woke_at;
	int state;		/* read right after waking */
	int again;		/* a second wait, without a new event */
};

/* The sysctl poll protocol: open, read, then wait for POLLPRI. */
static int waiter_open(struct waiter *w, bool use_epoll)
{
	struct epoll_event ev = { .events = EPOLLPRI };

	memset(w, 0, sizeof(*w));
	w->use_epoll = use_epoll;
	w->epfd = -1;
	w->fd = open(USER_BOOTED_SYSCTL_PATH, O_RDONLY | O_CLOEXEC);
	if (w->fd < 0 || read_state_fd(w->fd) < 0)
		return -1;
	if (!use_epoll)
		return 0;
	w->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (w->epfd < 0)
		return -1;
	ev.data.fd = w->fd;
	return epoll_ctl(w->epfd, EPOLL_CTL_ADD, w->fd, &ev);
}

static void waiter_close(struct waiter *w)
{
	if (w->epfd >= 0)
		close(w->epfd);
	if (w->fd >= 0)
		close(w->fd);
}

/* Wait up to @ms; returns the syscall's result, the events in @revents. */
static int wait_event(struct waiter *w, int ms, unsigned int *revents)
{
	struct epoll_event ev = { 0 };
	struct pollfd pfd = { .fd = w->fd, .events = POLLPRI };
	int n;

	if (w->use_epoll) {
		n = epoll_wait(w->epfd, &ev, 1, ms);
		*revents = n > 0 ? ev.events : 0;
	} else {
		n = poll(&pfd, 1, ms);
		*revents = n > 0 ? pfd.revents : 0;
	}
	return n;
}

static void *waiter_fn(void *arg)
{
	struct waiter *w = arg;
	unsigned int unused;

	w->woke = wait_event(w, WAIT_LIMIT_MS, &w->revents);
	w->woke_at = now();
	w->early = !atomic_load(&boot_end_started);
	w->state = read_state_fd(w->fd);
	atomic_store(&w->done, true);
	w->again = wait_event(w, QUIET_MS, &unused);
	return NULL;
}

static void expect_woken_by_boot_end(struct __test_metadata *_metadata,
				     struct waiter *w, double ended_at)
{
	const char *how = w->use_epoll ? "epoll" : "poll";

	EXPECT_EQ(1, w->woke) TH_LOG("%s waiter not woken by the end of boot", how);
	EXPECT_EQ((unsigned int)(POLLPRI | POLLERR), w->revents & (POLLPRI | POLLERR))
		TH_LOG("%s waiter got events %#x, not POLLPRI|POLLERR", how, w->revents);
	EXPECT_FALSE(w->early) TH_LOG("%s waiter woke before boot ended", how);
	EXPECT_EQ(USER_BOOTED_YES, w->state)
		TH_LOG("%s waiter woke but read the state as %d", how, w->state);
	EXPECT_TRUE(w->woke_at - ended_at < WAKE_LATENCY_S)
		TH_LOG("%s waiter woke %.3f s after boot ended", how,
		       w->woke_at - ended_at);
	EXPECT_EQ(0, w->again) TH_LOG("%s waiter woken twice by one event", how);
}

/* ------------------------------------------------------------------ */
/* Cases that do not depend on the state                               */
/* ------------------------------------------------------------------ */

TEST(timeout_rejects_values_out_of_range)
{
	static const char * const bad[] = {
		"0", "86401", "-1", "4294967296", "abc", "86400x",
	};
	long timeout = read_timeout();
	struct snapshot before;
	char what[64];
	size_t i;
	int err;

	if (!can_run(_metadata, have_user_booted(), NO_SYSCTL))
		SKIP(return, "%s", NO_SYSCTL);
	ASSERT_LT(0, timeout) TH_LOG("cannot read %s", USER_BOOTED_TIMEOUT_SYSCTL_PATH);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		take_snapshot(&before);
		err = try_write_path(USER_BOOTED_TIMEOUT_SYSCTL_PATH, bad[i],
				     strlen(bad[i]), 0);
		EXPECT_EQ(EINVAL, err)
			TH_LOG("timeout \"%s\": %s", bad[i], errname(err));
		EXPECT_EQ(timeout, read_timeout());
		snprintf(what, sizeof(what), "timeout \"%s\"", bad[i]);
		expect_unchanged(_metadata, &before, what);
	}
}

/* ------------------------------------------------------------------ */
/* booting: userspace boot has not ended                               */
/* ------------------------------------------------------------------ */

FIXTURE(booting) {
	long subscribers;
};

FIXTURE_SETUP(booting)
{
	const char *why = "userspace boot has ended; needs a boot with user_booted_reported";
	int state;

	if (!can_run(_metadata, have_user_booted(), NO_SYSCTL))
		SKIP(return, "%s", NO_SYSCTL);
	state = read_state();
	ASSERT_LE(0, state) TH_LOG("cannot read %s: %s", USER_BOOTED_SYSCTL_PATH,
				   strerror(-state));
	if (!can_run(_metadata, state == USER_BOOTED_NO, why))
		SKIP(return, "%s", why);
	/* Optional here: with it, "no state change" covers subscribers too. */
	self->subscribers = load_subscriber();
	if (self->subscribers < 0)
		TH_LOG("no user_booted_subscriber: checking the state only");
}

FIXTURE_TEARDOWN(booting)
{
}

TEST_F(booting, reads_0_while_booting)
{
	char buf[16];
	ssize_t n;
	int fd;

	fd = open(USER_BOOTED_SYSCTL_PATH, O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, fd);
	n = read(fd, buf, sizeof(buf));
	ASSERT_EQ(2, n);
	EXPECT_EQ(0, memcmp(buf, "0\n", 2)) TH_LOG("read \"%.*s\"", (int)n, buf);
	EXPECT_EQ(0, read(fd, buf, sizeof(buf))) TH_LOG("no EOF after \"0\\n\"");
	close(fd);
	EXPECT_EQ(USER_BOOTED_NO, read_state());
}

TEST_F(booting, subscribers_are_not_told_while_booting)
{
	if (!can_run(_metadata, self->subscribers >= 0, NO_SUBSCRIBER))
		SKIP(return, "%s", NO_SUBSCRIBER);
	EXPECT_EQ(0, subscriber_param("told"));
	EXPECT_EQ(0, subscriber_param("last_reason"));
	EXPECT_EQ(0, log_count(LOG_BOOT_END))
		TH_LOG("the kernel logged an end of boot, yet reads 0");
}

TEST_F(booting, invalid_writes_are_refused_with_einval)
{
	check_bad_writes(_metadata);
}

TEST_F(booting, oversized_writes_are_refused_with_einval)
{
	check_oversized_writes(_metadata);
}

TEST_F(booting, writes_at_nonzero_offsets_are_refused_with_einval)
{
	check_offset_writes(_metadata);
}

TEST_F(booting, partial_writes_are_refused)
{
	check_partial_writes(_metadata);
}

TEST_F_TIMEOUT(booting, random_writes_never_end_boot, 300)
{
	check_random_writes(_metadata, true);
}

TEST_F(booting, nobody_gets_eacces)
{
	check_privilege(_metadata, AS_NOBODY);
}

TEST_F(booting, root_without_cap_sys_admin_gets_eperm)
{
	check_privilege(_metadata, AS_ROOT_WITHOUT_CAP_SYS_ADMIN);
}

TEST_F(booting, root_in_user_namespace_is_refused)
{
	check_privilege(_metadata, AS_ROOT_IN_USERNS);
}

TEST_F(booting, child_pid_namespace_gets_eperm)
{
	check_privilege(_metadata, AS_ROOT_IN_PIDNS);
}

TEST_F(booting, waiters_are_not_woken_while_booting)
{
	struct waiter w[2];
	unsigned int revents;
	int i;

	for (i = 0; i < 2; i++) {
		ASSERT_EQ(0, waiter_open(&w[i], i));
		EXPECT_EQ(0, wait_event(&w[i], 0, &revents))
			TH_LOG("%s reports an event while booting (%#x)",
			       i ? "epoll" : "poll", revents);
	}
	/* Refused writes are no event either. */
	check_bad_writes(_metadata);
	for (i = 0; i < 2; i++) {
		EXPECT_EQ(0, wait_event(&w[i], QUIET_MS, &revents))
			TH_LOG("%s woken while booting (%#x)", i ? "epoll" : "poll",
			       revents);
		waiter_close(&w[i]);
	}
	EXPECT_EQ(USER_BOOTED_NO, read_state());
}

/* ------------------------------------------------------------------ */
/* boot_end: each case ends boot; one per boot                          */
/* ------------------------------------------------------------------ */

FIXTURE(boot_end) {
	long subscribers;
	long timeout;
	struct waiter waiter;
};

FIXTURE_SETUP(boot_end)
{
	const char *why = "userspace boot has ended; needs a boot with user_booted_reported";

	if (!can_run(_metadata, have_user_booted(), NO_SYSCTL))
		SKIP(return, "%s", NO_SYSCTL);
	if (!can_run(_metadata, read_state() == USER_BOOTED_NO, why))
		SKIP(return, "%s", why);
	self->subscribers = load_subscriber();
	if (!can_run(_metadata, self->subscribers > 0, NO_SUBSCRIBER))
		SKIP(return, "%s", NO_SUBSCRIBER);
	self->timeout = read_timeout();
	ASSERT_LT(0, self->timeout);
	/* Opened while booting: woken by whatever ends boot. */
	ASSERT_EQ(0, waiter_open(&self->waiter, false));
	if (!can_run(_metadata, read_state() == USER_BOOTED_NO, why))
		SKIP(return, "%s", why);
	ASSERT_EQ(0, subscriber_param("told"))
		TH_LOG("subscribers told while boot has not ended");
	ASSERT_EQ(0, log_count(LOG_BOOT_END));
}

FIXTURE_TEARDOWN(boot_end)
{
	waiter_close(&self->waiter);
}

/* The one end-of-boot line, for @reason, by @pid (0: any). */
static void expect_boot_end_line(struct __test_metadata *_metadata,
				 enum reason reason, int pid,
				 struct boot_end_line *e)
{
	ASSERT_TRUE(read_boot_end_line(e))
		TH_LOG("no parsable \"%s...\" line in the kernel log", LOG_BOOT_END);
	EXPECT_EQ(1, e->count) TH_LOG("boot ended %d times", e->count);
	EXPECT_STREQ(reason_names[reason], e->reason);
	if (pid) {
		EXPECT_EQ(pid, e->pid)
			TH_LOG("boot ended by %s[%d]", e->comm, e->pid);
	}
}

TEST_F(boot_end, report_wakes_waiters_and_ends_boot_once)
{
	struct boot_end_line e;
	struct waiter w[2];
	double ended_at;
	char comm[32];
	int i, err;

	for (i = 0; i < 2; i++) {
		ASSERT_EQ(0, waiter_open(&w[i], i));
		ASSERT_EQ(0, pthread_create(&w[i].thread, NULL, waiter_fn, &w[i]));
	}
	sleep_ms(QUIET_MS);
	for (i = 0; i < 2; i++) {
		ASSERT_FALSE(atomic_load(&w[i].done))
			TH_LOG("%s waiter woke before anything reported",
			       i ? "epoll" : "poll");
	}
	ASSERT_EQ(USER_BOOTED_NO, read_state());

	atomic_store(&boot_end_started, true);
	ended_at = now();
	err = report();
	ASSERT_EQ(0, err) TH_LOG("root writing \"1\\n\": %s", errname(err));
	EXPECT_EQ(USER_BOOTED_YES, read_state());

	for (i = 0; i < 2; i++) {
		pthread_join(w[i].thread, NULL);
		expect_woken_by_boot_end(_metadata, &w[i], ended_at);
		waiter_close(&w[i]);
	}
	expect_told_once(_metadata, self->subscribers, REASON_REPORTED);
	expect_boot_end_line(_metadata, REASON_REPORTED, getpid(), &e);
	ASSERT_LT(0, read_file("/proc/self/comm", comm, sizeof(comm)));
	comm[strcspn(comm, "\n")] = '\0';
	EXPECT_STREQ(comm, e.comm);
	EXPECT_EQ(0, log_count(LOG_TIMEOUT_WARNING));
}

struct writer {
	pthread_t thread;
	pthread_barrier_t *go;
	const char *path;
	const char *text;
	unsigned int delay_us;	/* after the barrier, before writing */
	int fd;
	pid_t tid;
	int err;
};

static void *writer_fn(void *arg)
{
	struct writer *w = arg;
	size_t len = strlen(w->text);
	struct timespec delay = { 0, w->delay_us * 1000L };
	ssize_t ret;

	w->tid = gettid();
	pthread_barrier_wait(w->go);
	/* Sleep, not spin: let the kworker have the CPU meanwhile. */
	if (w->delay_us)
		nanosleep(&delay, NULL);
	ret = write(w->fd, w->text, len);
	w->err = ret < 0 ? errno : ret == (ssize_t)len ? 0 : -1;
	return NULL;
}

/* Start @n writers of @text to @path; they write when all are ready. */
static int start_writers(struct writer *w, int n, pthread_barrier_t *go,
			 const char *path, const char *text)
{
	int i;

	for (i = 0; i < n; i++) {
		w[i].go = go;
		w[i].path = path;
		w[i].text = text;
		w[i].fd = open(path, O_WRONLY | O_CLOEXEC);
		if (w[i].fd < 0 || pthread_create(&w[i].thread, NULL, writer_fn, &w[i]))
			return -1;
	}
	return 0;
}

static void join_writers(struct writer *w, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		pthread_join(w[i].thread, NULL);
		close(w[i].fd);
	}
}

static bool is_writer(const struct writer *w, int n, int pid)
{
	int i;

	for (i = 0; i < n; i++)
		if (w[i].tid == pid)
			return true;
	return false;
}

TEST_F(boot_end, concurrent_reports_end_boot_once)
{
	struct writer w[NR_WRITERS] = { 0 };
	pthread_barrier_t go;
	struct boot_end_line e;
	int i;

	ASSERT_EQ(0, pthread_barrier_init(&go, NULL, NR_WRITERS + 1));
	ASSERT_EQ(0, start_writers(w, NR_WRITERS, &go, USER_BOOTED_SYSCTL_PATH,
				   USER_BOOTED_WRITE));
	pthread_barrier_wait(&go);
	join_writers(w, NR_WRITERS);
	pthread_barrier_destroy(&go);

	for (i = 0; i < NR_WRITERS; i++) {
		EXPECT_EQ(0, w[i].err)
			TH_LOG("writer %d: %s", i, errname(w[i].err));
	}
	EXPECT_EQ(USER_BOOTED_YES, read_state());
	expect_told_once(_metadata, self->subscribers, REASON_REPORTED);
	expect_boot_end_line(_metadata, REASON_REPORTED, 0, &e);
	EXPECT_TRUE(is_writer(w, NR_WRITERS, e.pid))
		TH_LOG("boot ended by %s[%d], not by one of the writers", e.comm, e.pid);
}

/*
 * Shortening the timeout below the time since init launch fires it at once,
 * in a kworker: that races with reports written at the same moment, and a
 * little later (staggered over a few ms, from a random start, so that runs
 * see both winners).  Whichever wins, boot ends once and every subscriber
 * is told once.
 */
TEST_F_TIMEOUT(boot_end, report_racing_timeout_ends_boot_once, 60)
{
	struct writer w[NR_RACING_REPORTERS + 1] = { 0 };
	int n = NR_RACING_REPORTERS + 1;
	unsigned int jitter_us;
	struct boot_end_line e;
	pthread_barrier_t go;
	long reason;
	int i;

	/* Init was launched before this process: past a 1 s timeout then. */
	while (process_age() < 1.1)
		sleep_ms(100);

	ASSERT_EQ(0, pthread_barrier_init(&go, NULL, n + 1));
	/* w[0] shortens the timeout to 1 s, the others report. */
	ASSERT_EQ(0, start_writers(w, 1, &go, USER_BOOTED_TIMEOUT_SYSCTL_PATH, "1\n"));
	jitter_us = (getpid() ^ time(NULL)) % 2000;
	for (i = 1; i < n; i++)
		w[i].delay_us = jitter_us + (i - 1) * 250;
	ASSERT_EQ(0, start_writers(w + 1, n - 1, &go, USER_BOOTED_SYSCTL_PATH,
				   USER_BOOTED_WRITE));
	pthread_barrier_wait(&go);
	join_writers(w, n);
	pthread_barrier_destroy(&go);

	for (i = 0; i < n; i++) {
		EXPECT_EQ(0, w[i].err)
			TH_LOG("writer %d: %s", i, errname(w[i].err));
	}
	/* The timeout work may still be on its way. */
	ASSERT_EQ(1, poll(&(struct pollfd){ .fd = self->waiter.fd, .events = POLLPRI },
			  1, WAIT_LIMIT_MS));
	EXPECT_EQ(USER_BOOTED_YES, read_state());

	reason = subscriber_param("last_reason");
	ASSERT_TRUE(reason == REASON_REPORTED || reason == REASON_TIMEOUT)
		TH_LOG("last_reason %ld", reason);
	TH_LOG("the %s won (reports from %u us after the timeout)",
	       reason == REASON_TIMEOUT ? "timeout" : "report", jitter_us);
	expect_told_once(_metadata, self->subscribers, reason);
	expect_boot_end_line(_metadata, reason, 0, &e);
	if (reason == REASON_TIMEOUT) {
		EXPECT_EQ(0, strncmp(e.comm, "kworker/", 8))
			TH_LOG("the timeout ended boot in %s[%d]", e.comm, e.pid);
		EXPECT_EQ(1, log_count(LOG_TIMEOUT_WARNING));
	} else {
		EXPECT_TRUE(is_writer(w + 1, n - 1, e.pid))
			TH_LOG("boot ended by %s[%d], not by a reporter", e.comm, e.pid);
		EXPECT_EQ(0, log_count(LOG_TIMEOUT_WARNING));
	}
	EXPECT_EQ(0, write_timeout(self->timeout));
}

TEST_F_TIMEOUT(boot_end, timeout_ends_boot_with_a_warning, 60)
{
	const char *why =
		"needs user_booted_reported sysctl.kernel.user_booted_timeout=N, N <= 30";
	struct boot_end_line e;
	unsigned int revents;
	char warning[96];
	double ended_s;

	if (!can_run(_metadata, cmdline_expects_report() && self->timeout <= 30, why))
		SKIP(return, "%s", why);

	ASSERT_EQ(1, wait_event(&self->waiter, (self->timeout + 10) * 1000, &revents))
		TH_LOG("boot did not end within %ld s of the timeout", self->timeout + 10);
	EXPECT_EQ((unsigned int)(POLLPRI | POLLERR), revents & (POLLPRI | POLLERR));
	EXPECT_EQ(USER_BOOTED_YES, read_state());
	expect_told_once(_metadata, self->subscribers, REASON_TIMEOUT);

	expect_boot_end_line(_metadata, REASON_TIMEOUT, 0, &e);
	ended_s = e.secs + e.msecs / 1000.0;
	EXPECT_TRUE(ended_s >= self->timeout)
		TH_LOG("boot ended %.3f s after init launch, before the %ld s timeout",
		       ended_s, self->timeout);
	EXPECT_TRUE(ended_s < self->timeout + WAKE_LATENCY_S)
		TH_LOG("boot ended %.3f s after init launch, well after the %ld s timeout",
		       ended_s, self->timeout);
	EXPECT_EQ(0, strncmp(e.comm, "kworker/", 8))
		TH_LOG("the timeout ended boot in %s[%d]", e.comm, e.pid);
	snprintf(warning, sizeof(warning), LOG_TIMEOUT_WARNING "%ld s", self->timeout);
	EXPECT_EQ(1, log_count(warning)) TH_LOG("no \"%s\" warning", warning);
}

TEST_F_TIMEOUT(boot_end, shortened_timeout_ends_boot_at_once, 60)
{
	const char *why =
		"needs user_booted_reported sysctl.kernel.user_booted_timeout=N, N >= 60";
	struct boot_end_line e;
	unsigned int revents;
	double shortened_at;
	int err;

	if (!can_run(_metadata, cmdline_expects_report() && self->timeout >= 60, why))
		SKIP(return, "%s", why);

	/* Shortened to a deadline still ahead: boot goes on. */
	err = write_timeout(self->timeout / 2);
	ASSERT_EQ(0, err) TH_LOG("timeout %ld: %s", self->timeout / 2, errname(err));
	EXPECT_EQ(0, wait_event(&self->waiter, QUIET_MS, &revents))
		TH_LOG("boot ended though the deadline is %ld s after init launch",
		       self->timeout / 2);
	EXPECT_EQ(USER_BOOTED_NO, read_state());

	/* Shortened to a deadline already past: boot ends now. */
	while (process_age() < 1.1)
		sleep_ms(100);
	shortened_at = now();
	err = write_timeout(1);
	ASSERT_EQ(0, err) TH_LOG("timeout 1: %s", errname(err));
	ASSERT_EQ(1, wait_event(&self->waiter, WAIT_LIMIT_MS, &revents))
		TH_LOG("boot did not end after the timeout was shortened to 1 s");
	EXPECT_TRUE(now() - shortened_at < WAKE_LATENCY_S)
		TH_LOG("boot ended %.3f s after the timeout was shortened",
		       now() - shortened_at);
	EXPECT_EQ(USER_BOOTED_YES, read_state());
	EXPECT_EQ(1, read_timeout());
	expect_told_once(_metadata, self->subscribers, REASON_TIMEOUT);
	expect_boot_end_line(_metadata, REASON_TIMEOUT, 0, &e);
	EXPECT_EQ(1, log_count(LOG_TIMEOUT_WARNING "1 s"))
		TH_LOG("no \"%s1 s\" warning", LOG_TIMEOUT_WARNING);
}

/* ------------------------------------------------------------------ */
/* booted: userspace boot has ended                                    */
/* ------------------------------------------------------------------ */

FIXTURE(booted) {
};

FIXTURE_SETUP(booted)
{
	const char *why = "userspace boot has not ended yet: booted.* runs after it";

	if (!can_run(_metadata, have_user_booted(), NO_SYSCTL))
		SKIP(return, "%s", NO_SYSCTL);
	if (!can_run(_metadata, read_state() == USER_BOOTED_YES, why))
		SKIP(return, "%s", why);
}

FIXTURE_TEARDOWN(booted)
{
}

TEST_F(booted, reads_1_after_boot_end)
{
	struct attempt a;
	char buf[16];
	ssize_t n;
	int fd;

	fd = open(USER_BOOTED_SYSCTL_PATH, O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, fd);
	n = read(fd, buf, sizeof(buf));
	ASSERT_EQ(2, n);
	EXPECT_EQ(0, memcmp(buf, "1\n", 2)) TH_LOG("read \"%.*s\"", (int)n, buf);
	EXPECT_EQ(0, read(fd, buf, sizeof(buf))) TH_LOG("no EOF after \"1\\n\"");
	close(fd);

	/* Anyone may read it. */
	a = attempt_as(AS_NOBODY, "/dev/null", "");
	ASSERT_EQ(0, a.setup_err);
	EXPECT_EQ(USER_BOOTED_YES, a.state);
}

TEST_F(booted, rewriting_1_is_a_no_op)
{
	static const char * const texts[] = { "1", "1\n", "1", "1\n" };
	struct waiter w;
	struct snapshot before;
	unsigned int revents;
	size_t i;
	int fd;

	/* A subscriber loaded now is told at once, and never again. */
	load_subscriber();
	take_snapshot(&before);
	ASSERT_EQ(0, waiter_open(&w, false));

	for (i = 0; i < ARRAY_SIZE(texts); i++)
		expect_write(_metadata, texts[i], strlen(texts[i]), 0, 0,
			     "1 again after boot ended");

	/* Again on one descriptor, back at offset 0 each time. */
	fd = open(USER_BOOTED_SYSCTL_PATH, O_WRONLY | O_CLOEXEC);
	ASSERT_LE(0, fd);
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(0, lseek(fd, 0, SEEK_SET));
		EXPECT_EQ(2, write(fd, "1\n", 2)) TH_LOG("%s", strerror(errno));
	}
	close(fd);

	EXPECT_EQ(0, wait_event(&w, QUIET_MS, &revents))
		TH_LOG("a rewrite woke a waiter (%#x)", revents);
	waiter_close(&w);
	expect_unchanged(_metadata, &before, "rewriting 1");
}

TEST_F(booted, writing_0_is_refused_with_einval)
{
	expect_write(_metadata, "0", 1, 0, EINVAL, "0 after boot ended");
	expect_write(_metadata, "0\n", 2, 0, EINVAL, "0\\n after boot ended");
	EXPECT_EQ(USER_BOOTED_YES, read_state());
}

TEST_F(booted, invalid_writes_are_refused_with_einval)
{
	check_bad_writes(_metadata);
}

TEST_F(booted, oversized_writes_are_refused_with_einval)
{
	check_oversized_writes(_metadata);
}

TEST_F(booted, writes_at_nonzero_offsets_are_refused_with_einval)
{
	check_offset_writes(_metadata);
}

TEST_F(booted, partial_writes_are_refused)
{
	check_partial_writes(_metadata);
}

TEST_F_TIMEOUT(booted, random_writes_leave_boot_ended, 300)
{
	check_random_writes(_metadata, false);
}

TEST_F(booted, nobody_gets_eacces)
{
	check_privilege(_metadata, AS_NOBODY);
}

TEST_F(booted, root_without_cap_sys_admin_gets_eperm)
{
	check_privilege(_metadata, AS_ROOT_WITHOUT_CAP_SYS_ADMIN);
}

TEST_F(booted, root_in_user_namespace_is_refused)
{
	check_privilege(_metadata, AS_ROOT_IN_USERNS);
}

TEST_F(booted, child_pid_namespace_gets_eperm)
{
	check_privilege(_metadata, AS_ROOT_IN_PIDNS);
}

/* ------------------------------------------------------------------ */
/* boot_path: how this boot ended                                      */
/* ------------------------------------------------------------------ */

FIXTURE(boot_path) {
	long subscribers;
};

FIXTURE_SETUP(boot_path)
{
	if (!can_run(_metadata, have_user_booted(), NO_SYSCTL))
		SKIP(return, "%s", NO_SYSCTL);
	self->subscribers = load_subscriber();
	if (!can_run(_metadata, self->subscribers > 0, NO_SUBSCRIBER))
		SKIP(return, "%s", NO_SUBSCRIBER);
}

FIXTURE_TEARDOWN(boot_path)
{
}

/* Boot ended at init launch, in kernel_init() (pid 1), for @reason. */
static void expect_ended_at_launch(struct __test_metadata *_metadata,
				   long subscribers, enum reason reason)
{
	struct boot_end_line e;

	EXPECT_EQ(USER_BOOTED_YES, read_state());
	/* Loaded after the end of boot: told at once, with its reason. */
	expect_told_once(_metadata, subscribers, reason);
	EXPECT_EQ(0, log_count(LOG_TIMEOUT_WARNING));
	/* Init not asked to report: nothing new in the log (pr_debug at most). */
	if (!cmdline_expects_report()) {
		EXPECT_EQ(0, log_count(LOG_BOOT_END))
			TH_LOG("a boot without user_booted_reported logs the end of boot");
		return;
	}
	expect_boot_end_line(_metadata, reason, 1, &e);
	EXPECT_EQ(0UL, e.secs) TH_LOG("ended %lu.%03lu s after init launch", e.secs, e.msecs);
}

TEST_F(boot_path, unreported_boot_ends_at_init_launch)
{
	const char *why = "needs a boot without user_booted_reported, sysctl.kernel.user_booted";
	const char *why_cfg = "boot has not ended: CONFIG_USER_BOOTED_REPORTED=y?";

	if (!can_run(_metadata, !cmdline_expects_report() && !cmdline_sets_user_booted(),
		     why))
		SKIP(return, "%s", why);
	if (!can_run(_metadata, read_state() == USER_BOOTED_YES, why_cfg))
		SKIP(return, "%s", why_cfg);
	expect_ended_at_launch(_metadata, self->subscribers, REASON_UNREPORTED);
}

TEST_F(boot_path, cmdline_sysctl_ends_boot_at_init_launch)
{
	const char *why = "needs a boot with sysctl.kernel.user_booted=1";

	if (!can_run(_metadata, cmdline_sets_user_booted(), why))
		SKIP(return, "%s", why);
	expect_ended_at_launch(_metadata, self->subscribers, REASON_CMDLINE);
}

TEST_HARNESS_MAIN
