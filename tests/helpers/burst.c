// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * burst RUN_MS BURST_MS SLEEP_MS: print this process's pid and stop
 * (SIGSTOP) until continued, so that it does not run at all before; then
 * for RUN_MS of wall-clock time alternate BURST_MS of its own CPU time
 * spinning (0: none) and SLEEP_MS asleep (0: none), print the median
 * wall-clock time a burst took ("median_burst_us N"; under load or in an
 * emulator, interrupts can stretch a burst past its CPU time) and "done",
 * stop again until continued, and exit: stopped at both ends, it can be
 * read from outside (/proc/PID/schedstat) while it neither runs nor waits.
 * Known on-CPU runs (cpudist) and known run queue waits (runqlat).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define MAX_BURSTS 4096

static double now_ms(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	double end, burst, sleep_ms, until, start, walls[MAX_BURSTS];
	struct timespec nap;
	size_t n = 0;

	if (argc != 4) {
		fprintf(stderr, "usage: burst RUN_MS BURST_MS SLEEP_MS\n");
		return 2;
	}
	burst = atof(argv[2]);
	sleep_ms = atof(argv[3]);
	printf("%d\n", getpid());
	fflush(stdout);
	raise(SIGSTOP);
	nap.tv_sec = sleep_ms / 1000;
	nap.tv_nsec = (long)(sleep_ms * 1e6) % 1000000000;
	end = now_ms(CLOCK_MONOTONIC) + atof(argv[1]);
	while (now_ms(CLOCK_MONOTONIC) < end) {
		start = now_ms(CLOCK_MONOTONIC);
		until = now_ms(CLOCK_THREAD_CPUTIME_ID) + burst;
		while (burst && now_ms(CLOCK_THREAD_CPUTIME_ID) < until)
			;
		if (burst && n < MAX_BURSTS)
			walls[n++] = now_ms(CLOCK_MONOTONIC) - start;
		if (sleep_ms)
			nanosleep(&nap, NULL);
	}
	if (n) {
		qsort(walls, n, sizeof(walls[0]), by_value);
		printf("median_burst_us %.0f\n", walls[n / 2] * 1e3);
	}
	printf("done\n");
	fflush(stdout);
	raise(SIGSTOP);
	return 0;
}
