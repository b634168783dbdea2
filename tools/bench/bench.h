// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * What the benchmark helpers share: the clocks, CPU time and the spawn of
 * a tool whose output they read. Each helper is one file that includes
 * this, so tools/bench/run still builds each with one cc call.
 */
#ifndef BENCH_H
#define BENCH_H

#include <fcntl.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/types.h>

/* CLOCK's time now, in seconds. */
static inline double bench_seconds(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The monotonic clock, in ms. */
static inline double bench_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* User + system seconds of WHO (RUSAGE_SELF or RUSAGE_CHILDREN). */
static inline double bench_cpu_seconds(int who)
{
	struct rusage ru;

	getrusage(who, &ru);
	return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
	       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

/*
 * Fork and exec ARGV[0] with its stdout and stderr on a pipe whose read
 * end goes to *OUT. Its pid, or -1 after a perror() that names SELF.
 */
static inline pid_t bench_spawn(const char *self, char **argv, int *out)
{
	char what[64];
	int fds[2];
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC)) {
		snprintf(what, sizeof(what), "%s: pipe", self);
		perror(what);
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		snprintf(what, sizeof(what), "%s: fork", self);
		perror(what);
		return -1;
	}
	if (pid == 0) {
		dup2(fds[1], STDOUT_FILENO);
		dup2(fds[1], STDERR_FILENO);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(fds[1]);
	*out = fds[0];
	return pid;
}

#endif /* BENCH_H */
