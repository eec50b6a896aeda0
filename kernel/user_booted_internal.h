/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The user_booted phase machine, shared with its KUnit test: the test runs the
 * same code on instances of its own, never on the system's.
 */
#ifndef _KERNEL_USER_BOOTED_INTERNAL_H
#define _KERNEL_USER_BOOTED_INTERNAL_H

#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/sysctl.h>
#include <linux/user_booted.h>
#include <linux/workqueue.h>

/* The fallback, in seconds after init launch: user_booted_timeout= sets it. */
#define USER_BOOTED_DEFAULT_TIMEOUT	120
#define USER_BOOTED_MAX_TIMEOUT		(24 * 60 * 60)	/* a day */

/**
 * struct user_booted_state - one "userspace has booted" event
 * @lock: serialises everything below, and is held while subscribers are
 *	told, so that each is told exactly once and before the end returns
 * @chain: the subscribers; emptied once they are told
 * @timeout_work: the fallback, armed at launch if init is to report; it
 *	arms itself again if it runs before launch_ns + timeout_secs
 * @poll: wakes pollers of kernel.user_booted
 * @launch_ns: ktime_get_ns() at init launch
 * @timeout_secs: the fallback's timeout; fixed before init launch
 * @report_expected: init is to write kernel.user_booted
 * @system: the system's instance, the one that logs and traces
 * @launched: init has been launched
 * @reason: why boot ended, 0 while booting; set once
 * @booted: set after every subscriber has been told; read locklessly
 */
struct user_booted_state {
	struct mutex lock;	/* see above */
	struct raw_notifier_head chain;
	struct delayed_work timeout_work;
	struct ctl_table_poll poll;
	u64 launch_ns;
	unsigned int timeout_secs;
	bool report_expected;
	bool system;
	bool launched;
	enum user_booted_reason reason;
	bool booted;
};

#if IS_ENABLED(CONFIG_KUNIT)
void user_booted_timeout_fn(struct work_struct *work);
void user_booted_state_launch(struct user_booted_state *s);
void user_booted_state_end(struct user_booted_state *s, enum user_booted_reason reason);
int user_booted_state_add(struct user_booted_state *s, struct notifier_block *nb,
			  bool defer);

/* A fresh instance for a test; the system's is initialised statically. */
static inline void user_booted_state_init(struct user_booted_state *s,
					  bool report_expected)
{
	*s = (struct user_booted_state){
		.timeout_secs = USER_BOOTED_DEFAULT_TIMEOUT,
		.report_expected = report_expected,
	};
	mutex_init(&s->lock);
	RAW_INIT_NOTIFIER_HEAD(&s->chain);
	INIT_DELAYED_WORK(&s->timeout_work, user_booted_timeout_fn);
	init_waitqueue_head(&s->poll.wait);
}
#endif

#endif /* _KERNEL_USER_BOOTED_INTERNAL_H */
