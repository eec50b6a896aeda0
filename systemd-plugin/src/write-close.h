/* SPDX-License-Identifier: GPL-2.0-only */
/* Shared by the generator and the helper. */
#ifndef USER_BOOTED_WRITE_CLOSE_H
#define USER_BOOTED_WRITE_CLOSE_H

#include <errno.h>
#include <unistd.h>

/*
 * Write @len bytes of @buf to @fd in one write(2) and close @fd, which
 * this takes over: 0, -errno, or -EIO for a short write.  Both files
 * written here (a sysctl, a small unit drop-in) take one write whole.
 */
static inline int write_close(int fd, const char *buf, size_t len)
{
	ssize_t n = write(fd, buf, len);

	if (n < 0)
		n = -errno;
	if (close(fd) < 0 && n >= 0)
		n = -errno;
	if (n < 0)
		return n;
	return (size_t)n == len ? 0 : -EIO;
}

#endif
