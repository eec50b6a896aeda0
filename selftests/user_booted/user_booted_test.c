// SPDX-License-Identifier: GPL-2.0
/*
 * kernel.user_booted and the read-only kernel.user_booted_timeout.  booting.*
 * runs while init has not yet reported (user_booted_reported) and ENDS that
 * userspace boot by writing 1: on a machine still booting, run it only in a
 * test VM or filter with -f booted.  booted.* runs after the report,
 * boot_path.* on a boot without the parameter; each skips elsewhere.
 */

#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <sys/klog.h>
#include <sys/syscall.h>
#include <linux/capability.h>

#include "../kselftest_harness.h"

#define BOOTED_PATH	"/proc/sys/kernel/user_booted"
#define TIMEOUT_PATH	"/proc/sys/kernel/user_booted_timeout"
#define LOG_END		"user_booted: userspace boot ended ("
#define OPEN_ERR	0x80	/* try_write(): open() failed */

enum writer { ROOT, NOBODY, NO_SYS_ADMIN, PIDNS_INIT, NR_WRITERS };

static long read_long(const char *path)
{
	FILE *f = fopen(path, "re");
	long val = -1;

	if (f && fscanf(f, "%ld", &val) != 1)
		val = -1;
	if (f)
		fclose(f);
	return val;
}

/* Write @len bytes on a fresh fd: 0, or the errno of open() (| OPEN_ERR) or write(). */
static int try_write(const char *path, const void *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), err = 0;

	if (fd < 0)
		return OPEN_ERR | errno;
	if (write(fd, buf, len) < 0)
		err = errno;
	close(fd);
	return err;
}

/* Occurrences of @needle in the kernel log; -1 if it cannot be read. */
static int log_count(const char *needle)
{
	int size = klogctl(10, NULL, 0), n = 0;	/* SYSLOG_ACTION_SIZE_BUFFER */
	char *log = calloc(1, size + 1), *p = log;

	if (size <= 0 || !log || klogctl(3, log, size) < 0)	/* SYSLOG_ACTION_READ_ALL */
		n = -1;
	for (; n >= 0 && (p = strstr(p, needle)); p++)
		n++;
	free(log);
	return n;
}

