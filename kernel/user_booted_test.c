// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for the user_booted phase machine.  Each case runs the real code
 * (kernel/user_booted.c) on an instance of its own, never on the system's.
 */

#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/rcupdate.h>
#include <linux/user_booted.h>

#include "user_booted_internal.h"

#define NR_RACERS	8

struct counting_nb {
	struct notifier_block nb;
	struct user_booted_state *s;
	atomic_t calls;
	unsigned long reason;
	bool booted_seen;	/* user_booted() of its instance, while told */
	bool reader_seen;	/* in an RCU reader, while told */
	u64 told_ns;		/* ktime_get_ns() when told */
};

static int counting_call(struct notifier_block *nb, unsigned long reason, void *data)
{
	struct counting_nb *c = container_of(nb, struct counting_nb, nb);

	atomic_inc(&c->calls);
	c->reason = reason;
	c->booted_seen = READ_ONCE(c->s->booted);
	c->told_ns = ktime_get_ns();
	/* Told in an RCU reader: a sleeping subscriber is reported. */
	c->reader_seen = IS_ENABLED(CONFIG_PREEMPT_RCU) ? rcu_preempt_depth() > 0 :
			 !IS_ENABLED(CONFIG_PREEMPT_COUNT) || !preemptible();
	udelay(5);		/* widens the racers' window */
	return NOTIFY_OK;
}

static void cancel_fallback(void *s)
{
	cancel_delayed_work_sync(&((struct user_booted_state *)s)->timeout_work);
}

static struct user_booted_state *new_state(struct kunit *test, bool report_expected)
{
	struct user_booted_state *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, s);
	user_booted_state_init(s, report_expected);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, cancel_fallback, s), 0);
	return s;
}

static struct counting_nb *new_nb(struct kunit *test, struct user_booted_state *s)
{
	struct counting_nb *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, c);
	c->nb.notifier_call = counting_call;
	c->s = s;
	/* Actions run in reverse: no fallback may fire once @c is freed. */
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, cancel_fallback, s), 0);
	return c;
}

static struct counting_nb *subscribe(struct kunit *test, struct user_booted_state *s)
{
	struct counting_nb *c = new_nb(test, s);

	KUNIT_EXPECT_EQ(test, user_booted_state_add(s, &c->nb, false), 0);
	return c;
}

static void expect_told(struct kunit *test, struct counting_nb *c, unsigned long reason)
{
	KUNIT_EXPECT_EQ(test, atomic_read(&c->calls), 1);
	KUNIT_EXPECT_EQ(test, c->reason, reason);
	KUNIT_EXPECT_TRUE(test, c->reader_seen);
}

/* No report expected: boot ends at launch, as on a kernel without this. */
static void launch_unreported_ends_boot(struct kunit *test)
{
	struct user_booted_state *s = new_state(test, false);
	struct counting_nb *c = subscribe(test, s), *d = new_nb(test, s);

	KUNIT_EXPECT_EQ(test, atomic_read(&c->calls), 0);
	user_booted_state_launch(s);
	expect_told(test, c, USER_BOOTED_UNREPORTED);
	KUNIT_EXPECT_TRUE(test, s->booted);
	KUNIT_EXPECT_FALSE(test, c->booted_seen);	/* set only after all are told */
	KUNIT_EXPECT_FALSE(test, delayed_work_pending(&s->timeout_work));
	KUNIT_EXPECT_NE(test, user_booted_state_add(s, &d->nb, true), 0);	/* no defer */
	KUNIT_EXPECT_EQ(test, atomic_read(&d->calls), 0);
}

