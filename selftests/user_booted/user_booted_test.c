// SPDX-License-Identifier: GPL-2.0
/*
 * kernel.user_booted and kernel.user_booted_timeout from userspace.  The
 * state goes from 0 to 1 once per boot, so the cases run in the order a boot
 * goes through them: booting.* while userspace boots (user_booted_reported,
 * not yet reported; the last one reports), booted.* after, and boot_path.*
 * on a boot without user_booted_reported.  A case that does not fit this
 * boot skips.  The end-of-boot matrix (timeout, sleep, races, exactly-once
 * delivery) is the KUnit suite's, kernel/user_booted_test.c.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <sched.h>
#include <sys/klog.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/capability.h>
#include <linux/user_booted.h>

#include "../kselftest_harness.h"

#define TIMEOUT_PATH	"/proc/sys/kernel/user_booted_timeout"
#define LOG_END		"user_booted: userspace boot ended ("
#define NO_SYSCTL	"no " USER_BOOTED_SYSCTL_PATH " (CONFIG_USER_BOOTED)"

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

/* Write @len bytes on a fresh fd: 0, the errno, or -1 if short. */
static int try_write(const char *path, const void *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), err;
	ssize_t ret;

	if (fd < 0)
		return errno;
	ret = write(fd, buf, len);
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

/* Fail with EINVAL and change nothing, as for any integer sysctl. */
static void check_bad_input(struct __test_metadata *_metadata)
{
	static const char * const bad[] = {
		"0", "0\n", "2", "-1", "1x", "11", "1.0", "y", "\n", "\xef\xbc\x91",
		"000000000000000000001",	/* 1, too long for the parser */
	};
	int st = state(), ends = log_count(LOG_END);
	char *big = calloc(1, 1 << 20);
	size_t i;

	ASSERT_NE(NULL, big);
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		EXPECT_EQ(EINVAL, try_write(USER_BOOTED_SYSCTL_PATH, bad[i], strlen(bad[i])))
			TH_LOG("bad write #%zu", i);
	big[0] = '1';			/* "1" and a megabyte of NULs */
	EXPECT_EQ(EINVAL, try_write(USER_BOOTED_SYSCTL_PATH, big, 1 << 20));
	free(big);
	EXPECT_EQ(st, state());
	EXPECT_EQ(ends, log_count(LOG_END));
}

/* Become @who in a child: 0 nobody, 1 root without CAP_SYS_ADMIN, 2 PID-ns init. */
static int become(int who)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[2];
	pid_t pid;
	int st;

	if (who == 0)
		return setresgid(65534, 65534, 65534) || setresuid(65534, 65534, 65534);
	if (who == 1) {
		if (syscall(SYS_capget, &hdr, d))
			return -1;
		d[0].effective &= ~CAP_TO_MASK(CAP_SYS_ADMIN);
		return syscall(SYS_capset, &hdr, d);
	}
	if (unshare(CLONE_NEWPID))
		return -1;
	pid = fork();
	if (pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st))
		_exit(WEXITSTATUS(st));
	return pid;			/* 0 in the child: its PID 1 */
}

/*
 * kernel.user_booted: nobody gets EACCES at open (mode 0644), the others
 * EPERM at write; the read-only timeout is EACCES at open for all.
 */
static void check_unprivileged(struct __test_metadata *_metadata)
{
	static const char * const paths[] = { USER_BOOTED_SYSCTL_PATH, TIMEOUT_PATH };
	long timeout = read_long(TIMEOUT_PATH);
	int st = state(), who, p, r;
	pid_t pid;

	for (who = 0; who < 3; who++)
		for (p = 0; p < 2; p++) {
			pid = fork();
			if (pid == 0) {
				if (become(who))
					_exit(0xff);
				r = open(paths[p], O_WRONLY | O_CLOEXEC);
				_exit(r < 0 ? errno << 4 : write(r, "1\n", 2) < 0 ? errno : 0);
			}
			ASSERT_EQ(pid, waitpid(pid, &r, 0));
			EXPECT_EQ(who == 0 || p ? EACCES << 4 : EPERM, WEXITSTATUS(r))
				TH_LOG("writer #%d to %s: %#x", who, paths[p], WEXITSTATUS(r));
		}
	EXPECT_EQ(st, state());
	EXPECT_EQ(timeout, read_long(TIMEOUT_PATH));
}

/* A boot parameter: root's write fails with EACCES (0444), changes nothing. */
static void check_timeout_fixed(struct __test_metadata *_metadata)
{
	long timeout = read_long(TIMEOUT_PATH);

	ASSERT_LT(0, timeout);
	EXPECT_EQ(EACCES, try_write(TIMEOUT_PATH, "1\n", 2));
	EXPECT_EQ(EACCES, try_write(TIMEOUT_PATH, "86400", 5));
	EXPECT_EQ(EACCES, try_write(TIMEOUT_PATH, "0", 1));
	EXPECT_EQ(timeout, read_long(TIMEOUT_PATH));
}

FIXTURE(booting) {};
FIXTURE_SETUP(booting)
{
	if (state() < 0)
		SKIP(return, NO_SYSCTL);
	if (state() != 0)
		SKIP(return, "userspace boot has ended");
}

