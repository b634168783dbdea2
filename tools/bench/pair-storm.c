// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * pair-storm COUNT BLOCK GOFILE: fork two processes, A and B, print
 * "a=PID b=PID", wait until GOFILE exists, then let A and B take turns on
 * one CPU (the last), BLOCK getppid(2) calls at a time, COUNT calls each;
 * print "a_cpu_seconds=X b_cpu_seconds=Y calls=COUNT": the CPU time of
 * each one's calls alone (the hand-over between turns is left out).
 *
 * Two tracers, each following one of them, are compared within
 * milliseconds of each other and on the same CPU, so that what a noisy
 * machine does to one it does to the other.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "bench.h"

/* What each turn-taker reports: which one it is and its CPU time. */
struct result {
	int who;
	double cpu;
};

/* Take BLOCKS turns: wait for the baton on IN, call, pass it on OUT. */
static double take_turns(long blocks, long block, int in, int out)
{
	double cpu = 0, t;
	long i, j;
	char baton;

	for (i = 0; i < blocks; i++) {
		if (read(in, &baton, 1) != 1)
			exit(1);
		t = bench_seconds(CLOCK_THREAD_CPUTIME_ID);
		for (j = 0; j < block; j++)
			syscall(SYS_getppid);
		cpu += bench_seconds(CLOCK_THREAD_CPUTIME_ID) - t;
		if (write(out, &baton, 1) != 1)
			exit(1);
	}
	return cpu;
}

int main(int argc, char **argv)
{
	int to_a[2], to_b[2], res[2];
	long count, block, blocks;
	struct result r;
	double cpu[2];
	pid_t pid[2];
	cpu_set_t cpus;
	int i;

	if (argc != 4 || (count = atol(argv[1])) <= 0 ||
	    (block = atol(argv[2])) <= 0 || count % block) {
		fprintf(stderr,
			"usage: pair-storm COUNT BLOCK GOFILE (BLOCK divides COUNT)\n");
		return 2;
	}
	blocks = count / block;
	CPU_ZERO(&cpus);
	CPU_SET(sysconf(_SC_NPROCESSORS_ONLN) - 1, &cpus);
	if (pipe(to_a) || pipe(to_b) || pipe(res) ||
	    sched_setaffinity(0, sizeof(cpus), &cpus)) {
		perror("pair-storm");
		return 1;
	}
	for (i = 0; i < 2; i++) {
		pid[i] = fork();
		if (pid[i] < 0) {
			perror("pair-storm: fork");
			return 1;
		}
		if (pid[i] == 0) {
			/* A waits on to_a and hands over on to_b; B the reverse. */
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			r.who = i;
			r.cpu = take_turns(blocks, block, i ? to_b[0] : to_a[0],
					   i ? to_a[1] : to_b[1]);
			_exit(write(res[1], &r, sizeof(r)) != sizeof(r));
		}
	}
	printf("a=%d b=%d\n", pid[0], pid[1]);
	fflush(stdout);
	while (access(argv[3], F_OK))
		usleep(1000);

	/* A starts; each reports its CPU time when its turns are over. */
	if (write(to_a[1], "x", 1) != 1)
		goto fail;
	for (i = 0; i < 2; i++) {
		if (read(res[0], &r, sizeof(r)) != sizeof(r))
			goto fail;
		cpu[r.who] = r.cpu;
	}
	for (i = 0; i < 2; i++)
		waitpid(pid[i], NULL, 0);
	printf("a_cpu_seconds=%.6f b_cpu_seconds=%.6f calls=%ld\n", cpu[0],
	       cpu[1], count);
	return 0;
fail:
	fprintf(stderr, "pair-storm: a turn-taker failed\n");
	kill(pid[0], SIGKILL);
	kill(pid[1], SIGKILL);
	return 1;
}
