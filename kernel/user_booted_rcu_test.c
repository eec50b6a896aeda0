// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit test of RCU's user_booted subscriber, on the running system: load it
 * while userspace boots and again after, and it checks the mode RCU is in.
 * A missed or doubled drop of the boot-time nesting shows here, since the
 * nestings are then nonzero after boot.
 */

#include <kunit/test.h>
#include <linux/moduleparam.h>
#include <linux/user_booted.h>

#include "rcu/rcu.h"

/*
 * What the boot's command line asked for, told by the harness, since the
 * knobs are private to RCU: rcupdate.rcu_expedited=1 (as Android boots),
 * and whether RCU keeps its boot mode until userspace has booted (not by
 * default with nohz_full= or rcupdate.rcu_normal_after_boot=1).
 */
static bool admin_expedites;
module_param(admin_expedites, bool, 0444);
MODULE_PARM_DESC(admin_expedites, "booted with rcupdate.rcu_expedited=1");
static bool follows = true;
module_param(follows, bool, 0444);
MODULE_PARM_DESC(follows, "RCU is to keep boot mode until userspace has booted");
static bool normal_after_boot;
module_param(normal_after_boot, bool, 0444);
MODULE_PARM_DESC(normal_after_boot, "booted with rcupdate.rcu_normal_after_boot=1");

/* Tiny RCU never expedites: nothing to follow. */
static int user_booted_rcu_test_init(struct kunit *test)
{
	if (IS_ENABLED(CONFIG_TINY_RCU))
		kunit_skip(test, "Tiny RCU has no boot-time expediting");
	return 0;
}

static void expedited_and_hurried_while_userspace_boots(struct kunit *test)
{
	if (user_booted())
		kunit_skip(test, "userspace boot has ended; load me before the report");
	if (!user_booted_report_expected())
		kunit_skip(test, "booted without user_booted_reported");
	if (!follows)
		kunit_skip(test, "RCU does not follow user_booted on this boot");
	KUNIT_EXPECT_TRUE(test, rcu_gp_is_expedited());
	if (IS_ENABLED(CONFIG_RCU_LAZY))
		KUNIT_EXPECT_TRUE(test, rcu_async_should_hurry());
}

/* nohz_full, RT: boot mode ended at init launch, as it always did. */
static void not_following_ends_boot_mode_at_launch(struct kunit *test)
{
	if (follows)
		kunit_skip(test, "RCU follows user_booted on this boot");
	KUNIT_EXPECT_EQ(test, rcu_gp_is_expedited(), admin_expedites);
	if (IS_ENABLED(CONFIG_RCU_LAZY))
		KUNIT_EXPECT_FALSE(test, rcu_async_should_hurry());
	KUNIT_EXPECT_EQ(test, rcu_gp_is_normal(), normal_after_boot);
}

static void normal_and_lazy_once_userspace_has_booted(struct kunit *test)
{
	if (!user_booted())
		kunit_skip(test, "userspace still booting; load me after the report");
	KUNIT_EXPECT_EQ(test, rcu_gp_is_expedited(), admin_expedites);
	if (IS_ENABLED(CONFIG_RCU_LAZY))
		KUNIT_EXPECT_FALSE(test, rcu_async_should_hurry());
	KUNIT_EXPECT_EQ(test, rcu_gp_is_normal(), normal_after_boot);
	KUNIT_EXPECT_TRUE(test, rcu_inkernel_boot_has_ended());
}

static struct kunit_case user_booted_rcu_test_cases[] = {
	KUNIT_CASE(expedited_and_hurried_while_userspace_boots),
	KUNIT_CASE(not_following_ends_boot_mode_at_launch),
	KUNIT_CASE(normal_and_lazy_once_userspace_has_booted),
	{}
};

static struct kunit_suite user_booted_rcu_test_suite = {
	.name = "user_booted_rcu",
	.init = user_booted_rcu_test_init,
	.test_cases = user_booted_rcu_test_cases,
};

kunit_test_suite(user_booted_rcu_test_suite);

MODULE_DESCRIPTION("KUnit test of RCU's user_booted subscriber");
MODULE_LICENSE("GPL");
