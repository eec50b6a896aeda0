/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * user-booted-notify - wait until systemd's startup has finished and udev's
 * event queue is empty, then end userspace boot in the kernel
 * (kernel.user_booted = 1), see user-booted-notify(8).  Run by
 * user-booted.service.
 *
 * One sd-event loop waits for: systemd's StartupFinished on PID 1's private
 * bus (no D-Bus daemon needed; FinishTimestampMonotonic if it came before
 * we connected), then the removal of /run/udev/queue (as udevadm settle
 * watches it); and all along for the kernel ending boot by itself (POLLPRI on
 * the sysctl: its user_booted_timeout fallback, or PID 1 reporting itself).
 * A connection that fails or breaks (PID 1 re-executing) is retried; there is
 * no timeout of our own: the kernel's is the only bound.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/inotify.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include <systemd/sd-bus.h>
#include <systemd/sd-event.h>

#include <linux/user_booted.h>

#define PRIVATE_BUS	"unix:path=/run/systemd/private"
#define MANAGER_PATH	"/org/freedesktop/systemd1"
#define MANAGER_IFACE	"org.freedesktop.systemd1.Manager"
#define UDEV_DIR	"/run/udev"
#define UDEV_QUEUE	"queue"		/* exists while udev has events queued */
/* Reconnect after 0.1 s, doubling up to 2 s: PID 1 re-executes in well under that. */
#define RETRY_FIRST_USEC	(100 * 1000ULL)
#define RETRY_MAX_USEC		(2000 * 1000ULL)

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

enum outcome { WAITING, STARTUP_FINISHED, ENDED_WITHOUT_US };

struct ctx {
	sd_event *event;
	sd_bus *bus;
	sd_event_source *retry;		/* one-shot reconnect timer */
	int sysctl_fd;
	uint64_t retry_usec;
	const char *finished_by;	/* how we learnt startup finished */
	uint64_t finish_usec;		/* when we learnt it, CLOCK_MONOTONIC */
	bool udev_waited;		/* the queue existed when startup finished */
};

static uint64_t now_usec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

/* Returns USER_BOOTED_NO/YES or -errno; fd stays open for EPOLLPRI. */
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

/* One write(2): the sysctl takes it whole or refuses it. */
static int write_user_booted(void)
{
	size_t len = strlen(USER_BOOTED_WRITE);
	int fd = open(USER_BOOTED_SYSCTL_PATH, O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, USER_BOOTED_WRITE, len);
	if (n < 0)
		n = -errno;
	if (close(fd) < 0 && n >= 0)
		n = -errno;
	if (n < 0)
		return n;
	return (size_t)n == len ? 0 : -EIO;
}

/* The kernel's fallback, or PID 1 itself, ended boot: nothing left to do. */
static int on_sysctl(sd_event_source *s, int fd, uint32_t revents, void *userdata)
{
	struct ctx *c = userdata;

	(void)s;
	(void)revents;
	if (read_user_booted(fd) == USER_BOOTED_YES)
		return sd_event_exit(c->event, ENDED_WITHOUT_US);
	return 0;
}

static bool udev_busy(void)
{
	return access(UDEV_DIR "/" UDEV_QUEUE, F_OK) == 0;
}

static int on_udev_dir(sd_event_source *s, const struct inotify_event *ev, void *userdata)
{
	struct ctx *c = userdata;

	(void)ev;
	if (udev_busy())
		return 0;
	log_msg(LOG_DEBUG, "udev's event queue drained at %" PRIu64 " us (CLOCK_MONOTONIC)", now_usec());
	sd_event_source_set_enabled(s, SD_EVENT_OFF);
	return sd_event_exit(c->event, STARTUP_FINISHED);
}

/*
 * "Startup finished" means PID 1's jobs are done, not that the drivers for
 * the devices found meanwhile are loaded: systemd-udev-trigger only queues
 * the coldplug events.  Wait until udev's queue is empty, as udevadm settle.
 */
static int startup_finished(struct ctx *c, const char *how)
{
	int r;

	if (c->finished_by)
		return 0;
	c->finished_by = how;
	/* Nothing more to hear from PID 1. */
	c->bus = sd_bus_flush_close_unref(c->bus);
	if (!udev_busy())
		return sd_event_exit(c->event, STARTUP_FINISHED);
	c->udev_waited = true;
	log_msg(LOG_DEBUG, "Startup finished, waiting for udev's event queue to drain");
	r = sd_event_add_inotify(c->event, NULL, UDEV_DIR, IN_DELETE | IN_MOVED_FROM | IN_ONLYDIR,
				 on_udev_dir, c);
	if (r < 0) {
		/* No udev running (a container-less minimal system): report now. */
		log_msg(LOG_DEBUG, "Cannot watch %s (%s), not waiting for udev", UDEV_DIR, strerror(-r));
		return sd_event_exit(c->event, STARTUP_FINISHED);
	}
	/* Drained between the check and the watch? */
	if (!udev_busy()) {
		log_msg(LOG_DEBUG, "udev's event queue drained at %" PRIu64 " us (CLOCK_MONOTONIC)", now_usec());
		return sd_event_exit(c->event, STARTUP_FINISHED);
	}
	return 0;
}

