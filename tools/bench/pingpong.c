// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * pingpong COUNT: two processes on one CPU pass a byte back and forth
 * through two pipes COUNT times each way, so that every pass is one wakeup
 * and one context switch; then print "calls=N seconds=S cpu_seconds=C
 * rate=R": the passes (2 * COUNT), wall-clock time, CPU time (user +
 * system) of both processes, and the wall-clock rate of passes.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include "bench.h"

/* Read a byte from IN and write it to OUT, COUNT times; FIRST starts. */
static int pass(int in, int out, long count, int first)
{
	char c = 0;
	long i;

	for (i = 0; i < count; i++) {
		if ((first && write(out, &c, 1) != 1) || read(in, &c, 1) != 1 ||
		    (!first && write(out, &c, 1) != 1))
			return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	int ping[2], pong[2], status;
	double wall, cpu;
	cpu_set_t cpus;
	long count;
	pid_t child;

	if (argc != 2 || (count = atol(argv[1])) <= 0) {
		fprintf(stderr, "usage: pingpong COUNT\n");
		return 2;
	}
	/* Both on the CPU we start on: every pass switches between them. */
	CPU_ZERO(&cpus);
	CPU_SET(sched_getcpu(), &cpus);
	if (sched_setaffinity(0, sizeof(cpus), &cpus) || pipe(ping) ||
	    pipe(pong)) {
		perror("pingpong");
		return 1;
	}
	wall = bench_seconds(CLOCK_MONOTONIC);
	cpu = bench_cpu_seconds(RUSAGE_SELF);
	child = fork();
	if (child < 0) {
		perror("pingpong: fork");
		return 1;
	}
	if (!child)
		_exit(pass(ping[0], pong[1], count, 0));
	if (pass(pong[0], ping[1], count, 1) ||
	    waitpid(child, &status, 0) < 0 || status) {
		fprintf(stderr, "pingpong: a pass failed\n");
		return 1;
	}
	wall = bench_seconds(CLOCK_MONOTONIC) - wall;
	cpu = bench_cpu_seconds(RUSAGE_SELF) - cpu +
	      bench_cpu_seconds(RUSAGE_CHILDREN);
	printf("calls=%ld seconds=%.6f cpu_seconds=%.6f rate=%.0f\n", 2 * count,
	       wall, cpu, 2 * count / wall);
	return 0;
}
