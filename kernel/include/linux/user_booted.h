/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Notification of the end of userspace boot.
 * See Documentation/core-api/user_booted.rst.
 */
#ifndef _LINUX_USER_BOOTED_H
#define _LINUX_USER_BOOTED_H

#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/notifier.h>
#include <linux/types.h>

/**
 * enum user_booted_reason - why userspace boot ended
 * @USER_BOOTED_UNREPORTED: init was not expected to report (no
 *	``user_booted_reported``): boot ended when init was launched, as
 *	it always did.
 * @USER_BOOTED_REPORTED: 1 was written to ``kernel.user_booted`` (also
 *	``sysctl.kernel.user_booted=1`` on the command line, before launch).
 * @USER_BOOTED_TIMEOUT: init was expected to report and did not do so
 *	within ``user_booted_timeout=`` seconds.
 * @USER_BOOTED_SLEEP: the system began to suspend or hibernate first.
 * @USER_BOOTED_RESTORE: this kernel began to restore a hibernation image
 *	first (resume from the initramfs).
 *
 * Passed as the @action argument to user_booted notifiers, for messages:
 * a subscriber acts the same whatever the reason.
 */
enum user_booted_reason {
	USER_BOOTED_UNREPORTED = 1,
	USER_BOOTED_REPORTED,
	USER_BOOTED_TIMEOUT,
	USER_BOOTED_SLEEP,
	USER_BOOTED_RESTORE,
};

#ifdef CONFIG_USER_BOOTED
bool user_booted(void);
bool user_booted_report_expected(void);
int user_booted_register_notifier(struct notifier_block *nb);
int user_booted_unregister_notifier(struct notifier_block *nb);
bool user_booted_defer(struct notifier_block *nb);
void user_booted_init_launched(void);
#else
/*
 * Without it, userspace boot ends when init is launched, as it always did,
 * and nobody is told: registering fails, so that a caller that needs the
 * callback does not wait for one that never comes.
 */
static inline bool user_booted(void)
{
	return system_state >= SYSTEM_RUNNING;
}

static inline bool user_booted_report_expected(void)
{
	return false;
}

static inline int user_booted_register_notifier(struct notifier_block *nb)
{
	return -EOPNOTSUPP;
}

static inline int user_booted_unregister_notifier(struct notifier_block *nb)
{
	return -ENOENT;
}

static inline bool user_booted_defer(struct notifier_block *nb)
{
	return false;
}

static inline void user_booted_init_launched(void) { }
#endif

#endif /* _LINUX_USER_BOOTED_H */
