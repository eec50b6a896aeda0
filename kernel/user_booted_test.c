// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for the user_booted state machine.  Each case runs on a private
 * struct user_booted_state, so the system's own boot state is never touched.
 */

#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/notifier.h>
#include <linux/user_booted.h>

#include "user_booted_internal.h"

#define NR_RACERS	8
#define NR_SUBSCRIBERS	4

struct counting_nb {
	struct notifier_block nb;
	atomic_t calls;
	unsigned long reason;
	int order;		/* position among all calls, from *next_order */
	atomic_t *next_order;
	bool slept;
};

static int counting_call(struct notifier_block *nb, unsigned long reason, void *data)
{
	struct counting_nb *c = container_of(nb, struct counting_nb, nb);

	atomic_inc(&c->calls);
	c->reason = reason;
	if (c->next_order)
		c->order = atomic_inc_return(c->next_order);
	/* Subscribers may sleep: prove it. */
	might_sleep();
	usleep_range(10, 20);
	c->slept = true;
	return NOTIFY_OK;
}

static struct user_booted_state *new_state(struct kunit *test)
{
	struct user_booted_state *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, s);
	user_booted_state_init(s);
	return s;
}

static void counting_init(struct counting_nb *c, atomic_t *next_order, int priority)
{
	memset(c, 0, sizeof(*c));
	c->nb.notifier_call = counting_call;
	c->nb.priority = priority;
	c->next_order = next_order;
}

static void end_tells_each_subscriber_once(struct kunit *test)
{
	struct user_booted_state *s = new_state(test);
	struct counting_nb c[NR_SUBSCRIBERS];
	int i;

	for (i = 0; i < NR_SUBSCRIBERS; i++) {
		counting_init(&c[i], NULL, 0);
		KUNIT_ASSERT_EQ(test, user_booted_state_register(s, &c[i].nb), 0);
		KUNIT_EXPECT_EQ(test, atomic_read(&c[i].calls), 0);
	}
	KUNIT_EXPECT_FALSE(test, s->booted);

	KUNIT_EXPECT_TRUE(test, user_booted_state_end(s, USER_BOOTED_REPORTED));
	KUNIT_EXPECT_TRUE(test, s->booted);
	for (i = 0; i < NR_SUBSCRIBERS; i++) {
		KUNIT_EXPECT_EQ(test, atomic_read(&c[i].calls), 1);
		KUNIT_EXPECT_EQ(test, c[i].reason, USER_BOOTED_REPORTED);
		KUNIT_EXPECT_TRUE(test, c[i].slept);
	}
}

static void second_end_is_ignored(struct kunit *test)
{
	struct user_booted_state *s = new_state(test);
	struct counting_nb c;

	counting_init(&c, NULL, 0);
	user_booted_state_register(s, &c.nb);
	KUNIT_EXPECT_TRUE(test, user_booted_state_end(s, USER_BOOTED_REPORTED));
	KUNIT_EXPECT_FALSE(test, user_booted_state_end(s, USER_BOOTED_TIMEOUT));
	KUNIT_EXPECT_FALSE(test, user_booted_state_end(s, USER_BOOTED_REPORTED));
	KUNIT_EXPECT_EQ(test, atomic_read(&c.calls), 1);
	KUNIT_EXPECT_EQ(test, s->reason, USER_BOOTED_REPORTED);
}

static void each_reason_is_delivered(struct kunit *test)
{
	static const enum user_booted_reason reasons[] = {
		USER_BOOTED_UNREPORTED, USER_BOOTED_CMDLINE,
		USER_BOOTED_REPORTED, USER_BOOTED_TIMEOUT,
	};
	int i;

	for (i = 0; i < ARRAY_SIZE(reasons); i++) {
		struct user_booted_state *s = new_state(test);
		struct counting_nb c;

		counting_init(&c, NULL, 0);
		user_booted_state_register(s, &c.nb);
		user_booted_state_end(s, reasons[i]);
		KUNIT_EXPECT_EQ(test, c.reason, reasons[i]);
		KUNIT_EXPECT_STRNEQ(test, user_booted_reason_name(reasons[i]), "booting");
	}
	KUNIT_EXPECT_STREQ(test, user_booted_reason_name(0), "booting");
	KUNIT_EXPECT_STREQ(test, user_booted_reason_name(USER_BOOTED_TIMEOUT + 1), "booting");
}

static void subscribers_run_in_priority_order(struct kunit *test)
{
	struct user_booted_state *s = new_state(test);
	struct counting_nb low, high;
	atomic_t order = ATOMIC_INIT(0);

	counting_init(&low, &order, 0);
	counting_init(&high, &order, 10);
	user_booted_state_register(s, &low.nb);
	user_booted_state_register(s, &high.nb);
	user_booted_state_end(s, USER_BOOTED_REPORTED);
	KUNIT_EXPECT_EQ(test, high.order, 1);
	KUNIT_EXPECT_EQ(test, low.order, 2);
}