/* try_write() of "1" to @path in a child that became @who; 0xff if it could not. */
static int write_as(enum writer who, const char *path)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct caps[2] = {};
	pid_t pid = fork();
	int status, err = 0;

	if (pid == 0) {
		if (who == NOBODY)
			err = setresgid(65534, 65534, 65534) || setresuid(65534, 65534, 65534);
		if (who == NO_SYS_ADMIN) {
			err = syscall(SYS_capget, &hdr, caps);
			caps[0].effective &= ~CAP_TO_MASK(CAP_SYS_ADMIN);
			err = err || syscall(SYS_capset, &hdr, caps);
		}
		/* The first child forked into a new PID namespace is its init. */
		if (who == PIDNS_INIT)
			_exit(unshare(CLONE_NEWPID) ? 0xff : write_as(ROOT, path));
		_exit(err ? 0xff : try_write(path, "1\n", 2));
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/*
 * Refused writes change nothing: anything but "1" (EINVAL); nobody, by the
 * 0644 mode (EACCES at open); root without CAP_SYS_ADMIN and a PID namespace's
 * init (EPERM at write).  The timeout is fixed at boot (0444): EACCES for all.
 */
static void check_refused(struct __test_metadata *_metadata)
{
	static const char * const bad[] = { "0", "0\n", "2", "-1", "11", "1x", "x", "\n" };
	long booted = read_long(BOOTED_PATH), timeout = read_long(TIMEOUT_PATH);
	int ends = log_count(LOG_END), who;
	char *big = calloc(1, 1 << 20);
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		EXPECT_EQ(EINVAL, try_write(BOOTED_PATH, bad[i], strlen(bad[i])))
			TH_LOG("bad[%zu]", i);
	ASSERT_NE(NULL, big);
	big[0] = '1';	/* then a megabyte of NULs */
	EXPECT_EQ(EINVAL, try_write(BOOTED_PATH, big, 1 << 20));
	free(big);
	EXPECT_EQ(OPEN_ERR | EACCES, write_as(NOBODY, BOOTED_PATH));
	EXPECT_EQ(EPERM, write_as(NO_SYS_ADMIN, BOOTED_PATH));
	EXPECT_EQ(EPERM, write_as(PIDNS_INIT, BOOTED_PATH));
	EXPECT_TRUE(timeout >= 1 && timeout <= 86400) TH_LOG("timeout %ld", timeout);
	for (who = ROOT; who < NR_WRITERS; who++)
		EXPECT_EQ(OPEN_ERR | EACCES, write_as(who, TIMEOUT_PATH)) TH_LOG("writer %d", who);
	EXPECT_EQ(booted, read_long(BOOTED_PATH));
	EXPECT_EQ(timeout, read_long(TIMEOUT_PATH));
	EXPECT_EQ(ends, log_count(LOG_END));
}

/* Skip unless run as root and kernel.user_booted reads @want (-1: any value). */
static void skip_unless(struct __test_metadata *_metadata, long want)
{
	long booted = read_long(BOOTED_PATH);

	if (booted < 0)
		SKIP(return, "no %s (CONFIG_USER_BOOTED)", BOOTED_PATH);
	if (geteuid())
		SKIP(return, "needs root");
	if (want >= 0 && booted != want)
		SKIP(return, "%s", want ? "userspace still boots" : "userspace boot has ended");
}

FIXTURE(booting) {};
FIXTURE_SETUP(booting) { skip_unless(_metadata, 0); }
FIXTURE_TEARDOWN(booting) {}

TEST_F(booting, writes_are_refused) { check_refused(_metadata); }

/* Last of booting.*, so that booted.* can follow in the same run. */
TEST_F(booting, report_wakes_poll_and_ends_boot_once)
{
	struct pollfd pfd = { .events = POLLPRI };
	char buf[8];
	int status;
	pid_t pid;

	/* As a waiter would: open, read, and poll only if it read 0. */
	pfd.fd = open(BOOTED_PATH, O_RDONLY | O_CLOEXEC);
	ASSERT_EQ(2, read(pfd.fd, buf, sizeof(buf)));
	ASSERT_EQ(0, memcmp(buf, "0\n", 2));
	EXPECT_EQ(0, poll(&pfd, 1, 300));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		usleep(200000);	/* let the parent block in poll() */
		/* 1 is read only once every subscriber was told: before the write returns. */
		_exit(try_write(BOOTED_PATH, "1\n", 2) || read_long(BOOTED_PATH) != 1);
	}
	EXPECT_EQ(1, poll(&pfd, 1, 10000));
	EXPECT_EQ(POLLPRI | POLLERR, pfd.revents);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, status);
	EXPECT_EQ(0, try_write(BOOTED_PATH, "1", 1));	/* again: a no-op */
	EXPECT_EQ(1, log_count(LOG_END "reported) "));
	EXPECT_EQ(1, log_count(LOG_END));
	close(pfd.fd);
}

FIXTURE(booted) {};
FIXTURE_SETUP(booted) { skip_unless(_metadata, 1); }
FIXTURE_TEARDOWN(booted) {}

TEST_F(booted, rewriting_1_is_a_no_op_and_other_writes_are_refused)
{
	int ends = log_count(LOG_END);

	EXPECT_EQ(0, try_write(BOOTED_PATH, "1\n", 2));
	EXPECT_EQ(0, try_write(BOOTED_PATH, "1", 1));
	EXPECT_EQ(ends, log_count(LOG_END));
	check_refused(_metadata);
}

/* Whether /proc/cmdline names user_booted_reported in any form. */
static bool cmdline_names_reported(void)
{
	char buf[4096] = "";
	FILE *f = fopen("/proc/cmdline", "re");

	if (f && !fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	if (f)
		fclose(f);
	return strstr(buf, "user_booted_reported");
}

FIXTURE(boot_path) {};
FIXTURE_SETUP(boot_path) { skip_unless(_metadata, -1); }
FIXTURE_TEARDOWN(boot_path) {}

/* Without the parameter: boot ended at init launch, nothing logged at info level. */
TEST_F(boot_path, unreported_boot_ended_at_init_launch)
{
	if (cmdline_names_reported())
		SKIP(return, "user_booted_reported is on the command line");
	if (log_count(LOG_END))
		SKIP(return, "CONFIG_USER_BOOTED_REPORTED=y: init was to report");
	EXPECT_EQ(1, read_long(BOOTED_PATH));
}

TEST_HARNESS_MAIN
