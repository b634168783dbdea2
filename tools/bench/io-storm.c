// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * io-storm DEVICE COUNT: COUNT O_DIRECT reads of 4 KiB from DEVICE, one
 * at a time, cycling through its first 16 MiB; then print "calls=N
 * seconds=S cpu_seconds=C rate=R": the reads, wall-clock time, this
 * thread's CPU time (user + system: the issue side of each I/O) and the
 * wall-clock rate.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include "bench.h"

#define BLOCK 4096
#define SPAN (16 << 20)

int main(int argc, char **argv)
{
	double wall, cpu;
	long i, count;
	void *buf;
	int fd;

	if (argc != 3 || (count = atol(argv[2])) <= 0) {
		fprintf(stderr, "usage: io-storm DEVICE COUNT\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY | O_DIRECT);
	if (fd < 0 || posix_memalign(&buf, BLOCK, BLOCK)) {
		perror("io-storm");
		return 1;
	}
	wall = bench_seconds(CLOCK_MONOTONIC);
	cpu = bench_seconds(CLOCK_THREAD_CPUTIME_ID);
	for (i = 0; i < count; i++) {
		if (pread(fd, buf, BLOCK, i * BLOCK % SPAN) != BLOCK) {
			perror("io-storm: read");
			return 1;
		}
	}
	cpu = bench_seconds(CLOCK_THREAD_CPUTIME_ID) - cpu;
	wall = bench_seconds(CLOCK_MONOTONIC) - wall;
	printf("calls=%ld seconds=%.6f cpu_seconds=%.6f rate=%.0f\n", count,
	       wall, cpu, count / wall);
	return 0;
}