static void late_registrant_is_told_at_once(struct kunit *test)
{
	struct user_booted_state *s = new_state(test);
	struct counting_nb c;

	user_booted_state_end(s, USER_BOOTED_TIMEOUT);
	counting_init(&c, NULL, 0);
	KUNIT_ASSERT_EQ(test, user_booted_state_register(s, &c.nb), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&c.calls), 1);
	KUNIT_EXPECT_EQ(test, c.reason, USER_BOOTED_TIMEOUT);
	/* ...and never again. */
	user_booted_state_end(s, USER_BOOTED_REPORTED);
	KUNIT_EXPECT_EQ(test, atomic_read(&c.calls), 1);
	KUNIT_EXPECT_EQ(test, user_booted_state_unregister(s, &c.nb), 0);
}

static void unregistered_subscriber_is_not_told(struct kunit *test)
{
	struct user_booted_state *s = new_state(test);
	struct counting_nb stays, leaves;

	counting_init(&stays, NULL, 0);
	counting_init(&leaves, NULL, 0);
	user_booted_state_register(s, &stays.nb);
	user_booted_state_register(s, &leaves.nb);
	KUNIT_EXPECT_EQ(test, s->nr_subscribers, 2);
	KUNIT_EXPECT_EQ(test, user_booted_state_unregister(s, &leaves.nb), 0);
	KUNIT_EXPECT_EQ(test, user_booted_state_unregister(s, &leaves.nb), -ENOENT);
	KUNIT_EXPECT_EQ(test, s->nr_subscribers, 1);
	user_booted_state_end(s, USER_BOOTED_REPORTED);
	KUNIT_EXPECT_EQ(test, atomic_read(&stays.calls), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&leaves.calls), 0);
}

struct racer {
	struct user_booted_state *s;
	struct completion *go;
	enum user_booted_reason reason;
	bool won;
	bool booted_on_return;
	struct completion done;
};

static int racer_fn(void *arg)
{
	struct racer *r = arg;

	wait_for_completion(r->go);
	r->won = user_booted_state_end(r->s, r->reason);
	/* Whoever returns, every subscriber has been told. */
	r->booted_on_return = smp_load_acquire(&r->s->booted);
	complete(&r->done);
	return 0;
}

static void racing_ends_tell_each_subscriber_once(struct kunit *test)
{
	struct user_booted_state *s = new_state(test);
	/* Off the stack: KASAN redzones would make the frame too large. */
	struct counting_nb *c = kunit_kcalloc(test, NR_SUBSCRIBERS, sizeof(*c), GFP_KERNEL);
	struct racer *r = kunit_kcalloc(test, NR_RACERS, sizeof(*r), GFP_KERNEL);
	DECLARE_COMPLETION_ONSTACK(go);
	int i, winners = 0, round;

	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_ASSERT_NOT_NULL(test, r);

	for (round = 0; round < 20; round++) {
		user_booted_state_init(s);
		for (i = 0; i < NR_SUBSCRIBERS; i++) {
			counting_init(&c[i], NULL, 0);
			user_booted_state_register(s, &c[i].nb);
		}
		reinit_completion(&go);
		for (i = 0; i < NR_RACERS; i++) {
			struct task_struct *t;

			r[i] = (struct racer){
				.s = s, .go = &go,
				/* Writers and the timeout, mixed. */
				.reason = i % 2 ? USER_BOOTED_TIMEOUT : USER_BOOTED_REPORTED,
			};
			init_completion(&r[i].done);
			t = kthread_run(racer_fn, &r[i], "ub_racer/%d", i);
			if (IS_ERR(t)) {
				/* Let the racers started so far finish first. */
				complete_all(&go);
				while (i--)
					wait_for_completion(&r[i].done);
				KUNIT_FAIL(test, "kthread_run: %ld", PTR_ERR(t));
				return;
			}
		}
		complete_all(&go);
		winners = 0;
		for (i = 0; i < NR_RACERS; i++) {
			wait_for_completion(&r[i].done);
			winners += r[i].won;
			KUNIT_EXPECT_TRUE(test, r[i].booted_on_return);
		}
		KUNIT_EXPECT_EQ(test, winners, 1);
		for (i = 0; i < NR_SUBSCRIBERS; i++) {
			KUNIT_EXPECT_EQ(test, atomic_read(&c[i].calls), 1);
			KUNIT_EXPECT_EQ(test, c[i].reason, s->reason);
		}
	}
}

static struct kunit_case user_booted_test_cases[] = {
	KUNIT_CASE(end_tells_each_subscriber_once),
	KUNIT_CASE(second_end_is_ignored),
	KUNIT_CASE(each_reason_is_delivered),
	KUNIT_CASE(subscribers_run_in_priority_order),
	KUNIT_CASE(late_registrant_is_told_at_once),
	KUNIT_CASE(unregistered_subscriber_is_not_told),
	KUNIT_CASE(racing_ends_tell_each_subscriber_once),
	{}
};

static struct kunit_suite user_booted_test_suite = {
	.name = "user_booted",
	.test_cases = user_booted_test_cases,
};

kunit_test_suite(user_booted_test_suite);

MODULE_DESCRIPTION("KUnit tests for the user_booted state machine");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS("EXPORTED_FOR_KUNIT_TESTING");