static void report_ends_boot_once(struct kunit *test)
{
	struct user_booted_state *s = new_state(test, true);
	struct counting_nb *c = subscribe(test, s), *d = new_nb(test, s);

	KUNIT_EXPECT_NE(test, user_booted_state_add(s, &d->nb, true), 0);	/* not launched */
	user_booted_state_launch(s);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->calls), 0);
	KUNIT_EXPECT_FALSE(test, s->booted);
	KUNIT_EXPECT_TRUE(test, delayed_work_pending(&s->timeout_work));
	KUNIT_EXPECT_EQ(test, user_booted_state_add(s, &d->nb, true), 0);	/* deferred */
	user_booted_state_end(s, USER_BOOTED_REPORTED);
	expect_told(test, c, USER_BOOTED_REPORTED);
	expect_told(test, d, USER_BOOTED_REPORTED);
	KUNIT_EXPECT_FALSE(test, delayed_work_pending(&s->timeout_work));
	/* Nothing ends it twice, and nothing stays on the chain. */
	user_booted_state_end(s, USER_BOOTED_REPORTED);
	user_booted_state_end(s, USER_BOOTED_SLEEP);
	user_booted_timeout_fn(&s->timeout_work.work);
	expect_told(test, c, USER_BOOTED_REPORTED);
	KUNIT_EXPECT_EQ(test, s->reason, USER_BOOTED_REPORTED);
	KUNIT_EXPECT_TRUE(test, !rcu_access_pointer(s->chain.head));
}

/* sysctl.kernel.user_booted=1: do_sysctl_args() writes it before launch. */
static void report_before_launch_ends_boot_at_once(struct kunit *test)
{
	struct user_booted_state *s = new_state(test, true);
	struct counting_nb *c = subscribe(test, s);

	user_booted_state_end(s, USER_BOOTED_REPORTED);
	expect_told(test, c, USER_BOOTED_REPORTED);
	user_booted_state_launch(s);
	expect_told(test, c, USER_BOOTED_REPORTED);
	KUNIT_EXPECT_FALSE(test, delayed_work_pending(&s->timeout_work));
}

static void timeout_ends_boot(struct kunit *test)
{
	struct user_booted_state *s = new_state(test, true);
	struct counting_nb *c = subscribe(test, s);
	unsigned long t0 = jiffies;

	s->timeout_secs = 1;			/* as user_booted_timeout=1 */
	KUNIT_EXPECT_FALSE(test, delayed_work_pending(&s->timeout_work));
	user_booted_state_launch(s);
	/* As user_booted() reads it: pairs with the release in the end. */
	while (!smp_load_acquire(&s->booted) && time_before(jiffies, t0 + 60 * HZ))
		msleep(20);
	expect_told(test, c, USER_BOOTED_TIMEOUT);
	KUNIT_EXPECT_GE(test, jiffies - t0, HZ);	/* never early */
	KUNIT_EXPECT_GE(test, c->told_ns - s->launch_ns, NSEC_PER_SEC);
}

/* Run early, as when jiffies lagged at launch: it waits again, not less. */
static void early_timeout_waits_again(struct kunit *test)
{
	struct user_booted_state *s = new_state(test, true);
	struct counting_nb *c = subscribe(test, s);
	unsigned long left;

	user_booted_state_launch(s);		/* the default timeout */
	cancel_delayed_work_sync(&s->timeout_work);
	user_booted_timeout_fn(&s->timeout_work.work);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->calls), 0);
	KUNIT_EXPECT_FALSE(test, s->booted);
	KUNIT_EXPECT_TRUE(test, delayed_work_pending(&s->timeout_work));
	left = READ_ONCE(s->timeout_work.timer.expires) - jiffies;
	KUNIT_EXPECT_GE(test, left, secs_to_jiffies(s->timeout_secs - 1));
}

/* The PM notifier's reasons: before launch a sleep ends nothing. */
static void sleep_ends_boot(struct kunit *test)
{
	static const enum user_booted_reason reasons[] = {
		USER_BOOTED_SLEEP, USER_BOOTED_RESTORE,
	};
	int i;

	for (i = 0; i < ARRAY_SIZE(reasons); i++) {
		struct user_booted_state *s = new_state(test, true);
		struct counting_nb *c = subscribe(test, s);

		user_booted_state_end(s, reasons[i]);	/* resume=, test_suspend= */
		KUNIT_EXPECT_EQ(test, atomic_read(&c->calls), 0);
		user_booted_state_launch(s);
		user_booted_state_end(s, reasons[i]);
		expect_told(test, c, reasons[i]);
		KUNIT_EXPECT_FALSE(test, delayed_work_pending(&s->timeout_work));
	}
}