static int on_startup_finished(sd_bus_message *m, void *userdata, sd_bus_error *error)
{
	struct ctx *c = userdata;

	(void)m;
	(void)error;
	c->finish_usec = now_usec();
	return startup_finished(c, "the StartupFinished signal");
}

static void schedule_connect(struct ctx *c);

static int on_disconnected(sd_bus_message *m, void *userdata, sd_bus_error *error)
{
	struct ctx *c = userdata;

	(void)m;
	(void)error;
	/* PID 1 re-executing (daemon-reexec, an upgrade): it is back in a moment. */
	log_msg(LOG_DEBUG, "Lost the connection to systemd, reconnecting");
	c->bus = sd_bus_flush_close_unref(c->bus);
	schedule_connect(c);
	return 0;
}

static int on_finish_timestamp(sd_bus_message *m, void *userdata, sd_bus_error *error)
{
	struct ctx *c = userdata;
	uint64_t ts = 0;
	int r;

	(void)error;
	if (sd_bus_message_is_method_error(m, NULL)) {
		/* PID 1 going away mid-call: the Disconnected match reconnects. */
		log_msg(LOG_DEBUG, "FinishTimestampMonotonic: %s", sd_bus_message_get_error(m)->message);
		return 0;
	}
	r = sd_bus_message_read(m, "v", "t", &ts);
	if (r < 0) {
		log_msg(LOG_DEBUG, "FinishTimestampMonotonic: %s", strerror(-r));
		return 0;
	}
	if (ts == 0)
		return 0;
	c->finish_usec = now_usec();
	return startup_finished(c, "FinishTimestampMonotonic: it finished before we connected");
}

/*
 * Connects to PID 1 and asks whether startup has already finished.  The
 * match goes in before the property is asked for: a StartupFinished sent
 * after the reply reaches the match, one sent before shows in the reply.
 * PID 1 sends its signals to every private-bus client, no Subscribe()
 * needed.  The call is asynchronous, so the sysctl is watched meanwhile.
 */
static int connect_manager(struct ctx *c)
{
	sd_bus *bus = NULL;
	int r;

	r = sd_bus_new(&bus);
	if (r < 0)
		return r;
	r = sd_bus_set_address(bus, PRIVATE_BUS);
	if (r >= 0)
		r = sd_bus_start(bus);
	if (r >= 0)
		r = sd_bus_attach_event(bus, c->event, SD_EVENT_PRIORITY_NORMAL);
	if (r >= 0)
		r = sd_bus_match_signal(bus, NULL, "org.freedesktop.DBus.Local",
					"/org/freedesktop/DBus/Local", "org.freedesktop.DBus.Local",
					"Disconnected", on_disconnected, c);
	if (r >= 0)
		r = sd_bus_match_signal(bus, NULL, NULL, MANAGER_PATH, MANAGER_IFACE,
					"StartupFinished", on_startup_finished, c);
	if (r >= 0)
		r = sd_bus_call_method_async(bus, NULL, "org.freedesktop.systemd1", MANAGER_PATH,
					     "org.freedesktop.DBus.Properties", "Get",
					     on_finish_timestamp, c, "ss", MANAGER_IFACE,
					     "FinishTimestampMonotonic");
	if (r < 0) {
		sd_bus_flush_close_unref(bus);
		return r;
	}
	c->bus = bus;
	c->retry_usec = RETRY_FIRST_USEC;
	return 0;
}

static int on_retry(sd_event_source *s, uint64_t usec, void *userdata)
{
	struct ctx *c = userdata;
	int r;

	(void)s;
	(void)usec;
	r = connect_manager(c);
	if (r < 0) {
		log_msg(LOG_DEBUG, "Cannot talk to systemd on %s (%s), retrying", PRIVATE_BUS, strerror(-r));
		schedule_connect(c);
	}
	return 0;
}

