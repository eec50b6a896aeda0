/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The user_booted state machine, shared with its KUnit test only.
 */
#ifndef _KERNEL_USER_BOOTED_INTERNAL_H
#define _KERNEL_USER_BOOTED_INTERNAL_H

#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/user_booted.h>

/**
 * struct user_booted_state - one "userspace has booted" event
 * @lock: serialises the end of boot with (un)registration; held while
 *	subscribers run, so that every subscriber is told exactly once and
 *	has been told when user_booted_state_end() returns
 * @chain: the subscribers, called with @lock held
 * @nr_subscribers: how many are on @chain
 * @reason: why boot ended, 0 while booting; set once, under @lock
 * @booted: set after every subscriber has been told; read locklessly
 *
 * The system has one; the KUnit test makes its own.
 */
struct user_booted_state {
	struct mutex lock;	/* end of boot vs. (un)registration */
	struct raw_notifier_head chain;
	unsigned int nr_subscribers;
	enum user_booted_reason reason;
	bool booted;
};

static inline void user_booted_state_init(struct user_booted_state *s)
{
	mutex_init(&s->lock);
	RAW_INIT_NOTIFIER_HEAD(&s->chain);
	s->nr_subscribers = 0;
	s->reason = 0;
	s->booted = false;
}

#if IS_ENABLED(CONFIG_KUNIT)
bool user_booted_state_end(struct user_booted_state *s,
			   enum user_booted_reason reason);
int user_booted_state_register(struct user_booted_state *s,
			       struct notifier_block *nb);
int user_booted_state_unregister(struct user_booted_state *s,
				 struct notifier_block *nb);
#endif

#endif /* _KERNEL_USER_BOOTED_INTERNAL_H */