FIXTURE_TEARDOWN(booting) {}

TEST_F(booting, bad_input_is_refused) { check_bad_input(_metadata); }
TEST_F(booting, unprivileged_writes_are_refused) { check_unprivileged(_metadata); }
TEST_F(booting, timeout_is_fixed) { check_timeout_fixed(_metadata); }

/* Last of booting.*: poll waits while booting, and the report wakes it. */
TEST_F(booting, report_wakes_poll_and_ends_boot_once)
{
	struct pollfd pfd = { .events = POLLPRI };
	char buf[8];

	pfd.fd = open(USER_BOOTED_SYSCTL_PATH, O_RDONLY | O_CLOEXEC);
	ASSERT_EQ(2, read(pfd.fd, buf, sizeof(buf)));
	EXPECT_EQ(0, memcmp(buf, "0\n", 2));
	EXPECT_EQ(0, poll(&pfd, 1, 300));
	ASSERT_EQ(0, log_count(LOG_END));
	if (fork() == 0) {
		usleep(200000);
		_exit(try_write(USER_BOOTED_SYSCTL_PATH, USER_BOOTED_WRITE,
				strlen(USER_BOOTED_WRITE)));
	}
	EXPECT_EQ(1, poll(&pfd, 1, 30000));
	EXPECT_TRUE(pfd.revents & POLLPRI);
	EXPECT_EQ(2, pread(pfd.fd, buf, sizeof(buf), 0));
	EXPECT_EQ('1', buf[0]);
	wait(NULL);
	EXPECT_EQ(0, try_write(USER_BOOTED_SYSCTL_PATH, "1", 1));	/* again: no-op */
	EXPECT_EQ(1, log_count(LOG_END "reported) "));
	close(pfd.fd);
}

FIXTURE(booted) {};
FIXTURE_SETUP(booted)
{
	if (state() < 0)
		SKIP(return, NO_SYSCTL);
	if (state() != 1)
		SKIP(return, "userspace still boots");
}

FIXTURE_TEARDOWN(booted) {}

TEST_F(booted, rewriting_1_is_a_no_op)
{
	int ends = log_count(LOG_END);

	EXPECT_EQ(0, try_write(USER_BOOTED_SYSCTL_PATH, "1\n", 2));
	EXPECT_EQ(0, try_write(USER_BOOTED_SYSCTL_PATH, " 01", 3));
	EXPECT_EQ(1, state());
	EXPECT_EQ(ends, log_count(LOG_END));
}

TEST_F(booted, bad_input_is_refused) { check_bad_input(_metadata); }
TEST_F(booted, unprivileged_writes_are_refused) { check_unprivileged(_metadata); }
TEST_F(booted, timeout_is_fixed) { check_timeout_fixed(_metadata); }

FIXTURE(boot_path) {};
FIXTURE_SETUP(boot_path) {}
FIXTURE_TEARDOWN(boot_path) {}

/*
 * Was init to report on this boot?  The last user_booted_reported[=bool] on
 * the command line, else CONFIG_USER_BOOTED_REPORTED from the kernel's config
 * (/proc/config.gz or /boot/config-*); -1 if neither tells.
 */
static int report_expected(void)
{
	const char *name = "user_booted_reported";
	char line[4096] = "", *tok, *save, *v;
	int expected = -1, seen = 0;
	FILE *f = fopen("/proc/cmdline", "re");

	if (f && fgets(line, sizeof(line), f))
		line[strcspn(line, "\n")] = '\0';
	for (tok = strtok_r(line, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		if (strncmp(tok, name, strlen(name)))
			continue;
		v = tok + strlen(name);
		if (!*v)
			expected = 1;
		else if (*v++ != '=' || !*v)
			continue;	/* another parameter; a bad value is ignored */
		else if (strchr("1yYtT", *v) || !strcasecmp(v, "on"))
			expected = 1;
		else if (strchr("0nNfF", *v) || !strcasecmp(v, "off"))
			expected = 0;
	}
	if (f)
		fclose(f);
	if (expected >= 0)
		return expected;
	f = popen("{ zcat /proc/config.gz || cat /boot/config-$(uname -r); } 2>/dev/null", "re");
	while (f && fgets(line, sizeof(line), f)) {
		seen = 1;
		if (!strcmp(line, "CONFIG_USER_BOOTED_REPORTED=y\n"))
			expected = 1;
	}
	if (f)
		pclose(f);
	return expected > 0 ? 1 : seen ? 0 : -1;
}

/* Without user_booted_reported boot ends at init launch, logging nothing. */
TEST_F(boot_path, unreported_boot_ends_at_init_launch)
{
	int expected = report_expected();

	if (state() < 0)
		SKIP(return, NO_SYSCTL);
	if (expected)
		SKIP(return, "%s", expected > 0 ? "init is to report on this boot" :
		     "cannot tell whether init is to report: no kernel config in /proc or /boot");
	EXPECT_EQ(1, state());
	EXPECT_EQ(0, log_count(LOG_END));
}

TEST_HARNESS_MAIN