static void schedule_connect(struct ctx *c)
{
	int r;

	if (c->retry)
		r = sd_event_source_set_time_relative(c->retry, c->retry_usec);
	else
		r = sd_event_add_time_relative(c->event, &c->retry, CLOCK_MONOTONIC, c->retry_usec, 1,
					       on_retry, c);
	if (r >= 0)
		r = sd_event_source_set_enabled(c->retry, SD_EVENT_ONESHOT);
	if (r < 0) {
		log_msg(LOG_ERR, "Cannot set up a timer: %s", strerror(-r));
		sd_event_exit(c->event, r);
		return;
	}
	c->retry_usec = c->retry_usec * 2 < RETRY_MAX_USEC ? c->retry_usec * 2 : RETRY_MAX_USEC;
}

static void help(void)
{
	printf("Usage: user-booted-notify\n\n"
	       "Wait until systemd's startup has finished and udev's event queue is empty,\n"
	       "then write 1 to %s.\n"
	       "Run by user-booted.service; see user-booted-notify(8).\n\n"
	       "  -h --help  show this help\n", USER_BOOTED_SYSCTL_PATH);
}

/* $SYSTEMD_LOG_LEVEL as systemd's tools read it: a number or a name. */
static void parse_log_level(const char *s)
{
	static const char *const names[] = {
		"emerg", "alert", "crit", "err", "warning", "notice", "info", "debug",
	};

	for (int i = 0; s && i < 8; i++)
		if (strcmp(s, names[i]) == 0 || (s[0] == '0' + i && s[1] == '\0'))
			max_level = i;
}

int main(int argc, char *argv[])
{
	static const struct option options[] = {
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	struct ctx c = { .sysctl_fd = -1, .retry_usec = RETRY_FIRST_USEC };
	int opt, r;

	while ((opt = getopt_long(argc, argv, "h", options, NULL)) >= 0) {
		switch (opt) {
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
	parse_log_level(getenv("SYSTEMD_LOG_LEVEL"));
	log_msg(LOG_DEBUG, "Started at %" PRIu64 " us (CLOCK_MONOTONIC)", now_usec());

	/* Opened before the first read: a change after that read is an EPOLLPRI. */
	c.sysctl_fd = open(USER_BOOTED_SYSCTL_PATH, O_RDONLY | O_CLOEXEC);
	r = c.sysctl_fd < 0 ? -errno : read_user_booted(c.sysctl_fd);
	if (r < 0) {
		log_msg(LOG_ERR, "Cannot read %s: %s", USER_BOOTED_SYSCTL_PATH, strerror(-r));
		return EXIT_FAILURE;
	}
	if (r == USER_BOOTED_YES) {
		log_msg(LOG_DEBUG, "Userspace boot has already ended, nothing to do");
		return EXIT_SUCCESS;
	}

	r = sd_event_default(&c.event);
	if (r >= 0)
		r = sd_event_add_io(c.event, NULL, c.sysctl_fd, EPOLLPRI, on_sysctl, &c);
	if (r < 0) {
		log_msg(LOG_ERR, "Cannot set up the event loop: %s", strerror(-r));
		return EXIT_FAILURE;
	}
	r = connect_manager(&c);
	if (r < 0) {
		log_msg(LOG_INFO, "Cannot talk to systemd on %s (%s), retrying", PRIVATE_BUS, strerror(-r));
		schedule_connect(&c);
	}

	r = sd_event_loop(c.event);
	sd_event_source_unref(c.retry);
	sd_bus_flush_close_unref(c.bus);
	if (r < 0) {
		log_msg(LOG_ERR, "Event loop failed: %s", strerror(-r));
		return EXIT_FAILURE;
	}
	if (r == STARTUP_FINISHED) {
		r = write_user_booted();
		/* A failed write after the kernel's timeout won the race: same outcome. */
		if (r < 0 && read_user_booted(c.sysctl_fd) != USER_BOOTED_YES) {
			log_msg(LOG_ERR, "Failed to write %s: %s", USER_BOOTED_SYSCTL_PATH, strerror(-r));
			return EXIT_FAILURE;
		}
		if (r == 0) {
			if (c.udev_waited)
				log_msg(LOG_INFO, "systemd startup finished (learnt from %s), udev's event queue drained %.3f s later: reported the end of userspace boot to the kernel",
					c.finished_by, (double)(now_usec() - c.finish_usec) / 1e6);
			else
				log_msg(LOG_INFO, "systemd startup finished (learnt from %s), udev's event queue was empty: reported the end of userspace boot to the kernel",
					c.finished_by);
			return EXIT_SUCCESS;
		}
	}
	/* Logged by the kernel already; the usual case when PID 1 reports itself. */
	log_msg(LOG_DEBUG, "Userspace boot was ended without us (the kernel's timeout, or systemd itself), nothing to do");
	return EXIT_SUCCESS;
}
