// SPDX-License-Identifier: GPL-2.0
/*
 * membarrier_lat N: time N membarrier(MEMBARRIER_CMD_GLOBAL) calls, each of
 * which waits for one synchronize_rcu() in the kernel, and print
 * "membarrier n=N median_ms=X p90_ms=Y min_ms=Z max_ms=W".
 * With one CPU online the kernel returns at once: it says so and fails.
 */
#include <linux/membarrier.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 20, i;
	double *t;

	if (n < 1 || !(t = calloc(n, sizeof(*t))))
		return 2;
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
		fprintf(stderr, "membarrier_lat: one CPU online, GLOBAL is a no-op\n");
		return 2;
	}
	for (i = 0; i < n; i++) {
		double start = now_ms();

		if (syscall(__NR_membarrier, MEMBARRIER_CMD_GLOBAL, 0, 0)) {
			perror("membarrier");
			return 2;
		}
		t[i] = now_ms() - start;
	}
	qsort(t, n, sizeof(*t), cmp);
	printf("membarrier n=%d median_ms=%.3f p90_ms=%.3f min_ms=%.3f max_ms=%.3f\n",
	       n, t[n / 2], t[n * 9 / 10], t[0], t[n - 1]);
	return 0;
}
