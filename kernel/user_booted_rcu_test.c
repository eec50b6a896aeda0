// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit test of the policy of rcupdate.rcu_user_booted: whether RCU keeps
 * its boot mode until userspace has booted, for every value of the knob
 * and every boot.  It depends on nothing the running system says, so it
 * tests the same built in or as a module, before or after the report.
 *
 * When RCU actually drops boot mode (expedited grace periods, hurried
 * callbacks, rcu_normal_after_boot) is checked on real boots, from
 * userspace: the rcu:rcu_synchronize tracepoint says whether a
 * synchronize_rcu() was expedited, /sys/kernel/rcu_normal whether
 * rcu_normal_after_boot has applied.
 */

#include <kunit/test.h>

#include "rcu/rcu.h"

static const struct rcu_user_booted_case {
	const char *name;
	int knob;		/* rcupdate.rcu_user_booted */
	bool report_expected;	/* user_booted_reported */
	bool nohz_full;
	bool normal_after_boot;	/* rcupdate.rcu_normal_after_boot, RT */
	bool follows;
} rcu_user_booted_cases[] = {
	/* Without user_booted_reported, boot ends at init launch anyway. */
	{ "unreported, auto",		-1, false, false, false, false },
	{ "unreported, forced",		 1, false, false, false, false },
	{ "unreported, forced, RT",	 1, false, false, true,  false },
	/* Auto follows, unless nohz_full CPUs or RT want today's behaviour. */
	{ "reported, auto",		-1, true,  false, false, true  },
	{ "reported, auto, nohz_full",	-1, true,  true,  false, false },
	{ "reported, auto, RT",		-1, true,  false, true,  false },
	{ "reported, auto, both",	-1, true,  true,  true,  false },
	/* 0 never follows. */
	{ "reported, never",		 0, true,  false, false, false },
	{ "reported, never, RT",	 0, true,  false, true,  false },
	/* 1 follows even on nohz_full and RT systems. */
	{ "reported, forced",		 1, true,  false, false, true  },
	{ "reported, forced, nohz_full", 1, true,  true,  false, true  },
	{ "reported, forced, RT",	 1, true,  false, true,  true  },
	{ "reported, forced, both",	 1, true,  true,  true,  true  },
	/* Any positive value is "1", as documented for the parameter. */
	{ "reported, 2, RT",		 2, true,  false, true,  true  },
};

static void rcu_user_booted_case_desc(const struct rcu_user_booted_case *c,
				      char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(rcu_user_booted, rcu_user_booted_cases,
		  rcu_user_booted_case_desc);

static void follows_user_booted(struct kunit *test)
{
	const struct rcu_user_booted_case *c = test->param_value;

#ifdef CONFIG_TINY_RCU
	kunit_skip(test, "Tiny RCU has no boot-time expediting (%s)", c->name);
#else
	KUNIT_EXPECT_EQ(test, rcu_user_booted_follows(c->knob, c->report_expected,
						      c->nohz_full,
						      c->normal_after_boot),
			c->follows);
#endif
}

static struct kunit_case user_booted_rcu_test_cases[] = {
	KUNIT_CASE_PARAM(follows_user_booted, rcu_user_booted_gen_params),
	{}
};

static struct kunit_suite user_booted_rcu_test_suite = {
	.name = "user_booted_rcu",
	.test_cases = user_booted_rcu_test_cases,
};

kunit_test_suite(user_booted_rcu_test_suite);

MODULE_DESCRIPTION("KUnit test of RCU's rcu_user_booted policy");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS("EXPORTED_FOR_KUNIT_TESTING");
