// SPDX-License-Identifier: GPL-2.0-only
/*
 * Tell the kernel when userspace has finished booting: subscribers are told
 * once, when init writes 1 to kernel.user_booted, the fallback expires or the
 * system sleeps; without user_booted_reported, at init launch as before.
 * See Documentation/core-api/user_booted.rst.
 */

#define pr_fmt(fmt) "user_booted: " fmt

#include <linux/capability.h>
#include <linux/crash_dump.h>
#include <linux/export.h>
#include <linux/ktime.h>
#include <linux/pid_namespace.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/suspend.h>
#include <kunit/visibility.h>

#include "user_booted_internal.h"

#define CREATE_TRACE_POINTS
#include <trace/events/user_booted.h>

static const char * const reason_names[] = {
	[USER_BOOTED_UNREPORTED] = "unreported",
	[USER_BOOTED_REPORTED] = "reported",
	[USER_BOOTED_TIMEOUT] = "timeout",
	[USER_BOOTED_SLEEP] = "sleep",
	[USER_BOOTED_RESTORE] = "restore",
};

/* A kdump capture kernel's init (makedumpfile's initramfs) never reports. */
static bool user_booted_state_reports(const struct user_booted_state *s)
{
	return s->report_expected && !(s->system && is_kdump_kernel());
}

/* The system's line in the log and its tracepoint; KUnit's instances have none. */
static void user_booted_log(struct user_booted_state *s, enum user_booted_reason reason,
			    u64 start)
{
	u64 since = start - s->launch_ns;
	u32 ns;

	trace_user_booted(reason, s->launched ? since : 0);
	if (reason == USER_BOOTED_TIMEOUT)
		pr_warn("init did not report within %u s: ending userspace boot; have init write 1 to kernel.user_booted or raise user_booted_timeout=\n",
			s->timeout_secs);
	since = div_u64_rem(since, NSEC_PER_SEC, &ns);
	/* Nothing new at info level unless init was asked to report. */
	if (user_booted_state_reports(s) && s->launched)
		pr_info("userspace boot ended (%s) %llu.%03u s after init launch, by %s[%d]; subscribers told in %llu us\n",
			reason_names[reason], since, ns / (u32)NSEC_PER_MSEC,
			current->comm, task_pid_nr(current),
			div_u64(ktime_get_ns() - start, NSEC_PER_USEC));
}

/*
 * Subscribers are told in an RCU read-side critical section, as an atomic
 * notifier chain tells its own: one that sleeps, holding init in its
 * write, is reported the first time it runs (PREEMPT_RT's sleeping
 * spinlocks stay allowed).
 */
static int user_booted_tell_chain(struct raw_notifier_head *chain,
				  enum user_booted_reason reason)
{
	int ret;

	rcu_read_lock();
	ret = raw_notifier_call_chain(chain, reason, NULL);
	rcu_read_unlock();
	return ret;
}

static void user_booted_tell_one(struct notifier_block *nb, enum user_booted_reason reason)
{
	rcu_read_lock();
	nb->notifier_call(nb, reason, NULL);
	rcu_read_unlock();
}

/* End userspace boot, once: tell the subscribers, log, wake pollers. */
static void user_booted_end(struct user_booted_state *s, enum user_booted_reason reason)
{
	u64 start = ktime_get_ns();

	lockdep_assert_held(&s->lock);
	if (s->reason)
		return;
	s->reason = reason;
	cancel_delayed_work(&s->timeout_work);	/* a running one finds s->reason */
	/* NOTIFY_STOP would hide the event from the rest: not allowed. */
	WARN_ONCE(user_booted_tell_chain(&s->chain, reason) & NOTIFY_STOP_MASK,
		  "user_booted: a subscriber returned NOTIFY_STOP\n");
	RAW_INIT_NOTIFIER_HEAD(&s->chain);	/* told: nothing is kept */
	smp_store_release(&s->booted, true);	/* pairs with user_booted() */
	if (s->system)
		user_booted_log(s, reason, start);
	proc_sys_poll_notify(&s->poll);	/* last: pollers find the log line */
}

/* Arm the fallback to run when @ns of awake time have passed, not sooner. */
static void user_booted_arm(struct user_booted_state *s, u64 ns)
{
	/* +1: nsecs_to_jiffies() rounds down, and a jiffy may have begun */
	queue_delayed_work(system_dfl_wq, &s->timeout_work, nsecs_to_jiffies(ns) + 1);
}

