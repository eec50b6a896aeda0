/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * The user_booted ABI: how an init system tells the kernel that userspace has
 * finished booting.  See Documentation/core-api/user_booted.rst.
 */
#ifndef _UAPI_LINUX_USER_BOOTED_H
#define _UAPI_LINUX_USER_BOOTED_H

/* Reads USER_BOOTED_NO while userspace boots, USER_BOOTED_YES after. */
#define USER_BOOTED_SYSCTL_PATH		"/proc/sys/kernel/user_booted"

/*
 * Fallback, in seconds after init was launched, after which the kernel ends
 * boot itself when init was expected to report and has not.
 */
#define USER_BOOTED_TIMEOUT_SYSCTL_PATH	"/proc/sys/kernel/user_booted_timeout"

#define USER_BOOTED_NO			0
#define USER_BOOTED_YES			1

/*
 * The only accepted write: "1", optionally followed by one newline, at file
 * offset 0.  Anything else fails with EINVAL and changes nothing.
 */
#define USER_BOOTED_WRITE		"1\n"

#endif /* _UAPI_LINUX_USER_BOOTED_H */
