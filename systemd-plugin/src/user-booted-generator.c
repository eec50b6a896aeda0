/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * user-booted-generator - pull user-booted.target into this boot when the
 * kernel waits for a report of its end (kernel.user_booted), see
 * user-booted-generator(8) and systemd.generator(7).
 *
 * The per-boot decision only, the one no unit condition can express (does
 * the sysctl read 0?): user-booted.service is a normal unit, wanted by
 * user-booted.target once enabled, so enabling, disabling and masking it
 * (for one boot: systemd.mask=user-booted.service) stay the administrator's.  On the boots that need no report the generator writes
 * nothing at all, and user-booted.target, so the service too, stays out of
 * the boot.
 *
 * Like every generator it runs before any unit is loaded: it only reads a few
 * files, never blocks, talks to no other process, logs to /dev/kmsg and writes
 * into the directory it is given.  It exits 0 whenever it decides to do
 * nothing, so a kernel or system without the feature boots as before.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <syslog.h>
#include <unistd.h>

#include <linux/user_booted.h>

#ifndef USER_BOOTED_UNIT_DIR
#error "USER_BOOTED_UNIT_DIR must be set by the build"
#endif

#define TARGET		"user-booted.target"

/*
 * The targets a boot ends in, as systemd-update-utmp-runlevel.service is hooked
 * (plus emergency.target): default.target (or whatever it is an alias of)
 * and those the runlevel words on the kernel command line select ("1",
 * "3", "5", "single", "emergency", ...); basic.target for a target of the
 * system's own named by systemd.unit=, which is ordered after it.
 * user-booted.service is ordered after all of these but basic.target.
 */
static const char *const boot_targets[] = {
	"default.target", "multi-user.target", "graphical.target",
	"rescue.target", "emergency.target", "basic.target",
};

static const char *root = "";	/* prefix for every absolute path read */
static int kmsg_fd = -1;
static int max_level = LOG_INFO;

static const char *rooted(char buf[PATH_MAX], const char *path)
{
	if (snprintf(buf, PATH_MAX, "%s%s", root, path) >= PATH_MAX)
		return "/nonexistent";	/* only a test root can be that long */
	return buf;
}

/* buf = dir/name; -ENAMETOOLONG if it does not fit. */
static int path_join(char buf[PATH_MAX], const char *dir, const char *name)
{
	int n = snprintf(buf, PATH_MAX, "%s/%s", dir, name);

	return n < 0 || n >= PATH_MAX ? -ENAMETOOLONG : 0;
}

static void log_msg(int level, const char *fmt, ...)
{
	char msg[512], line[600];
	va_list ap;
	int n;

	if (level > max_level)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);

	if (kmsg_fd < 0) {
		fprintf(stderr, "user-booted-generator: %s\n", msg);
		return;
	}
	/* One write() is one kmsg record; same prefix systemd's generators use. */
	n = snprintf(line, sizeof(line), "<%d>user-booted-generator[%d]: %s\n",
		     LOG_DAEMON | level, (int)getpid(), msg);
	if (n > (int)sizeof(line) - 1)
		n = sizeof(line) - 1;
	if (write(kmsg_fd, line, n) < 0) {
		/* Nowhere better to log to. */
	}
}

/* systemd's log_level_from_string(): a name or a number 0-7; -EINVAL else. */
static int parse_log_level(const char *s)
{
	static const char *const names[] = {
		"emerg", "alert", "crit", "err", "warning", "notice", "info", "debug",
	};

	for (int i = 0; i < (int)(sizeof(names) / sizeof(names[0])); i++)
		if (strcmp(s, names[i]) == 0)
			return i;
	if (s[0] >= '0' && s[0] <= '7' && s[1] == '\0')
		return s[0] - '0';
	return -EINVAL;
}

