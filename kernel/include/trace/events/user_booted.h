/* SPDX-License-Identifier: GPL-2.0 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM user_booted

#if !defined(_TRACE_USER_BOOTED_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_USER_BOOTED_H

#include <linux/tracepoint.h>
#include <linux/user_booted.h>

TRACE_DEFINE_ENUM(USER_BOOTED_UNREPORTED);
TRACE_DEFINE_ENUM(USER_BOOTED_REPORTED);
TRACE_DEFINE_ENUM(USER_BOOTED_TIMEOUT);
TRACE_DEFINE_ENUM(USER_BOOTED_SLEEP);
TRACE_DEFINE_ENUM(USER_BOOTED_RESTORE);

/*
 * user_booted - userspace boot ended; same data as the kernel log line.
 * The task that ended it (the writer, or a kworker for the timeout) is in
 * the event's common fields.
 * @reason: enum user_booted_reason
 * @since_launch_ns: time since init was launched, 0 if it was not yet
 */
TRACE_EVENT(user_booted,

	TP_PROTO(enum user_booted_reason reason, u64 since_launch_ns),

	TP_ARGS(reason, since_launch_ns),

	TP_STRUCT__entry(
		__field(int, reason)
		__field(u64, since_launch_ns)
	),

	TP_fast_assign(
		__entry->reason = reason;
		__entry->since_launch_ns = since_launch_ns;
	),

	TP_printk("reason=%s since_launch_ns=%llu",
		  __print_symbolic(__entry->reason,
				   { USER_BOOTED_UNREPORTED, "unreported" },
				   { USER_BOOTED_REPORTED, "reported" },
				   { USER_BOOTED_TIMEOUT, "timeout" },
				   { USER_BOOTED_SLEEP, "sleep" },
				   { USER_BOOTED_RESTORE, "restore" }),
		  __entry->since_launch_ns)
);

#endif /* _TRACE_USER_BOOTED_H */

#include <trace/define_trace.h>
