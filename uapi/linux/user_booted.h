/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * What an init system builds against to tell the kernel that userspace has
 * finished booting.  See Documentation/admin-guide/sysctl/kernel.rst.
 */
#ifndef _UAPI_LINUX_USER_BOOTED_H
#define _UAPI_LINUX_USER_BOOTED_H

/* ABI: the sysctl kernel.user_booted, documented in sysctl/kernel.rst. */
#define USER_BOOTED_SYSCTL_PATH		"/proc/sys/kernel/user_booted"

/* ABI: what it reads, while userspace boots and after. */
#define USER_BOOTED_NO			0
#define USER_BOOTED_YES			1

/* ABI: the write that ends userspace boot; any other value is EINVAL. */
#define USER_BOOTED_WRITE		"1\n"

#endif /* _UAPI_LINUX_USER_BOOTED_H */
