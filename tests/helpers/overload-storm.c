// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * overload-storm COMM GOFILE MODE ARG...: name this process COMM, print
 * its pid, wait until GOFILE exists, then open and close /dev/null as MODE
 * says, and print "done":
 *
 *	storm N		N times, as fast as it can
 *	quiet N MS	N times, MS milliseconds apart
 *	procs P N	in P child processes at once (named COMM too), N times
 *			each; prints each child's pid first
 *	paced RATE S	RATE times a second (in bursts every 10 ms) for S
 *			seconds
 *
 * The overload tests trace it with opensnoop -c COMM: a storm beside a
 * quiet process, whole processes sampled, a tool kept under --max-cpu.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>

/* Poll for GOFILE with stat(2), which opensnoop does not trace. */
static int wait_go(const char *go)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };
	struct stat st;
	int i;

	for (i = 0; i < 6000; i++) {
		if (!stat(go, &st))
			return 0;
		nanosleep(&ts, NULL);
	}
	return -1;
}

static int opens(long n)
{
	long i;
	int fd;

	for (i = 0; i < n; i++) {
		fd = open("/dev/null", O_RDONLY);
		if (fd < 0)
			return -1;
		close(fd);
	}
	return 0;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, ms % 1000 * 1000000 };

	nanosleep(&ts, NULL);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* P children opening N times each, at once; their pids on stdout. */
static int procs(long p, long n)
{
	int status, err = 0;
	pid_t pid;
	long i;

	for (i = 0; i < p; i++) {
		pid = fork();
		if (pid < 0)
			return -1;
		if (!pid)
			_exit(opens(n) ? 1 : 0);
		printf("%d\n", pid);
	}
	while ((pid = wait(&status)) > 0)
		err |= !WIFEXITED(status) || WEXITSTATUS(status);
	return err ? -1 : 0;
}

/* RATE a second for S seconds: RATE / 100 each 10 ms, as the clock runs. */
static int paced(long rate, long s)
{
	double start = now_s(), t;
	long done = 0, due;

	while ((t = now_s() - start) < s) {
		due = (long)(t * rate);
		if (due > done && opens(due - done))
			return -1;
		done = due > done ? due : done;
		sleep_ms(10);
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 3 ? argv[3] : "";
	long a = argc > 4 ? atol(argv[4]) : 0;
	long b = argc > 5 ? atol(argv[5]) : 0;
	int err;
	long i;

	if (argc < 5 || (strcmp(mode, "storm") && argc < 6)) {
		fprintf(stderr,
			"usage: overload-storm COMM GOFILE storm N | quiet N MS | procs P N | paced RATE S\n");
		return 2;
	}
	prctl(PR_SET_NAME, argv[1]);
	printf("%d\n", getpid());
	fflush(stdout);
	if (wait_go(argv[2]))
		return 1;
	if (!strcmp(mode, "storm")) {
		err = opens(a);
	} else if (!strcmp(mode, "quiet")) {
		for (i = 0, err = 0; i < a && !err; i++) {
			err = opens(1);
			sleep_ms(b);
		}
	} else if (!strcmp(mode, "procs")) {
		err = procs(a, b);
	} else if (!strcmp(mode, "paced")) {
		err = paced(a, b);
	} else {
		fprintf(stderr, "overload-storm: unknown mode '%s'\n", mode);
		return 2;
	}
	if (err) {
		perror("overload-storm");
		return 1;
	}
	printf("done\n");
	return 0;
}