static int read_file(const char *path, char *buf, size_t size)
{
	char rbuf[PATH_MAX];
	ssize_t n;
	int fd;

	fd = open(rooted(rbuf, path), O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	if (n < 0)
		n = -errno;
	close(fd);
	if (n < 0)
		return n;
	buf[n] = '\0';
	return 0;
}

static bool exists(const char *path)
{
	char rbuf[PATH_MAX];

	return access(rooted(rbuf, path), F_OK) == 0;
}

/*
 * Returns USER_BOOTED_NO/YES, or -errno (-ENOENT: the kernel lacks it).
 * USER_BOOTED_NO is the robust sign that the kernel waits for a report, be it
 * for user_booted_reported on the command line or CONFIG_USER_BOOTED_REPORTED.
 */
static int read_user_booted(void)
{
	char buf[32], *end;
	long v;
	int r;

	r = read_file(USER_BOOTED_SYSCTL_PATH, buf, sizeof(buf));
	if (r < 0)
		return r;
	errno = 0;
	v = strtol(buf, &end, 10);
	if (errno || end == buf || (*end && *end != '\n'))
		return -EINVAL;
	return v == USER_BOOTED_NO ? USER_BOOTED_NO : USER_BOOTED_YES;
}

/*
 * systemd >= 251 tells its generators whether they run in the initrd and
 * what virtualization it detected (a user namespace counts as a container);
 * older ones leave the flag files to look at.
 */
static bool in_initrd(void)
{
	const char *e = getenv("SYSTEMD_IN_INITRD");

	if (e)
		return strcmp(e, "1") == 0;
	return exists("/etc/initrd-release");
}

static bool in_container(void)
{
	const char *e = getenv("SYSTEMD_VIRTUALIZATION");

	if (e)
		return strncmp(e, "container:", strlen("container:")) == 0;
	return exists("/run/systemd/container");
}

/*
 * The log level as systemd's own generators take it: systemd.log_level= or
 * "debug" on the kernel command line (in the initrd rd.systemd.log_level=
 * too), then $SYSTEMD_LOG_LEVEL.
 */
static void set_log_level(void)
{
	static char buf[4096];
	const char *e, *v;
	char *w, *save;
	int r;

	if (read_file("/proc/cmdline", buf, sizeof(buf)) == 0)
		for (w = strtok_r(buf, " \t\n", &save); w; w = strtok_r(NULL, " \t\n", &save)) {
			if (strncmp(w, "rd.", 3) == 0 && in_initrd())
				w += 3;
			v = strncmp(w, "systemd.log_level=", 18) == 0 ? w + 18 : NULL;
			if (strcmp(w, "debug") == 0)
				max_level = LOG_DEBUG;
			else if (v && (r = parse_log_level(v)) >= 0)
				max_level = r;
		}
	e = getenv("SYSTEMD_LOG_LEVEL");
	if (e && parse_log_level(e) >= 0)
		max_level = parse_log_level(e);
}

/* dir/unit.wants/TARGET -> the installed TARGET, replacing whatever was there. */
static int want_target(const char *dir, const char *unit)
{
	static const char target[] = USER_BOOTED_UNIT_DIR "/" TARGET;
	char wants[PATH_MAX], link[PATH_MAX], old[PATH_MAX];
	ssize_t n;

	if (snprintf(wants, sizeof(wants), "%s/%s.wants", dir, unit) >= (int)sizeof(wants) ||
	    path_join(link, wants, TARGET) < 0)
		return -ENAMETOOLONG;
	if (mkdir(wants, 0755) < 0 && errno != EEXIST)
		return -errno;

	n = readlink(link, old, sizeof(old) - 1);
	if (n >= 0) {
		old[n] = '\0';
		if (strcmp(old, target) == 0)
			return 0;
	}
	if (unlink(link) < 0 && errno != ENOENT)
		return -errno;
	return symlink(target, link) < 0 ? -errno : 0;
}

/* Why this boot needs no report, or NULL if it does. */
static const char *nothing_to_report(void)
{
	int r = read_user_booted();

	if (r == -ENOENT)
		return "the kernel has no " USER_BOOTED_SYSCTL_PATH;
	if (r < 0) {
		log_msg(LOG_WARNING, "Cannot read %s (%s): not reporting this boot",
			USER_BOOTED_SYSCTL_PATH, strerror(-r));
		return "the sysctl cannot be read";
	}
	if (r == USER_BOOTED_YES)
		return "the kernel is not waiting for a report (kernel.user_booted reads 1)";
	if (in_initrd())
		return "this is the initrd, its startup is not the end of boot";
	if (in_container())
		return "this is a container, boot is the host's to end";
	return NULL;
}

int main(int argc, char *argv[])
{
	char rbuf[PATH_MAX];
	const char *why;
	int r = 0;

#ifdef USER_BOOTED_TEST
	/* Test build only: read the system from a fake tree (tests/run-host-tests.sh). */
	if (getenv("USER_BOOTED_ROOT"))
		root = getenv("USER_BOOTED_ROOT");
#endif
	kmsg_fd = open(rooted(rbuf, "/dev/kmsg"), O_WRONLY | O_APPEND | O_CLOEXEC | O_NOCTTY);
	set_log_level();

	if (argc < 2 || argc > 4) {
		log_msg(LOG_ERR, "Expected 1 to 3 directory arguments, got %d", argc - 1);
		return EXIT_FAILURE;
	}
	why = nothing_to_report();
	if (why) {
		log_msg(LOG_DEBUG, "Nothing to report: %s", why);
		return EXIT_SUCCESS;
	}
	/* argv[1]: the normal-priority directory. */
	for (size_t i = 0; r == 0 && i < sizeof(boot_targets) / sizeof(boot_targets[0]); i++)
		r = want_target(argv[1], boot_targets[i]);
	if (r < 0) {
		log_msg(LOG_ERR, "Failed to add %s to the boot targets in %s: %s", TARGET, argv[1], strerror(-r));
		return EXIT_FAILURE;
	}
	log_msg(LOG_DEBUG, "The kernel waits for a report: added %s to the boot targets", TARGET);
	return EXIT_SUCCESS;
}
