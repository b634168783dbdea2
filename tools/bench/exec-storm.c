// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * exec-storm SECONDS PROG: fork and exec PROG (no arguments), one child after
 * the other, for SECONDS (at least once), each child named after PROG's
 * basename before the exec so that exec tracers show that name whether they
 * read the command name before or after the exec. Prints
 * "execs=N seconds=S cpu_seconds=C rate=R": wall-clock time, CPU time
 * (user + system, of this process and its children) and wall-clock rate.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include "bench.h"

int main(int argc, char **argv)
{
	const char *name;
	double start, secs, limit;
	long n;
	int status;
	pid_t pid;

	if (argc != 3 || (limit = atof(argv[1])) <= 0) {
		fprintf(stderr, "usage: exec-storm SECONDS PROG\n");
		return 2;
	}
	name = strrchr(argv[2], '/') ? strrchr(argv[2], '/') + 1 : argv[2];

	start = bench_seconds(CLOCK_MONOTONIC);
	for (n = 0; n == 0 || bench_seconds(CLOCK_MONOTONIC) - start < limit;
	     n++) {
		/* Fork, rename, exec: one traced exec per iteration. */
		pid = fork();
		if (pid < 0) {
			perror("exec-storm: fork");
			return 1;
		}
		if (pid == 0) {
			prctl(PR_SET_NAME, name);
			execl(argv[2], argv[2], (char *)NULL);
			_exit(127);
		}
		/* Wait for it, and give up on the first failed exec. */
		if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
		    WEXITSTATUS(status) == 127) {
			fprintf(stderr, "exec-storm: %s did not run\n",
				argv[2]);
			return 1;
		}
	}
	secs = bench_seconds(CLOCK_MONOTONIC) - start;
	printf("execs=%ld seconds=%.6f cpu_seconds=%.6f rate=%.1f\n", n, secs,
	       bench_cpu_seconds(RUSAGE_SELF) +
		       bench_cpu_seconds(RUSAGE_CHILDREN),
	       n / secs);
	return 0;
}