VISIBLE_IF_KUNIT void user_booted_timeout_fn(struct work_struct *work)
{
	struct user_booted_state *s = container_of(to_delayed_work(work),
						   struct user_booted_state, timeout_work);
	s64 left;

	mutex_lock(&s->lock);
	if (s->reason)
		goto out;
	/* jiffies can lag the clock launch_ns was read from: never end early. */
	left = s->launch_ns + (u64)s->timeout_secs * NSEC_PER_SEC - ktime_get_ns();
	if (left > 0)
		user_booted_arm(s, left);
	else
		user_booted_end(s, USER_BOOTED_TIMEOUT);
out:
	mutex_unlock(&s->lock);
}
EXPORT_SYMBOL_IF_KUNIT(user_booted_timeout_fn);

static struct user_booted_state ub = {	/* the system's; KUnit makes its own */
	.lock = __MUTEX_INITIALIZER(ub.lock),
	.timeout_work = __DELAYED_WORK_INITIALIZER(ub.timeout_work,
						   user_booted_timeout_fn, 0),
	.poll = __CTL_TABLE_POLL_INITIALIZER(ub.poll),
	.timeout_secs = USER_BOOTED_DEFAULT_TIMEOUT,
	.report_expected = IS_ENABLED(CONFIG_USER_BOOTED_REPORTED),
	.system = true,
};

VISIBLE_IF_KUNIT void user_booted_state_launch(struct user_booted_state *s)
{
	mutex_lock(&s->lock);
	s->launched = true;
	s->launch_ns = ktime_get_ns();
	if (!user_booted_state_reports(s))
		user_booted_end(s, USER_BOOTED_UNREPORTED);
	else if (!s->reason)	/* the fallback: awake time after launch */
		user_booted_arm(s, (u64)s->timeout_secs * NSEC_PER_SEC);
	mutex_unlock(&s->lock);
}
EXPORT_SYMBOL_IF_KUNIT(user_booted_state_launch);

/* A write ends boot at once, even before launch; a sleep only after it. */
VISIBLE_IF_KUNIT void user_booted_state_end(struct user_booted_state *s,
					    enum user_booted_reason reason)
{
	mutex_lock(&s->lock);
	if (s->launched || reason == USER_BOOTED_REPORTED)
		user_booted_end(s, reason);
	mutex_unlock(&s->lock);
}
EXPORT_SYMBOL_IF_KUNIT(user_booted_state_end);

/* Add @nb while userspace boots (to defer: after launch); if late, tell it. */
VISIBLE_IF_KUNIT int user_booted_state_add(struct user_booted_state *s,
					   struct notifier_block *nb, bool defer)
{
	enum user_booted_reason late;
	int ret = defer ? -EALREADY : 0;

