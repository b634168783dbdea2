// SPDX-License-Identifier: GPL-2.0
/*
 * cpu-spin N: N iterations of CPU-bound work through two functions of our
 * own, the workload the profile row samples. Prints calls=N, rate= (per
 * wall-clock second) and cpu_seconds= (user + system), as the storms do.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include "bench.h"

static volatile unsigned long sink;

__attribute__((noinline)) static void spin_inner(unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		sink += i;
}

__attribute__((noinline)) static void spin_outer(unsigned long n)
{
	unsigned long done;

	for (done = 0; done < n; done += 1000000)
		spin_inner(n - done < 1000000 ? n - done : 1000000);
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 0;
	double t0, cpu0, wall, cpu;

	if (!n) {
		fprintf(stderr, "usage: cpu-spin ITERATIONS\n");
		return 2;
	}
	t0 = bench_seconds(CLOCK_MONOTONIC);
	cpu0 = bench_cpu_seconds(RUSAGE_SELF);
	spin_outer(n);
	wall = bench_seconds(CLOCK_MONOTONIC) - t0;
	cpu = bench_cpu_seconds(RUSAGE_SELF) - cpu0;
	printf("calls=%lu rate=%.0f cpu_seconds=%.6f\n", n, n / wall, cpu);
	return 0;
}
