// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * getppid-storm COUNT [GOFILE]: print our pid, wait until GOFILE exists
 * (when given), make exactly COUNT getppid(2) calls, then print
 * "calls=COUNT seconds=S rate=R" with the calls' rate per second.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	long i, count;
	double start, secs;

	if (argc < 2 || (count = atol(argv[1])) <= 0) {
		fprintf(stderr, "usage: getppid-storm COUNT [GOFILE]\n");
		return 2;
	}
	printf("%d\n", getpid());
	fflush(stdout);
	while (argc > 2 && access(argv[2], F_OK))
		usleep(1000);

	start = now();
	for (i = 0; i < count; i++)
		syscall(SYS_getppid);
	secs = now() - start;
	printf("calls=%ld seconds=%.6f rate=%.0f\n", count, secs, count / secs);
	return 0;
}
