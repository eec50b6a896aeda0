// SPDX-License-Identifier: GPL-2.0-only
/*
 * Keep a boot-time behaviour until userspace has booted, the documented way
 * (Documentation/core-api/user_booted.rst, "Subscribing").
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/user_booted.h>

static int sample_user_booted(struct notifier_block *nb, unsigned long reason,
			      void *unused)
{
	pr_info("userspace has booted (reason %lu): boot mode ends\n", reason);
	return NOTIFY_OK;
}

static struct notifier_block sample_nb = { .notifier_call = sample_user_booted };

static int __init sample_init(void)
{
	if (!user_booted_report_expected())
		return 0;	/* boot mode ended with the in-kernel boot */
	pr_info("boot mode until userspace has booted\n");
	return user_booted_register_notifier(&sample_nb);
}

static void __exit sample_exit(void)
{
	user_booted_unregister_notifier(&sample_nb);	/* -ENOENT once told */
}

module_init(sample_init);
module_exit(sample_exit);
MODULE_DESCRIPTION("Sample user_booted subscriber");
MODULE_LICENSE("GPL");
