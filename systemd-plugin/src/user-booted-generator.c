/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * user-booted-generator: pull user-booted.service into the boots whose end the
 * kernel waits for (kernel.user_booted reads 0), the way systemd's
 * bless-boot-generator pulls in systemd-bless-boot.service; see
 * user-booted-generator(8).  Anything else (no such sysctl, the initrd, a
 * container) writes nothing: the boot goes on as without the plugin.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <syslog.h>
#include <unistd.h>

/* The sysctl's path: the ABI header's, when the kernel headers carry it. */
#ifdef HAVE_LINUX_USER_BOOTED_H
#include <linux/user_booted.h>
#else
#define USER_BOOTED_SYSCTL_PATH "/proc/sys/kernel/user_booted"
#endif

#define UNIT "user-booted.service"

#ifdef USER_BOOTED_TEST	/* the host tests' build: a fake system below $USER_BOOTED_ROOT */
static const char *sys(const char *path)
{
	static char buf[4096];

	snprintf(buf, sizeof(buf), "%s%s", getenv("USER_BOOTED_ROOT") ?: "", path);
	return buf;
}
#else
#define sys(path) (path)
#endif

/* To /dev/kmsg, as systemd's generators log: a generator's stderr reached
 * neither the console nor kmsg on systemd 252 and 262 (e2e). */
static void say(int level, const char *what, const char *why)
{
	FILE *kmsg = fopen(sys("/dev/kmsg"), "ae");

	fprintf(kmsg ?: stderr, "<%d>user-booted-generator[%d]: %s%s%s\n", LOG_DAEMON | level,
		(int)getpid(), what, why ? ": " : "", why ?: "");
	if (kmsg)
		fclose(kmsg);
}

static int fail(const char *what, const char *why)
{
	say(LOG_ERR, what, why);
	return EXIT_FAILURE;
}

/* $SYSTEMD_IN_INITRD and $SYSTEMD_VIRTUALIZATION from systemd >= 251, else files. */
static int skip(void)
{
	const char *initrd = getenv("SYSTEMD_IN_INITRD"), *virt = getenv("SYSTEMD_VIRTUALIZATION");
	char buf[8] = "";
	FILE *f;

	if (initrd ? strcmp(initrd, "0") != 0 : access(sys("/etc/initrd-release"), F_OK) == 0)
		return 1;
	if (virt ? strncmp(virt, "container:", 10) == 0 : access(sys("/run/systemd/container"), F_OK) == 0)
		return 1;
	f = fopen(sys(USER_BOOTED_SYSCTL_PATH), "re");
	if (!f && errno != ENOENT)	/* ENOENT: a kernel without it, nothing to say */
		say(LOG_WARNING, USER_BOOTED_SYSCTL_PATH, strerror(errno));
	if (f) {
		if (!fgets(buf, sizeof(buf), f)) {
			if (ferror(f))
				say(LOG_WARNING, USER_BOOTED_SYSCTL_PATH, strerror(errno));
			buf[0] = '\0';
		}
		fclose(f);
	}
	return strcmp(buf, "0\n") != 0;	/* only while the kernel waits */
}

int main(int argc, char *argv[])
{
	/* Every boot target but rescue and emergency mode wants basic.target;
	 * those end a boot too, also when a failure starts emergency.target. */
	static const char *const wants[] = { "basic", "rescue", "emergency" };
	char dir[4096], link[4096 + sizeof(UNIT)];

	if (argc != 2 && argc != 4)
		return fail("expected 1 or 3 directories", NULL);
	if (skip())
		return EXIT_SUCCESS;
	/* The early directory, as bless-boot-generator: it outranks /etc
	 * (systemd.generator(7)); masking the unit is the opt-out. */
	for (size_t i = 0; i < sizeof(wants) / sizeof(wants[0]); i++) {
		snprintf(dir, sizeof(dir), "%s/%s.target.wants", argv[argc == 4 ? 2 : 1], wants[i]);
		snprintf(link, sizeof(link), "%s/" UNIT, dir);
		if (mkdir(dir, 0755) < 0 && errno != EEXIST)
			return fail(dir, strerror(errno));
		if (symlink(USER_BOOTED_UNIT_DIR "/" UNIT, link) < 0 && errno != EEXIST)
			return fail(link, strerror(errno));
	}
	return EXIT_SUCCESS;
}