	mutex_lock(&s->lock);
	late = s->reason;
	if (!late && (s->launched || !defer))
		ret = raw_notifier_chain_register(&s->chain, nb);
	mutex_unlock(&s->lock);
	if (late && !defer)
		user_booted_tell_one(nb, late);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(user_booted_state_add);

/**
 * user_booted() - has userspace finished booting?
 *
 * Return: true once userspace boot has ended and every subscriber was told;
 * a snapshot, from any context: to act once when boot ends, subscribe.
 */
bool user_booted(void)
{
	return smp_load_acquire(&ub.booted);	/* pairs with user_booted_end() */
}
EXPORT_SYMBOL_GPL(user_booted);

/**
 * user_booted_report_expected() - will init report the end of its boot?
 *
 * Return: true with ``user_booted_reported``, except in a kdump capture
 * kernel; fixed before any initcall.
 */
bool user_booted_report_expected(void)
{
	return user_booted_state_reports(&ub);
}
EXPORT_SYMBOL_GPL(user_booted_report_expected);

/**
 * user_booted_register_notifier() - be told when userspace boot ends
 * @nb: its callback gets an &enum user_booted_reason (for messages) as @action
 *
 * Process context, may sleep.  @nb's callback is called once, in an RCU
 * read-side critical section as an atomic notifier's is, and must not
 * block (it queues work for anything more): the task that ended boot,
 * init in its write, waits for it.  A callback that sleeps is reported
 * the first time it runs.  While userspace boots @nb is added and called
 * when boot ends, one subscriber at a time under the core's mutex (when a
 * sleep ends boot, also under system_transition_mutex and the PM chain's
 * rwsem).  Once boot has
 * ended @nb is called at once from the registering task, without that
 * mutex, possibly beside other late registrants, and is not added.  A
 * module must unregister before it is unloaded.
 * Return: 0; -EEXIST if @nb is registered already (a bug: the chain warns);
 * -EOPNOTSUPP without the core.
 */
int user_booted_register_notifier(struct notifier_block *nb)
{
	return user_booted_state_add(&ub, nb, false);
}
EXPORT_SYMBOL_GPL(user_booted_register_notifier);

/**
 * user_booted_unregister_notifier() - stop being told
 * @nb: notifier passed to user_booted_register_notifier()
 *
 * Return: 0 if @nb was removed untold; -ENOENT if it was told already (the
 * chain is emptied when boot ends) or never added (a late registrant).
 */
int user_booted_unregister_notifier(struct notifier_block *nb)
{
	int ret;

	mutex_lock(&ub.lock);	/* and so waits for a delivery in progress */
	ret = raw_notifier_chain_unregister(&ub.chain, nb);
	mutex_unlock(&ub.lock);
	return ret;
}
EXPORT_SYMBOL_GPL(user_booted_unregister_notifier);

/**
 * user_booted_defer() - hold back end-of-boot cleanup while userspace boots
 * @nb: notifier to call when userspace boot ends; its callback must not sleep
 *
 * For cleanup on a subsystem's own timer: call it when the timer expires; if
 * true, clean up from work that @nb's callback queues: never earlier than
 * the timer.
 * Process context, not from a user_booted callback.
 * Return: true if init was launched, is to report and has not; @nb is added.
 */
bool user_booted_defer(struct notifier_block *nb)
{
	return !user_booted_state_add(&ub, nb, true);
}

/* By kernel_init() only, after do_sysctl_args(): init is about to run. */
void user_booted_init_launched(void)
{
	user_booted_state_launch(&ub);
}

/*
 * Besides 0644: CAP_SYS_ADMIN, and reboot(2)'s rule that only the initial PID
 * namespace acts on the system; the PID namespace first: no audit.
 */
static bool user_booted_may_write(void)
{
	return task_active_pid_ns(current) == &init_pid_ns && capable(CAP_SYS_ADMIN);
}

static int user_booted_sysctl(const struct ctl_table *table, int dir,
			      void *buffer, size_t *lenp, loff_t *ppos)
{
	int val = user_booted();
	const struct ctl_table t = { .data = &val, .maxlen = sizeof(val),
		.extra1 = SYSCTL_ONE, .extra2 = SYSCTL_ONE };
	int ret;

	if (SYSCTL_USER_TO_KERN(dir) && !user_booted_may_write())
		return -EPERM;
	ret = proc_dointvec_minmax(&t, dir, buffer, lenp, ppos);
	if (!ret && SYSCTL_USER_TO_KERN(dir) && val)	/* 1 written, or booted */
		user_booted_state_end(&ub, USER_BOOTED_REPORTED);
	return ret;
}

static const struct ctl_table user_booted_table[] = {
	{ .procname = "user_booted", .mode = 0644, .proc_handler = user_booted_sysctl,
	  .poll = &ub.poll },
	/* Read-only: set by user_booted_timeout= before init runs. */
	{ .procname = "user_booted_timeout", .mode = 0444,
	  .data = &ub.timeout_secs, .maxlen = sizeof(ub.timeout_secs),
	  .proc_handler = proc_douintvec },
};

/* As rcu_pm_notify() acts on the same events. */
static int user_booted_pm_notify(struct notifier_block *nb, unsigned long action,
				 void *unused)
{
	if (action == PM_SUSPEND_PREPARE || action == PM_HIBERNATION_PREPARE)
		user_booted_state_end(&ub, USER_BOOTED_SLEEP);
	else if (action == PM_RESTORE_PREPARE)
		user_booted_state_end(&ub, USER_BOOTED_RESTORE);
	return NOTIFY_DONE;
}

static int __init user_booted_init(void)
{
	register_sysctl_init("kernel", user_booted_table);
	pm_notifier(user_booted_pm_notify, 0);
	return 0;
}
subsys_initcall(user_booted_init);

static int __init user_booted_reported_setup(char *str)
{
	if (!*str)
		ub.report_expected = true;
	else if (*str != '=')
		return 0;	/* another parameter sharing the prefix */
	else if (kstrtobool(str + 1, &ub.report_expected))
		pr_warn("user_booted_reported%s: not a boolean, ignored\n", str);
	return 1;
}
__setup("user_booted_reported", user_booted_reported_setup);

/*
 * The fallback is fixed before init runs, so that nothing but init's report
 * ends boot early; kernel.user_booted_timeout shows it, read-only.
 */
static int __init user_booted_timeout_setup(char *str)
{
	unsigned int secs;

	if (kstrtouint(str, 10, &secs) || !secs || secs > USER_BOOTED_MAX_TIMEOUT)
		pr_warn("user_booted_timeout=%s: not 1 to %u seconds, ignored\n",
			str, USER_BOOTED_MAX_TIMEOUT);
	else
		ub.timeout_secs = secs;
	return 1;
}
__setup("user_booted_timeout=", user_booted_timeout_setup);
