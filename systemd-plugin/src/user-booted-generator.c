/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * user-booted-generator - enable user-booted.service when this boot's end is
 * to be reported to the kernel (kernel.user_booted), see
 * user-booted-generator(8) and systemd.generator(7).
 *
 * Like every generator it runs before any unit is loaded: it only reads a few
 * files, never blocks, talks to no other process, logs to /dev/kmsg and writes
 * into the directory it is given.  It always exits 0 when it decides to do
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
#include <sys/sysmacros.h>
#include <syslog.h>
#include <unistd.h>

#include <linux/user_booted.h>

#ifndef USER_BOOTED_NOTIFY_PATH
#error "USER_BOOTED_NOTIFY_PATH must be set by the build"
#endif

#define UNIT		"user-booted.service"
/* Where systemd.wants= and most services hook into a normal boot. */
#define WANTED_BY	"default.target"
#define CMDLINE_SWITCH	"user_booted.auto"

static const char *root = "";	/* prefix for every absolute path read */
static int kmsg_fd = -1;

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

/* Returns USER_BOOTED_NO/YES, or -errno (-ENOENT: the kernel lacks it). */
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

/* $SYSTEMD_IN_INITRD is set for generators by systemd >= 251. */
static bool in_initrd(void)
{
	const char *e = getenv("SYSTEMD_IN_INITRD");

	if (e)
		return strcmp(e, "1") == 0;
	return exists("/etc/initrd-release");
}

/* True unless uid_map is exactly the identity map of the initial user namespace. */
static bool in_user_namespace(void)
{
	unsigned int inside, outside, count;
	char buf[256];
	int end = 0;

	if (read_file("/proc/self/uid_map", buf, sizeof(buf)) < 0)
		return false;	/* no user namespaces in this kernel */
	if (sscanf(buf, "%u %u %u %n", &inside, &outside, &count, &end) != 3)
		return true;
	return !(inside == 0 && outside == 0 && count == UINT_MAX && buf[end] == '\0');
}

/*
 * The same signals systemd uses: $SYSTEMD_VIRTUALIZATION (systemd >= 251),
 * $container and /run/systemd/container from the container manager, and a
 * user namespace (the kernel would refuse the write there anyway).
 */
static bool in_container(void)
{
	const char *e;

	e = getenv("SYSTEMD_VIRTUALIZATION");
	if (e && strncmp(e, "container:", strlen("container:")) == 0)
		return true;
	e = getenv("container");
	if (e && *e)
		return true;
	return exists("/run/systemd/container") || in_user_namespace();
}

/* systemd's parse_boolean(). */
static int parse_boolean(const char *v)
{
	static const char *const yes[] = { "1", "yes", "y", "true", "t", "on" };
	static const char *const no[] = { "0", "no", "n", "false", "f", "off" };

	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		if (strcasecmp(v, yes[i]) == 0)
			return 1;
		if (strcasecmp(v, no[i]) == 0)
			return 0;
	}
	return -EINVAL;
}

/* The kernel treats '-' and '_' in parameter names as the same character. */
static bool key_eq(const char *a, size_t alen, const char *b)
{
	if (alen != strlen(b))
		return false;
	for (size_t i = 0; i < alen; i++) {
		char x = a[i] == '-' ? '_' : a[i];
		char y = b[i] == '-' ? '_' : b[i];

		if (x != y)
			return false;
	}
	return true;
}

/*
 * Whether CMDLINE_SWITCH leaves us enabled: absent or true means yes, the
 * last occurrence wins, a bad value is ignored with a warning.  Words are
 * split on blanks outside double quotes, as the kernel does.
 */
static bool cmdline_enabled(void)
{
	static char buf[65536];
	bool enabled = true, quoted = false;
	char *p, *word;

	if (read_file("/proc/cmdline", buf, sizeof(buf)) < 0)
		return true;

	for (p = buf; *p; ) {
		char *eq, *out;
		int r;

		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		if (!*p)
			break;
		/* Copy the word in place, dropping the quotes. */
		for (word = out = p; *p; p++) {
			if (*p == '"') {
				quoted = !quoted;
				continue;
			}
			if (!quoted && (*p == ' ' || *p == '\t' || *p == '\n'))
				break;
			*out++ = *p;
		}
		if (*p)
			p++;
		*out = '\0';

		eq = strchr(word, '=');
		if (!key_eq(word, eq ? (size_t)(eq - word) : strlen(word), CMDLINE_SWITCH))
			continue;
		r = eq ? parse_boolean(eq + 1) : 1;
		if (r < 0)
			log_msg(LOG_WARNING, "Ignoring invalid %s", word);
		else
			enabled = r;
	}
	return enabled;
}

/* Masked the systemd way: a /dev/null symlink or an empty file. */
static bool unit_masked(void)
{
	static const char *const dirs[] = { "/etc/systemd/system", "/run/systemd/system" };
	char path[PATH_MAX], rbuf[PATH_MAX];
	struct stat st;

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		if (path_join(path, dirs[i], UNIT) < 0 || stat(rooted(rbuf, path), &st) < 0)
			continue;
		if ((S_ISCHR(st.st_mode) && st.st_rdev == makedev(1, 3)) ||
		    (S_ISREG(st.st_mode) && st.st_size == 0))
			return true;
	}
	return false;
}

