// SPDX-License-Identifier: GPL-2.0-only
/*
 * Tell the kernel when userspace has finished booting.
 *
 * The in-kernel boot ends when init is launched, but a modern boot goes on in
 * userspace for seconds after that.  Subsystems that keep boot-time behaviour
 * (RCU's expedited grace periods, for one) subscribe here and are told when
 * userspace boot ends: when init writes 1 to kernel.user_booted, when a
 * fallback timeout expires, or, if init was not expected to report (no
 * user_booted_reported on the command line), at init launch as before.
 *
 * Lock order: user_booted_lock, then the chain's lock, then what subscribers
 * take (call_rcu() in cgroup's rcu_sync_exit(), queue_work()).  A callback
 * must not take user_booted_lock, not even by flushing or cancel_*_sync()ing
 * a work item that calls user_booted_defer().
 *
 * See Documentation/core-api/user_booted.rst.
 */

#define pr_fmt(fmt) "user_booted: " fmt

#include <linux/capability.h>
#include <linux/export.h>
#include <linux/init.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/kstrtox.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/mutex.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/sched.h>
#include <linux/sysctl.h>
#include <linux/timekeeping.h>
#include <linux/user_booted.h>
#include <linux/workqueue.h>
#include <kunit/visibility.h>

#include "user_booted_internal.h"

#define CREATE_TRACE_POINTS
#include <trace/events/user_booted.h>

/*
 * End boot once: the first caller tells every subscriber, in process context
 * with @s->lock held; later callers wait for that and return false.
 */
VISIBLE_IF_KUNIT bool user_booted_state_end(struct user_booted_state *s,
					    enum user_booted_reason reason)
{
	bool first;

	mutex_lock(&s->lock);
	first = !s->reason;
	if (first) {
		int ret;

		s->reason = reason;
		ret = raw_notifier_call_chain(&s->chain, reason, NULL);
		/* NOTIFY_STOP would hide the event from the rest: not allowed. */
		WARN_ONCE(ret & NOTIFY_STOP_MASK,
			  "user_booted: a subscriber returned NOTIFY_STOP\n");
		/* Pairs with smp_load_acquire() in user_booted(). */
		smp_store_release(&s->booted, true);
	}
	mutex_unlock(&s->lock);
	return first;
}
EXPORT_SYMBOL_IF_KUNIT(user_booted_state_end);

/* A subscriber that comes late is told at once, with the same reason. */
VISIBLE_IF_KUNIT int user_booted_state_register(struct user_booted_state *s,
						struct notifier_block *nb)
{
	int ret;

	mutex_lock(&s->lock);
	ret = raw_notifier_chain_register(&s->chain, nb);
	if (!ret) {
		s->nr_subscribers++;
		if (s->reason)
			nb->notifier_call(nb, s->reason, NULL);
	}
	mutex_unlock(&s->lock);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(user_booted_state_register);

VISIBLE_IF_KUNIT int user_booted_state_unregister(struct user_booted_state *s,
						  struct notifier_block *nb)
{
	int ret;

