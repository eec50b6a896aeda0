/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * user-booted-notify - wait until systemd's startup has finished, then end
 * userspace boot in the kernel (kernel.user_booted = 1), see
 * user-booted-notify(8).  Started by user-booted.service, which
 * user-booted-generator(8) writes.
 *
 * It talks to PID 1 over its private bus, so it needs no D-Bus daemon, and it
 * is bounded: it leaves without writing once the kernel has ended boot by
 * itself (the user_booted_timeout fallback) or after --timeout seconds.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <systemd/sd-bus.h>
#include <systemd/sd-daemon.h>

#include <linux/user_booted.h>

#define PRIVATE_BUS	"unix:path=/run/systemd/private"
#define MANAGER_PATH	"/org/freedesktop/systemd1"
#define MANAGER_IFACE	"org.freedesktop.systemd1.Manager"
#define USEC_PER_SEC	UINT64_C(1000000)
/* How often to look whether the kernel has ended boot without us. */
#define RECHECK_USEC	(5 * USEC_PER_SEC)
#define DEFAULT_TIMEOUT_SEC 600

static uint64_t now_usec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * USEC_PER_SEC + (uint64_t)ts.tv_nsec / 1000;
}

/* Returns USER_BOOTED_NO/YES or -errno. */
static int read_user_booted(void)
{
	char buf[32], *end;
	ssize_t n;
	long v;
	int fd;

	fd = open(USER_BOOTED_SYSCTL_PATH, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	if (n < 0)
		n = -errno;
	close(fd);
	if (n < 0)
		return n;
	buf[n] = '\0';
	errno = 0;
	v = strtol(buf, &end, 10);
	if (errno || end == buf)
		return -EINVAL;
	return v == USER_BOOTED_NO ? USER_BOOTED_NO : USER_BOOTED_YES;
}

static int write_user_booted(void)
{
	size_t len = strlen(USER_BOOTED_WRITE);
	ssize_t n;
	int fd;

	fd = open(USER_BOOTED_SYSCTL_PATH, O_WRONLY | O_CLOEXEC);
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
 * PID 1 sends its signals to every private-bus peer, no Subscribe() needed.
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
			fprintf(stderr, SD_DEBUG "FinishTimestampMonotonic: %s\n", error.message);
		sd_bus_error_free(&error);
		sd_bus_flush_close_unref(bus);
		return r;
	}
	if (ts > 0)
		finished_by = "FinishTimestampMonotonic: it finished before we connected";
	*ret = bus;
	return 0;
}

/*
 * Returns 1 once startup has finished, 0 if there is nothing left to wait
 * for (boot already ended, or timed out), -errno if PID 1 cannot be reached.
 */
static int wait_for_startup(uint64_t deadline)
{
	sd_bus *bus = NULL;
	int r;

	r = connect_manager(&bus);
	if (r < 0) {
		fprintf(stderr, SD_ERR "Cannot talk to systemd on %s: %s\n", PRIVATE_BUS, strerror(-r));
		return r;
	}

	while (!finished_by) {
		uint64_t now = now_usec();

		if (read_user_booted() == USER_BOOTED_YES) {
			fprintf(stderr, SD_NOTICE "Boot was ended without us (kernel timeout?), nothing to do\n");
			r = 0;
			break;
		}
		if (now >= deadline) {
			fprintf(stderr, SD_WARNING "systemd startup has not finished in time, giving up; "
				"the kernel's user_booted_timeout will end boot\n");
			r = 0;
			break;
		}

		if (!bus) {
			/* PID 1 re-executed: it is back in a moment. */
			usleep(100 * 1000);
			(void)connect_manager(&bus);
			continue;
		}
		r = sd_bus_process(bus, NULL);
		if (r > 0)
			continue;
		if (r == 0)
			r = sd_bus_wait(bus, deadline - now < RECHECK_USEC ? deadline - now : RECHECK_USEC);
		if (r < 0) {
			fprintf(stderr, SD_INFO "Lost connection to systemd (%s), reconnecting\n", strerror(-r));
			bus = sd_bus_flush_close_unref(bus);
		}
	}
	if (finished_by)
		r = 1;
	sd_bus_flush_close_unref(bus);
	return r;
}

static void help(void)
{
	printf("Usage: user-booted-notify [--timeout=SEC]\n\n"
	       "Wait until systemd's startup has finished, then write %s to %s.\n\n"
	       "  -t --timeout=SEC  give up after SEC seconds (default %d)\n"
	       "  -h --help         show this help\n",
	       "1", USER_BOOTED_SYSCTL_PATH, DEFAULT_TIMEOUT_SEC);
}

int main(int argc, char *argv[])
{
	static const struct option options[] = {
		{ "timeout", required_argument, NULL, 't' },
		{ "help",    no_argument,       NULL, 'h' },
		{}
	};
	unsigned long timeout = DEFAULT_TIMEOUT_SEC;
	char *end;
	int c, r;

	while ((c = getopt_long(argc, argv, "t:h", options, NULL)) >= 0) {
		switch (c) {
		case 't':
			errno = 0;
			timeout = strtoul(optarg, &end, 10);
			if (errno || end == optarg || *end || timeout > 86400 * 365) {
				fprintf(stderr, SD_ERR "Invalid --timeout: %s\n", optarg);
				return EXIT_FAILURE;
			}
			break;
		case 'h':
			help();
			return EXIT_SUCCESS;
		default:
			return EXIT_FAILURE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, SD_ERR "Unexpected argument: %s\n", argv[optind]);
		return EXIT_FAILURE;
	}

	r = read_user_booted();
	if (r < 0) {
		fprintf(stderr, SD_ERR "Cannot read %s: %s\n", USER_BOOTED_SYSCTL_PATH, strerror(-r));
		return EXIT_FAILURE;
	}
	if (r == USER_BOOTED_YES) {
		fprintf(stderr, SD_INFO "Userspace boot has already ended, nothing to do\n");
		return EXIT_SUCCESS;
	}

	r = wait_for_startup(now_usec() + timeout * USEC_PER_SEC);
	if (r < 0)
		return EXIT_FAILURE;
	if (r == 0)
		return EXIT_SUCCESS;

	r = write_user_booted();
	if (r < 0 && read_user_booted() == USER_BOOTED_YES) {
		/* The kernel timeout won the race: same outcome. */
		fprintf(stderr, SD_NOTICE "Boot was ended without us (kernel timeout?), nothing to do\n");
		return EXIT_SUCCESS;
	}
	if (r < 0) {
		fprintf(stderr, SD_ERR "Failed to write %s: %s\n", USER_BOOTED_SYSCTL_PATH, strerror(-r));
		return EXIT_FAILURE;
	}
	fprintf(stderr, SD_INFO "systemd startup finished (learnt from %s): reported the end of userspace boot to the kernel\n",
		finished_by);
	return EXIT_SUCCESS;
}
