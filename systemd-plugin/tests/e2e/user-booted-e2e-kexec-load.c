// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * user-booted-e2e-kexec-load KERNEL CMDLINE: load KERNEL, with no initramfs,
 * for the next "systemctl kexec" (kexec_file_load(2), as "kexec -s -l" does).
 * The e2e's kexec boot: its images carry no kexec-tools.  Built static by
 * scripts/systemd-e2e.sh, written into that boot's disk.
 */
#include <fcntl.h>
#include <linux/kexec.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int fd;

	if (argc != 3) {
		fprintf(stderr, "usage: %s KERNEL CMDLINE\n", argv[0]);
		return 2;
	}
	fd = open(argv[1], O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	/* The command line's length counts its terminating NUL. */
	if (syscall(SYS_kexec_file_load, fd, -1, strlen(argv[2]) + 1, argv[2],
		    KEXEC_FILE_NO_INITRAMFS)) {
		perror("kexec_file_load");
		return 1;
	}
	return 0;
}
