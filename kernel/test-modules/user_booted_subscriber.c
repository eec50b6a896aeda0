// SPDX-License-Identifier: GPL-2.0-only
/*
 * A counting user_booted subscriber for this repository's guest tests and
 * benchmark, not part of the series (samples/user_booted/ has the example):
 * it registers unconditionally and counts its deliveries.
 *
 * Parameters (read them under /sys/module/user_booted_subscriber/parameters/):
 *   subscribers  how many notifier_blocks to register at load (default 1)
 *   told         deliveries so far, over all of them
 *   duplicates   deliveries to a notifier_block that had already been told
 *   last_reason  the enum user_booted_reason of the last delivery
 *
 * A subscriber registered after userspace boot ended is told at once and not
 * kept: unregistering it then returns -ENOENT, which is fine to ignore.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/notifier.h>
#include <linux/slab.h>
#include <linux/user_booted.h>

static unsigned int subscribers = 1;
module_param(subscribers, uint, 0444);
MODULE_PARM_DESC(subscribers, "notifier_blocks to register (0..1000)");

/*
 * Registered subscribers are told one at a time under the core's mutex; a
 * late one is told in the loading task: plain counters do.
 */
static unsigned int told;
module_param(told, uint, 0444);
static unsigned int duplicates;
module_param(duplicates, uint, 0444);
static unsigned int last_reason;
module_param(last_reason, uint, 0444);

struct subscriber {
	struct notifier_block nb;
	bool told;
};

static struct subscriber *subs;

static int subscriber_notify(struct notifier_block *nb, unsigned long reason,
			     void *unused)
{
	struct subscriber *s = container_of(nb, struct subscriber, nb);

	if (s->told)
		duplicates++;
	s->told = true;
	told++;
	last_reason = reason;
	if (s == &subs[0])
		pr_info("told userspace has booted (reason %lu), user_booted()=%d\n",
			reason, user_booted());
	return NOTIFY_OK;
}

static int __init subscriber_init(void)
{
	unsigned int i;
	int ret;

	if (subscribers > 1000)
		return -EINVAL;
	subs = kcalloc(subscribers, sizeof(*subs), GFP_KERNEL);
	if (!subs)
		return -ENOMEM;
	pr_info("registering %u subscriber(s) %s userspace boot ended\n", subscribers,
		user_booted() ? "after" : "before");
	for (i = 0; i < subscribers; i++) {
		subs[i].nb.notifier_call = subscriber_notify;
		ret = user_booted_register_notifier(&subs[i].nb);
		if (ret)
			goto unwind;
	}
	return 0;
unwind:
	while (i--)
		user_booted_unregister_notifier(&subs[i].nb);
	kfree(subs);
	return ret;
}

static void __exit subscriber_exit(void)
{
	unsigned int i;

	/* -ENOENT for those already told: nothing to undo. */
	for (i = 0; i < subscribers; i++)
		user_booted_unregister_notifier(&subs[i].nb);
	kfree(subs);
}

module_init(subscriber_init);
module_exit(subscriber_exit);
MODULE_DESCRIPTION("Sample user_booted subscriber");
MODULE_LICENSE("GPL");