	mutex_lock(&s->lock);
	ret = raw_notifier_chain_unregister(&s->chain, nb);
	if (!ret)
		s->nr_subscribers--;
	mutex_unlock(&s->lock);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(user_booted_state_unregister);

static struct user_booted_state user_booted_state = {
	.lock = __MUTEX_INITIALIZER(user_booted_state.lock),
	.chain = RAW_NOTIFIER_INIT(user_booted_state.chain),
};

/* Where the boot is, as far as this file is concerned. */
enum user_booted_phase {
	PHASE_KERNEL,		/* init not launched yet */
	PHASE_REQUESTED,	/* and 1 was written already (sysctl.* on the command line) */
	PHASE_USERSPACE,	/* init launched and expected to report */
	PHASE_ENDED,
};

/*
 * user_booted_lock serialises the phase, the launch time, the timeout and
 * its re-arming, and the end of boot with all of them: a timeout write
 * during delivery waits for it, and finds boot ended.
 */
static DEFINE_MUTEX(user_booted_lock);
static enum user_booted_phase phase = PHASE_KERNEL;
static u64 launch_ns;
static unsigned long launch_jiffies;
static unsigned int timeout_secs = CONFIG_USER_BOOTED_TIMEOUT;
static bool report_expected __ro_after_init = IS_ENABLED(CONFIG_USER_BOOTED_REPORTED);
static bool off_switch __ro_after_init;

static void user_booted_timeout_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(timeout_work, user_booted_timeout_fn);
/*
 * The fallback's: unbound, to keep off nohz_full and isolated CPUs, and
 * freezable, so that no subscriber is told while the system suspends, with
 * runtime PM off.
 */
static struct workqueue_struct *user_booted_wq __ro_after_init;
static DEFINE_CTL_TABLE_POLL(user_booted_poll);

static const char * const reason_names[] = {
	[USER_BOOTED_UNREPORTED] = "unreported",
	[USER_BOOTED_CMDLINE] = "cmdline",
	[USER_BOOTED_REPORTED] = "reported",
	[USER_BOOTED_TIMEOUT] = "timeout",
};

/**
 * user_booted() - has userspace finished booting?
 *
 * One load: cheap enough for hot paths, and callable from any context,
 * but only a snapshot: to act exactly once when boot ends, subscribe with
 * user_booted_register_notifier() instead of polling this.
 *
 * Return: true once userspace boot has ended and every subscriber has been
 * told, false while it is booting.
 */
bool user_booted(void)
{
	/* Pairs with smp_store_release() in user_booted_state_end(). */
	return smp_load_acquire(&user_booted_state.booted);
}
EXPORT_SYMBOL_GPL(user_booted);

/**
 * user_booted_report_expected() - will init report the end of its boot?
 *
 * Return: true if the kernel waits for init to write kernel.user_booted
 * (``user_booted_reported`` or CONFIG_USER_BOOTED_REPORTED), false if
 * userspace boot ends when init is launched: also with the off switch,
 * ``sysctl.kernel.user_booted=1`` on the command line.  Fixed once the
 * command line has been parsed, before any initcall runs.
 */
bool user_booted_report_expected(void)
{
	return report_expected && !off_switch;
}
EXPORT_SYMBOL_GPL(user_booted_report_expected);

/**
 * user_booted_reason_name() - name of a reason, for messages
 * @reason: an &enum user_booted_reason
 *
 * Return: "unreported", "cmdline", "reported", "timeout", or "booting" for
 * anything else.
 */
const char *user_booted_reason_name(enum user_booted_reason reason)
{
	if (reason >= USER_BOOTED_UNREPORTED && reason < ARRAY_SIZE(reason_names))
		return reason_names[reason];
	return "booting";
}
EXPORT_SYMBOL_GPL(user_booted_reason_name);

/**
 * user_booted_register_notifier() - be told when userspace boot ends
 * @nb: notifier; its callback gets the &enum user_booted_reason as @action
 *	and NULL as @data
 *
 * The callback runs once, in process context, and may sleep.  It runs with
 * the chain's mutex held (and, when boot ends, the core's own), so it must
 * not (un)register user_booted notifiers, write kernel.user_booted, nor wait
 * for a work item that calls user_booted_defer().  If userspace boot has
 * already ended it runs before this function returns, with that reason.
 *
 * Return: 0, or -EEXIST if @nb is already registered.  Without
 * CONFIG_USER_BOOTED, -EOPNOTSUPP: the callback would never come.
 */
int user_booted_register_notifier(struct notifier_block *nb)
{
	return user_booted_state_register(&user_booted_state, nb);
}
EXPORT_SYMBOL_GPL(user_booted_register_notifier);

/**
 * user_booted_unregister_notifier() - stop being told
 * @nb: notifier passed to user_booted_register_notifier()
 *
 * Waits for a notification in progress to finish.
 *
 * Return: 0, or -ENOENT if @nb was not registered.
 */
int user_booted_unregister_notifier(struct notifier_block *nb)
{
	return user_booted_state_unregister(&user_booted_state, nb);
}
EXPORT_SYMBOL_GPL(user_booted_unregister_notifier);

/**
 * user_booted_defer() - hold back end-of-boot cleanup while userspace boots
 * @nb: notifier to call when userspace boot ends
 *
 * For cleanup that a subsystem does on a timer of its own (unused
 * regulators off, forced sync_state()): call it from the timer's work item
 * when the timer expires; if it returns true, skip the cleanup and do it
 * from @nb's callback instead.  Such cleanup is then only ever later than
 * the timer, never earlier: before init is launched, without a report
 * expected, and once boot has ended, this returns false and the timer acts
 * as it always did.
 *
 * Process context only; not from a user_booted callback, nor under a lock
 * that a subscriber takes (see user_booted_register_notifier()).  Call it
 * once per @nb: registering @nb twice is a bug the notifier core warns of.
 *
 * Return: true if init was launched, is expected to report, and has not
 * yet ended userspace boot: @nb is registered and will be told.  false
 * otherwise (also if @nb is already registered, and without
 * CONFIG_USER_BOOTED): go ahead now.
 */
bool user_booted_defer(struct notifier_block *nb)
{
	bool defer;

	mutex_lock(&user_booted_lock);
	defer = phase == PHASE_USERSPACE &&
		!user_booted_state_register(&user_booted_state, nb);
	mutex_unlock(&user_booted_lock);
	return defer;
}

/* End userspace boot: tell the subscribers, log, wake pollers. */
static void user_booted_end_locked(enum user_booted_reason reason)
{
	u64 start = ktime_get_ns();
	u64 since_launch = start - launch_ns;
	u32 since_ns;
	u64 since_s = div_u64_rem(since_launch, NSEC_PER_SEC, &since_ns);

	lockdep_assert_held(&user_booted_lock);
	phase = PHASE_ENDED;
	cancel_delayed_work(&timeout_work);
	user_booted_state_end(&user_booted_state, reason);
	trace_user_booted(reason, since_launch);
	if (reason == USER_BOOTED_TIMEOUT)
		pr_warn("init did not report within %u s: ending userspace boot; have init write 1 to %s or tune kernel.user_booted_timeout\n",
			timeout_secs, USER_BOOTED_SYSCTL_PATH);
	/* Nothing new at info level unless init was asked to report. */
	if (report_expected)
		pr_info("userspace boot ended (%s) %llu.%03u s after init launch, by %s[%d]; %u subscribers told in %llu us\n",
			reason_names[reason], since_s, since_ns / (u32)NSEC_PER_MSEC,
			current->comm, task_pid_nr(current),
			user_booted_state.nr_subscribers,
			div_u64(ktime_get_ns() - start, NSEC_PER_USEC));
	else
		pr_debug("userspace boot ended (%s) at init launch\n", reason_names[reason]);
	/* Last: a woken poller finds the log lines above already there. */
#ifdef CONFIG_SYSCTL
	proc_sys_poll_notify(&user_booted_poll);
#endif
}

/* When the fallback is due: timeout_secs after init launch, in jiffies. */
static unsigned long user_booted_deadline(void)
{
	lockdep_assert_held(&user_booted_lock);
	return launch_jiffies + msecs_to_jiffies(timeout_secs * MSEC_PER_SEC);
}

static void user_booted_timeout_fn(struct work_struct *work)
{
	mutex_lock(&user_booted_lock);
	/*
	 * A timeout raised while this work waited for the lock has re-armed
	 * it for the new deadline: only a deadline that has passed ends boot.
	 */
	if (phase == PHASE_USERSPACE &&
	    time_after_eq(jiffies, user_booted_deadline()))
		user_booted_end_locked(USER_BOOTED_TIMEOUT);
	mutex_unlock(&user_booted_lock);
}

/* (Re)arm the fallback to fire timeout_secs after init launch. */
static void user_booted_arm_timeout(void)
{
	unsigned long deadline, now;

	lockdep_assert_held(&user_booted_lock);
	if (phase != PHASE_USERSPACE)
		return;
	deadline = user_booted_deadline();
	now = jiffies;
	/* A deadline already past fires at once: shortening takes effect now. */
	mod_delayed_work(user_booted_wq, &timeout_work,
			 time_after(deadline, now) ? deadline - now : 0);
}

/**
 * user_booted_init_launched() - init is about to be launched
 *
 * Called by kernel_init() only, right before it launches init and after
 * do_sysctl_args(): ends userspace boot at once unless init is expected to
 * report, and otherwise starts the fallback timeout.
 */
void user_booted_init_launched(void)
{
	mutex_lock(&user_booted_lock);
	launch_ns = ktime_get_ns();
	launch_jiffies = jiffies;
	if (phase == PHASE_REQUESTED) {
		user_booted_end_locked(USER_BOOTED_CMDLINE);
	} else if (!report_expected) {
		user_booted_end_locked(USER_BOOTED_UNREPORTED);
	} else {
		phase = PHASE_USERSPACE;
		user_booted_arm_timeout();
	}
	mutex_unlock(&user_booted_lock);
}

/*
 * The files are 0644, so only root gets to write; but only the system's
 * init and its root may steer the system's boot: not root in a user
 * namespace that maps to global root, and not a container's init in a
 * child PID namespace, as reboot(2) from there does not reboot the host.
 */
static bool user_booted_may_write(void)
{
	/* The namespace first: a refused write is no use of CAP_SYS_ADMIN. */
	return task_active_pid_ns(current) == &init_pid_ns &&
	       capable(CAP_SYS_ADMIN);
}

/* Exactly "1" or "1\n" at offset 0: anything else is a mistake worth an error. */
static bool user_booted_write_valid(const char *buf, size_t len, loff_t pos)
{
	return !pos && (len == 1 || (len == 2 && buf[1] == '\n')) && buf[0] == '1';
}

static int user_booted_sysctl(const struct ctl_table *table, int dir,
			      void *buffer, size_t *lenp, loff_t *ppos)
{
	int val = user_booted();
	const struct ctl_table t = { .data = &val, .maxlen = sizeof(val) };

	if (SYSCTL_KERN_TO_USER(dir))
		return proc_dointvec(&t, dir, buffer, lenp, ppos);

	if (!user_booted_may_write())
		return -EPERM;
	if (!user_booted_write_valid(buffer, *lenp, *ppos))
		return -EINVAL;
	*ppos += *lenp;

	/*
	 * Before init is launched, writers are do_sysctl_args() and
	 * usermode helpers: their request waits for the launch.
	 */
	mutex_lock(&user_booted_lock);
	if (phase == PHASE_KERNEL)
		phase = PHASE_REQUESTED;
	else if (phase == PHASE_USERSPACE)
		user_booted_end_locked(USER_BOOTED_REPORTED);
	mutex_unlock(&user_booted_lock);
	return 0;
}

static int user_booted_timeout_sysctl(const struct ctl_table *table, int dir,
				      void *buffer, size_t *lenp, loff_t *ppos)
{
	int ret;

	if (SYSCTL_USER_TO_KERN(dir) && !user_booted_may_write())
		return -EPERM;
	mutex_lock(&user_booted_lock);
	ret = proc_douintvec_minmax(table, dir, buffer, lenp, ppos);
	if (!ret && SYSCTL_USER_TO_KERN(dir))
		user_booted_arm_timeout();
	mutex_unlock(&user_booted_lock);
	return ret;
}

/* Longest fallback an admin may ask for: a day. */
static unsigned int timeout_max = 24 * 60 * 60;

static const struct ctl_table user_booted_table[] = {
	{
		.procname	= "user_booted",
		.mode		= 0644,
		.proc_handler	= user_booted_sysctl,
		.poll		= &user_booted_poll,
	},
	{
		.procname	= "user_booted_timeout",
		.data		= &timeout_secs,
		.maxlen		= sizeof(timeout_secs),
		.mode		= 0644,
		.proc_handler	= user_booted_timeout_sysctl,
		.extra1		= SYSCTL_ONE,
		.extra2		= &timeout_max,
	},
};

static int __init user_booted_sysctl_init(void)
{
	user_booted_wq = alloc_workqueue("user_booted", WQ_UNBOUND | WQ_FREEZABLE, 1);
	if (!user_booted_wq)
		user_booted_wq = system_freezable_wq;	/* still freezable */
	register_sysctl_init("kernel", user_booted_table);
	return 0;
}
subsys_initcall(user_booted_sysctl_init);

/* user_booted_reported[=<bool>]: parsed before any initcall. */
static int __init user_booted_reported_setup(char *str)
{
	bool val = true;

	if (*str == '=') {
		if (kstrtobool(str + 1, &val)) {
			pr_warn("user_booted_reported%s: not a boolean, ignored\n", str);
			return 1;
		}
	} else if (*str) {
		return 0;	/* another parameter sharing the prefix */
	}
	if (val && !IS_ENABLED(CONFIG_SYSCTL)) {
		pr_warn("user_booted_reported ignored: without CONFIG_SYSCTL init cannot report\n");
		val = false;
	}
	report_expected = val;
	return 1;
}
__setup("user_booted_reported", user_booted_reported_setup);

/*
 * The off switch, sysctl.kernel.user_booted=1, ends userspace boot at init
 * launch, where do_sysctl_args() writes it.  Note it while the command line
 * is parsed, so that subscribers acting before the launch (late initcalls:
 * the clk core, genpd) keep their stock timing.  Not consumed: it is still
 * do_sysctl_args()'s to apply.
 */
static int __init user_booted_off_switch_setup(char *str)
{
	off_switch = !strcmp(str, "1");
	return 0;
}
__setup("sysctl.kernel.user_booted=", user_booted_off_switch_setup);

/* do_sysctl_args() takes the slash spelling too. */
static int __init user_booted_off_switch_slash_setup(char *str)
{
	return user_booted_off_switch_setup(str);
}
__setup("sysctl/kernel/user_booted=", user_booted_off_switch_slash_setup);
