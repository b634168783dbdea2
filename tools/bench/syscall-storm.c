// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * syscall-storm COUNT [GOFILE]: print our pid, wait until GOFILE exists
 * (when given), make COUNT getppid(2) calls, then print
 * "calls=N seconds=S cpu_seconds=C rate=R": wall-clock and CPU time
 * (user + system, this thread) of the calls, and their wall-clock rate.
 * Like tests/helpers/getppid-storm, plus the CPU time: on a busy machine
 * the wall clock also counts the time other processes held the CPU, the
 * CPU time only what each call cost.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include "bench.h"

int main(int argc, char **argv)
{
	double wall, cpu;
	long i, count;

	if (argc < 2 || (count = atol(argv[1])) <= 0) {
		fprintf(stderr, "usage: syscall-storm COUNT [GOFILE]\n");
		return 2;
	}
	printf("%d\n", getpid());
	fflush(stdout);
	while (argc > 2 && access(argv[2], F_OK))
		usleep(1000);

	/* Time the calls alone, on both clocks. */
	wall = bench_seconds(CLOCK_MONOTONIC);
	cpu = bench_seconds(CLOCK_THREAD_CPUTIME_ID);
	for (i = 0; i < count; i++)
		syscall(SYS_getppid);
	cpu = bench_seconds(CLOCK_THREAD_CPUTIME_ID) - cpu;
	wall = bench_seconds(CLOCK_MONOTONIC) - wall;
	printf("calls=%ld seconds=%.6f cpu_seconds=%.6f rate=%.0f\n", count,
	       wall, cpu, count / wall);
	return 0;
}