static void late_registrant_told_at_once_not_added(struct kunit *test)
{
	struct user_booted_state *s = new_state(test, true);
	struct counting_nb *c;

	user_booted_state_launch(s);
	user_booted_state_end(s, USER_BOOTED_SLEEP);
	c = subscribe(test, s);
	expect_told(test, c, USER_BOOTED_SLEEP);
	KUNIT_EXPECT_TRUE(test, c->booted_seen);
	KUNIT_EXPECT_TRUE(test, !rcu_access_pointer(s->chain.head));
	KUNIT_EXPECT_NE(test, user_booted_state_add(s, &c->nb, true), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->calls), 1);	/* defer: not told */
}

struct racer {
	struct user_booted_state *s;
	struct completion *go, done;
	struct counting_nb c;	/* each racer also registers one */
	int kind;
	bool booted_on_return;
};

static int racer_fn(void *arg)
{
	struct racer *r = arg;

	wait_for_completion(r->go);
	if (r->kind == 0)
		user_booted_state_end(r->s, USER_BOOTED_REPORTED);
	else if (r->kind == 1)
		user_booted_state_end(r->s, USER_BOOTED_SLEEP);
	else
		user_booted_timeout_fn(&r->s->timeout_work.work);	/* as if it fired */
	/* The report and the sleep return after every subscriber was told. */
	r->booted_on_return = smp_load_acquire(&r->s->booted);
	user_booted_state_add(r->s, &r->c.nb, false);
	/* Not complete(): the module may go once the test has seen it. */
	kthread_complete_and_exit(&r->done, 0);
}

static void racing_ends_tell_each_subscriber_once(struct kunit *test)
{
	struct user_booted_state *s;
	struct racer *r = kunit_kcalloc(test, NR_RACERS, sizeof(*r), GFP_KERNEL);
	DECLARE_COMPLETION_ONSTACK(go);
	struct counting_nb *early;
	int i, round;

	KUNIT_ASSERT_NOT_NULL(test, r);
	for (round = 0; round < 20; round++) {
		s = new_state(test, true);
		early = subscribe(test, s);
		user_booted_state_launch(s);
		/* The fallback is due (may wrap: only differences are used). */
		s->launch_ns -= (u64)s->timeout_secs * NSEC_PER_SEC;
		reinit_completion(&go);
		for (i = 0; i < NR_RACERS; i++) {
			struct task_struct *t;

			r[i] = (struct racer){ .s = s, .go = &go, .kind = i % 3 };
			r[i].c.nb.notifier_call = counting_call;
			r[i].c.s = s;
			init_completion(&r[i].done);
			t = kthread_run(racer_fn, &r[i], "ub_racer/%d", i);
			if (IS_ERR(t)) {
				complete_all(&go);
				while (i--)
					wait_for_completion(&r[i].done);
				KUNIT_FAIL(test, "kthread_run: %ld", PTR_ERR(t));
				return;
			}
		}
		complete_all(&go);
		for (i = 0; i < NR_RACERS; i++) {
			wait_for_completion(&r[i].done);
			KUNIT_EXPECT_TRUE(test, r[i].booted_on_return);
		}
		KUNIT_EXPECT_FALSE(test, delayed_work_pending(&s->timeout_work));
		KUNIT_EXPECT_TRUE(test, s->booted);
		expect_told(test, early, s->reason);
		for (i = 0; i < NR_RACERS; i++)
			expect_told(test, &r[i].c, s->reason);
	}
}

static struct kunit_case user_booted_test_cases[] = {
	KUNIT_CASE(launch_unreported_ends_boot),
	KUNIT_CASE(report_ends_boot_once),
	KUNIT_CASE(report_before_launch_ends_boot_at_once),
	KUNIT_CASE_SLOW(timeout_ends_boot),
	KUNIT_CASE(early_timeout_waits_again),
	KUNIT_CASE(sleep_ends_boot),
	KUNIT_CASE(late_registrant_told_at_once_not_added),
	KUNIT_CASE(racing_ends_tell_each_subscriber_once),
	{}
};

static struct kunit_suite user_booted_test_suite = {
	.name = "user_booted",
	.test_cases = user_booted_test_cases,
};

kunit_test_suite(user_booted_test_suite);

MODULE_DESCRIPTION("KUnit tests for the user_booted phase machine");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS("EXPORTED_FOR_KUNIT_TESTING");