static const char unit_text[] =
	"# Automatically generated by user-booted-generator, see user-booted-generator(8).\n"
	"\n"
	"[Unit]\n"
	"Description=Report the end of userspace boot to the kernel\n"
	"Documentation=man:user-booted-generator(8) man:user-booted-notify(8)\n"
	"# It must not hold up the startup it waits for: Type=simple ends its start\n"
	"# job as soon as the helper is forked, and nothing is ordered after it.\n"
	"# Starting after default.target spares it (and PID 1) the stream of\n"
	"# signals the private bus carries during boot; a StartupFinished it\n"
	"# missed shows in FinishTimestampMonotonic. No default dependencies:\n"
	"# default.target must not be ordered after it in turn.\n"
	"DefaultDependencies=no\n"
	"After=" WANTED_BY "\n"
	"Conflicts=shutdown.target\n"
	"Before=shutdown.target\n"
	"IgnoreOnIsolate=yes\n"
	"\n"
	"[Service]\n"
	"Type=simple\n"
	"ExecStart=" USER_BOOTED_NOTIFY_PATH "\n"
	"NoNewPrivileges=yes\n"
	"# Writing kernel.user_booted needs CAP_SYS_ADMIN, and nothing else.\n"
	"CapabilityBoundingSet=CAP_SYS_ADMIN\n";

static int write_unit(const char *dir)
{
	char path[PATH_MAX];
	size_t len = strlen(unit_text);
	ssize_t n;
	int fd;

	if (path_join(path, dir, UNIT) < 0)
		return -ENAMETOOLONG;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0)
		return -errno;
	n = write(fd, unit_text, len);
	if (n < 0)
		n = -errno;
	if (close(fd) < 0 && n >= 0)
		n = -errno;
	if (n < 0)
		return n;
	return (size_t)n == len ? 0 : -EIO;
}

/* dir/WANTED_BY.wants/UNIT -> ../UNIT, replacing whatever was there. */
static int enable_unit(const char *dir)
{
	static const char target[] = "../" UNIT;
	char wants[PATH_MAX], link[PATH_MAX], old[PATH_MAX];
	ssize_t n;

	if (path_join(wants, dir, WANTED_BY ".wants") < 0 || path_join(link, wants, UNIT) < 0)
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

int main(int argc, char *argv[])
{
	char rbuf[PATH_MAX];
	const char *dest;
	int r;

#ifdef USER_BOOTED_TEST
	/* Test build only: read the system from a fake tree (tests/run-host-tests.sh). */
	if (getenv("USER_BOOTED_ROOT"))
		root = getenv("USER_BOOTED_ROOT");
#endif
	kmsg_fd = open(rooted(rbuf, "/dev/kmsg"), O_WRONLY | O_APPEND | O_CLOEXEC | O_NOCTTY);

	if (argc < 2 || argc > 4) {
		log_msg(LOG_ERR, "Expected 1 to 3 directory arguments, got %d", argc - 1);
		return EXIT_FAILURE;
	}
	dest = argv[1];	/* the normal-priority directory */

	r = read_user_booted();
	if (r == -ENOENT) {
		log_msg(LOG_DEBUG, "Kernel has no %s: skipping", USER_BOOTED_SYSCTL_PATH);
		return EXIT_SUCCESS;
	}
	if (r < 0) {
		log_msg(LOG_WARNING, "Cannot read %s (%s): skipping", USER_BOOTED_SYSCTL_PATH, strerror(-r));
		return EXIT_SUCCESS;
	}
	if (r == USER_BOOTED_YES) {
		log_msg(LOG_DEBUG, "Userspace boot has already ended: skipping");
		return EXIT_SUCCESS;
	}
	if (in_initrd()) {
		log_msg(LOG_DEBUG, "Running in the initrd, its startup is not the end of boot: skipping");
		return EXIT_SUCCESS;
	}
	if (in_container()) {
		log_msg(LOG_DEBUG, "Running in a container, boot is the host's to end: skipping");
		return EXIT_SUCCESS;
	}
	if (!cmdline_enabled()) {
		log_msg(LOG_INFO, "Disabled by %s=0 on the kernel command line: skipping", CMDLINE_SWITCH);
		return EXIT_SUCCESS;
	}
	if (unit_masked()) {
		log_msg(LOG_INFO, "%s is masked: skipping", UNIT);
		return EXIT_SUCCESS;
	}

	r = write_unit(dest);
	if (r == 0)
		r = enable_unit(dest);
	if (r < 0) {
		log_msg(LOG_ERR, "Failed to generate %s in %s: %s", UNIT, dest, strerror(-r));
		return EXIT_FAILURE;
	}
	log_msg(LOG_INFO, "Enabled %s: it reports the end of boot when startup finishes", UNIT);
	return EXIT_SUCCESS;
}
