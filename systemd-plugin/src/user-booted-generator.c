/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * user-booted-generator - pull user-booted.target into this boot when the
 * kernel waits for a report of its end (kernel.user_booted), see
 * user-booted-generator(8) and systemd.generator(7).
 *
 * The per-boot decision only: user-booted.service is a normal unit, wanted by
 * user-booted.target once enabled, so enabling, disabling and masking it stay
 * the administrator's.  On the boots that need no report the generator writes
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
#include <strings.h>
#include <sys/stat.h>
#include <syslog.h>
#include <unistd.h>

#include <linux/user_booted.h>

#include "write-close.h"

#ifndef USER_BOOTED_UNIT_DIR
#error "USER_BOOTED_UNIT_DIR must be set by the build"
#endif

#define TARGET		"user-booted.target"
#define SERVICE		"user-booted.service"
#define CMDLINE_SWITCH	"user_booted.auto"

/*
 * The targets a boot ends in, as systemd-update-utmp-runlevel.service is hooked
 * (plus emergency.target): default.target (or whatever it is an alias of)
 * and those the runlevel words on the kernel command line select ("1",
 * "3", "5", "single", "emergency", ...).  The unit named by systemd.unit=
 * comes on top.  user-booted.service is ordered after all of these.
 */
static const char *const boot_targets[] = {
	"default.target", "multi-user.target", "graphical.target",
	"rescue.target", "emergency.target",
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

/* The kernel and systemd treat '-' and '_' in parameter names alike. */
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

/* What the kernel command line says to us; the last occurrence wins. */
struct cmdline {
	bool enabled;			/* CMDLINE_SWITCH: absent or true */
	const char *bad_switch;		/* an invalid CMDLINE_SWITCH word */
	const char *unit;		/* systemd.unit= */
	int log_level;			/* systemd.log_level=, "debug"; -1: unset */
};

/* Words are split on blanks outside double quotes, as the kernel does. */
static void parse_cmdline(struct cmdline *c)
{
	static char buf[65536];
	bool quoted = false;
	char *p, *word;

	*c = (struct cmdline){ .enabled = true, .log_level = -1 };
	if (read_file("/proc/cmdline", buf, sizeof(buf)) < 0)
		return;

	for (p = buf; *p; ) {
		char *eq, *out, *val;
		size_t klen;
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
		klen = eq ? (size_t)(eq - word) : strlen(word);
		val = eq ? eq + 1 : NULL;
		if (key_eq(word, klen, CMDLINE_SWITCH)) {
			r = val ? parse_boolean(val) : 1;
			if (r < 0)
				c->bad_switch = word;
			else
				c->enabled = r;
		} else if (key_eq(word, klen, "systemd.unit") && val) {
			c->unit = val;
		} else if (key_eq(word, klen, "systemd.log_level") && val) {
			r = parse_log_level(val);
			if (r >= 0)
				c->log_level = r;
		} else if (!val && strcmp(word, "debug") == 0) {
			c->log_level = LOG_DEBUG;
		}
	}
}

/* A unit name we can put in a path and a unit file: no '/', no blanks. */
static bool valid_unit_name(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n > 255 || s[0] == '.' || !strchr(s, '.'))
		return false;
	return strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			 "0123456789:-_.\\@") == n;
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

/* The unit file orders the service after boot_targets[]; this adds unit. */
static int order_after(const char *dir, const char *unit)
{
	char d[PATH_MAX], path[PATH_MAX];
	int fd, len;
	char text[512];

	len = snprintf(text, sizeof(text),
		       "# Automatically generated by user-booted-generator, see user-booted-generator(8).\n"
		       "# systemd.unit=%s on the kernel command line: report after it.\n"
		       "[Unit]\nAfter=%s\n", unit, unit);
	if (len >= (int)sizeof(text) || path_join(d, dir, SERVICE ".d") < 0 ||
	    path_join(path, d, "50-boot-target.conf") < 0)
		return -ENAMETOOLONG;
	if (mkdir(d, 0755) < 0 && errno != EEXIST)
		return -errno;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0)
		return -errno;
	return write_close(fd, text, len);
}

/* Why this boot needs no report, or NULL if it does. */
static const char *nothing_to_report(const struct cmdline *c)
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
	if (!c->enabled)
		return "switched off by " CMDLINE_SWITCH "=0 on the kernel command line";
	return NULL;
}

int main(int argc, char *argv[])
{
	struct cmdline c;
	char rbuf[PATH_MAX];
	const char *dest, *why, *e;
	bool extra;
	int r;

#ifdef USER_BOOTED_TEST
	/* Test build only: read the system from a fake tree (tests/run-host-tests.sh). */
	if (getenv("USER_BOOTED_ROOT"))
		root = getenv("USER_BOOTED_ROOT");
#endif
	kmsg_fd = open(rooted(rbuf, "/dev/kmsg"), O_WRONLY | O_APPEND | O_CLOEXEC | O_NOCTTY);

	/* systemd's generators: the command line first, then $SYSTEMD_LOG_LEVEL. */
	parse_cmdline(&c);
	if (c.log_level >= 0)
		max_level = c.log_level;
	e = getenv("SYSTEMD_LOG_LEVEL");
	if (e && parse_log_level(e) >= 0)
		max_level = parse_log_level(e);

	if (argc < 2 || argc > 4) {
		log_msg(LOG_ERR, "Expected 1 to 3 directory arguments, got %d", argc - 1);
		return EXIT_FAILURE;
	}
	dest = argv[1];	/* the normal-priority directory */
	if (c.bad_switch)
		log_msg(LOG_WARNING, "Ignoring invalid %s", c.bad_switch);

	why = nothing_to_report(&c);
	if (why) {
		log_msg(LOG_DEBUG, "Nothing to report: %s", why);
		return EXIT_SUCCESS;
	}

	extra = c.unit && valid_unit_name(c.unit);
	for (size_t i = 0; extra && i < sizeof(boot_targets) / sizeof(boot_targets[0]); i++)
		extra = strcmp(c.unit, boot_targets[i]) != 0;
	if (c.unit && !valid_unit_name(c.unit))
		log_msg(LOG_DEBUG, "Ignoring systemd.unit=%s: not a unit name", c.unit);

	r = 0;
	for (size_t i = 0; r == 0 && i < sizeof(boot_targets) / sizeof(boot_targets[0]); i++)
		r = want_target(dest, boot_targets[i]);
	if (r == 0 && extra)
		r = want_target(dest, c.unit);
	if (r == 0 && extra)
		r = order_after(dest, c.unit);
	if (r < 0) {
		log_msg(LOG_ERR, "Failed to add %s to the boot targets in %s: %s", TARGET, dest, strerror(-r));
		return EXIT_FAILURE;
	}
	log_msg(LOG_DEBUG, "The kernel waits for a report: added %s to the boot targets%s%s",
		TARGET, extra ? " and " : "", extra ? c.unit : "");
	return EXIT_SUCCESS;
}
