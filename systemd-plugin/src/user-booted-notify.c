/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * user-booted-notify - wait until systemd's startup has finished, then end
 * userspace boot in the kernel (kernel.user_booted = 1), see
 * user-booted-notify(8).  Run by user-booted.service.
 *
 * It tells systemd it is ready once it listens, so startup cannot finish
 * unseen.  One poll() loop waits for two events: systemd's StartupFinished, on PID 1's
 * private bus (no D-Bus daemon needed), and the kernel ending boot by itself
 * (POLLPRI on the sysctl, its user_booted_timeout fallback).  There is no
 * timeout of its own: the kernel's is the only bound.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include <systemd/sd-bus.h>
#include <systemd/sd-daemon.h>

#include <linux/user_booted.h>

#include "write-close.h"

#define PRIVATE_BUS	"unix:path=/run/systemd/private"
#define MANAGER_PATH	"/org/freedesktop/systemd1"
#define MANAGER_IFACE	"org.freedesktop.systemd1.Manager"
/* While PID 1 re-executes, how often to try to reconnect. */
#define RECONNECT_MSEC	100

static int max_level = LOG_INFO;

/* sd-daemon(3) level prefixes: the journal files the lines by level. */
static void log_msg(int level, const char *fmt, ...)
{
	va_list ap;

	if (level > max_level)
		return;
	fprintf(stderr, "<%d>", level);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* Returns USER_BOOTED_NO/YES or -errno; fd stays open for poll(). */
static int read_user_booted(int fd)
{
	char buf[32], *end;
	ssize_t n;
	long v;

	n = pread(fd, buf, sizeof(buf) - 1, 0);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	errno = 0;
	v = strtol(buf, &end, 10);
	if (errno || end == buf)
		return -EINVAL;
	return v == USER_BOOTED_NO ? USER_BOOTED_NO : USER_BOOTED_YES;
}

static int write_user_booted(void)
{
	int fd = open(USER_BOOTED_SYSCTL_PATH, O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	return write_close(fd, USER_BOOTED_WRITE, strlen(USER_BOOTED_WRITE));
}

/*
 * READY=1 to systemd (user-booted.service is Type=notify), once, on every
 * path: a notify service that exits without it fails, and a failure must
 * not make the system degraded.
 */
static void ready(void)
{
	static bool sent;

	if (!sent)
		(void)sd_notify(0, "READY=1");
	sent = true;
}

/* How we learnt that startup finished, for the log; NULL while it has not. */
static const char *finished_by;

static int on_startup_finished(sd_bus_message *m, void *userdata, sd_bus_error *error)
{
	(void)m;
	(void)userdata;
	(void)error;
	finished_by = "the StartupFinished signal";
	return 0;
}

/*
 * Connects to PID 1 and sets finished_by if startup has already finished.
 * The match goes in before the timestamp is read: a StartupFinished sent
 * after the read reaches the match, one sent before shows in the timestamp.
 * PID 1 sends its signals to every private-bus client, no Subscribe() needed.
 */
static int connect_manager(sd_bus **ret)
{
	sd_bus_error error = SD_BUS_ERROR_NULL;
	sd_bus *bus = NULL;
	uint64_t ts = 0;
	int r;

	r = sd_bus_new(&bus);
	if (r < 0)
		return r;
	r = sd_bus_set_address(bus, PRIVATE_BUS);
	if (r >= 0)
		r = sd_bus_start(bus);
	if (r >= 0)
		r = sd_bus_match_signal(bus, NULL, NULL, MANAGER_PATH, MANAGER_IFACE,
					"StartupFinished", on_startup_finished, NULL);
	if (r >= 0)
		r = sd_bus_get_property_trivial(bus, "org.freedesktop.systemd1", MANAGER_PATH,
						MANAGER_IFACE, "FinishTimestampMonotonic",
						&error, 't', &ts);
	if (r < 0) {
		if (sd_bus_error_is_set(&error))
			log_msg(LOG_DEBUG, "FinishTimestampMonotonic: %s", error.message);
		sd_bus_error_free(&error);
		sd_bus_flush_close_unref(bus);
		return r;
	}
	if (ts > 0)
		finished_by = "FinishTimestampMonotonic: it finished before we connected";
	*ret = bus;
	return 0;
}

/* poll() timeout in ms for the bus's absolute CLOCK_MONOTONIC deadline. */
static int bus_timeout_ms(sd_bus *bus)
{
	struct timespec ts;
	uint64_t until, now;

	if (sd_bus_get_timeout(bus, &until) < 0 || until == UINT64_MAX)
		return -1;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	now = (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
	if (until <= now)
		return 0;
	return (until - now + 999) / 1000 > 60000 ? 60000 : (int)((until - now + 999) / 1000);
}

/*
 * Returns 1 once startup has finished, 0 once the kernel ended boot without
 * us, -errno if PID 1 cannot be reached at all.  sysctl_fd was opened before
 * its value was last read, so any change since shows as POLLPRI.
 */
static int wait_for_startup(int sysctl_fd)
{
	sd_bus *bus = NULL;
	int r;

	r = connect_manager(&bus);
	/*
	 * Listening now (or never will): systemd's startup cannot finish
	 * before this, so StartupFinished reaches us however long the
	 * helper took to start (Type=notify).
	 */
	ready();
	if (r < 0) {
		log_msg(LOG_ERR, "Cannot talk to systemd on %s: %s", PRIVATE_BUS, strerror(-r));
		return r;
	}

	while (!finished_by) {
		struct pollfd p[2] = { { .fd = sysctl_fd, .events = POLLPRI } };
		int n = 1, timeout = RECONNECT_MSEC;

		if (bus) {
			r = sd_bus_process(bus, NULL);
			if (r > 0)
				continue;
			if (r == 0 && finished_by)
				break;
			if (r == 0) {
				r = sd_bus_get_events(bus);
				p[1] = (struct pollfd){ .fd = sd_bus_get_fd(bus), .events = r };
				n = 2;
				timeout = bus_timeout_ms(bus);
			}
			if (r < 0) {
				/* PID 1 re-executing: it is back in a moment. */
				log_msg(LOG_INFO, "Lost connection to systemd (%s), reconnecting", strerror(-r));
				bus = sd_bus_flush_close_unref(bus);
			}
		} else if (connect_manager(&bus) >= 0) {
			continue;
		}

		if (poll(p, n, timeout) < 0 && errno != EINTR) {
			r = -errno;
			log_msg(LOG_ERR, "poll() failed: %s", strerror(-r));
			break;
		}
		if (p[0].revents && read_user_booted(sysctl_fd) == USER_BOOTED_YES) {
			r = 0;
			break;
		}
	}
	sd_bus_flush_close_unref(bus);
	return finished_by ? 1 : r;
}

static void help(void)
{
	printf("Usage: user-booted-notify\n\n"
	       "Wait until systemd's startup has finished, then write 1 to %s.\n"
	       "Run by user-booted.service; see user-booted-notify(8).\n\n"
	       "  -h --help  show this help\n", USER_BOOTED_SYSCTL_PATH);
}

int main(int argc, char *argv[])
{
	static const struct option options[] = {
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	const char *e;
	int c, fd, r;

	while ((c = getopt_long(argc, argv, "h", options, NULL)) >= 0) {
		switch (c) {
		case 'h':
			help();
			return EXIT_SUCCESS;
		default:
			return EXIT_FAILURE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "Unexpected argument: %s\n", argv[optind]);
		return EXIT_FAILURE;
	}
	e = getenv("SYSTEMD_LOG_LEVEL");
	if (e && strlen(e) == 1 && e[0] >= '0' && e[0] <= '7')
		max_level = e[0] - '0';
	else if (e && strcmp(e, "debug") == 0)
		max_level = LOG_DEBUG;

	/* Opened before the first read: a change after that read wakes poll(). */
	fd = open(USER_BOOTED_SYSCTL_PATH, O_RDONLY | O_CLOEXEC);
	r = fd < 0 ? -errno : read_user_booted(fd);
	if (r < 0) {
		ready();
		log_msg(LOG_ERR, "Cannot read %s: %s", USER_BOOTED_SYSCTL_PATH, strerror(-r));
		return EXIT_FAILURE;
	}
	if (r == USER_BOOTED_YES) {
		ready();
		log_msg(LOG_DEBUG, "Userspace boot has already ended, nothing to do");
		return EXIT_SUCCESS;
	}

	r = wait_for_startup(fd);
	if (r < 0)
		return EXIT_FAILURE;
	if (r == 0) {
		log_msg(LOG_NOTICE, "Userspace boot was ended without us (the kernel's timeout?), nothing to do");
		return EXIT_SUCCESS;
	}

	r = write_user_booted();
	if (r < 0 && read_user_booted(fd) == USER_BOOTED_YES) {
		/* The kernel's timeout won the race: same outcome. */
		log_msg(LOG_NOTICE, "Userspace boot was ended without us (the kernel's timeout?), nothing to do");
		return EXIT_SUCCESS;
	}
	if (r < 0) {
		log_msg(LOG_ERR, "Failed to write %s: %s", USER_BOOTED_SYSCTL_PATH, strerror(-r));
		return EXIT_FAILURE;
	}
	log_msg(LOG_INFO, "systemd startup finished (learnt from %s): reported the end of userspace boot to the kernel",
		finished_by);
	return EXIT_SUCCESS;
}
