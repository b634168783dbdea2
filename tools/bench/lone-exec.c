// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * lone-exec [-n N] [-g GAP_MS] [-t SECONDS] MARKER TOOL [ARG...]: start TOOL
 * with its stdout and stderr on a pipe, exec MARKER every 100 ms until a
 * line of TOOL's output names it (TOOL is then tracing), then N times (10)
 * wait GAP_MS (200) and exec MARKER once, alone. Prints
 * "latency_ms=L1,L2,...": for each of those execs, the milliseconds from
 * the execve call to the moment this reader got TOOL's line about it. Then
 * stops TOOL with SIGINT. Exit 1 when TOOL dies or a line takes longer than
 * SECONDS (default 5).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include "bench.h"

#define MAX_EXECS 1000
#define WARMUP_INTERVAL_MS 100

/* TOOL's output not yet split into lines, and whether it has ended. */
static char buf[65536];
static size_t len;
static bool ended;

/*
 * Read TOOL's output on FD until a line holding NAME arrives (with NAME
 * NULL, until DEADLINE only); its arrival time, or -1 at DEADLINE or EOF.
 */
static double line_with(int fd, const char *name, double deadline)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	double t, found = -1;
	char *nl, *line;
	ssize_t n;

	while (found < 0 && !ended && (t = bench_now_ms()) < deadline) {
		if (poll(&pfd, 1, (int)(deadline - t) + 1) <= 0)
			continue;
		n = read(fd, buf + len, sizeof(buf) - 1 - len);
		if (n <= 0) {
			ended = true;
			return -1;
		}
		t = bench_now_ms();
		len += n;
		buf[len] = '\0';
		for (line = buf; (nl = strchr(line, '\n')); line = nl + 1) {
			*nl = '\0';
			if (found < 0 && name && strstr(line, name))
				found = t;
		}
		len = strlen(line);
		memmove(buf, line, len + 1);
		if (len == sizeof(buf) - 1)
			len = 0;
	}
	return found;
}

/*
 * Fork and exec MARKER under NAME; the child notes the time of its execve
 * call in *AT (shared), which is there once this returns. Reaps the
 * markers that are done; false when TOOL itself has exited.
 */
static bool trigger(const char *marker, const char *name, volatile double *at,
		    pid_t tool)
{
	const struct timespec poll_interval = { .tv_nsec = 100000 };
	pid_t pid;

	*at = 0;
	pid = fork();
	if (pid < 0) {
		perror("lone-exec: fork");
		exit(1);
	}
	if (pid == 0) {
		prctl(PR_SET_NAME, name);
		*at = bench_now_ms();
		execl(marker, marker, (char *)NULL);
		_exit(127);
	}
	while (!*at && waitpid(pid, NULL, WNOHANG) == 0)
		nanosleep(&poll_interval, NULL);
	while ((pid = waitpid(-1, NULL, WNOHANG)) > 0)
		if (pid == tool)
			return false;
	return true;
}

/* Stop TOOL: SIGINT, read its output to EOF (at most 5 s), then SIGKILL. */
static void stop(pid_t tool, int fd)
{
	line_with(fd, NULL, bench_now_ms() + 100);
	kill(tool, SIGINT);
	line_with(fd, NULL, bench_now_ms() + 5000);
	kill(tool, SIGKILL);
	while (waitpid(-1, NULL, 0) > 0)
		;
}

int main(int argc, char **argv)
{
	long execs = 10, gap = 200, timeout = 5, i;
	double latency[MAX_EXECS], seen = -1, start;
	const char *marker, *name;
	volatile double *at;
	int opt, fd;
	pid_t tool;

	while ((opt = getopt(argc, argv, "+n:g:t:")) != -1) {
		switch (opt) {
		case 'n':
			execs = atol(optarg);
			break;
		case 'g':
			gap = atol(optarg);
			break;
		case 't':
			timeout = atol(optarg);
			break;
		default:
			return 2;
		}
	}
	if (argc - optind < 2 || execs <= 0 || execs > MAX_EXECS || gap <= 0 ||
	    timeout <= 0) {
		fprintf(stderr, "usage: lone-exec [-n N] [-g GAP_MS] "
				"[-t SECONDS] MARKER TOOL [ARG...]\n");
		return 2;
	}
	marker = argv[optind];
	name = strrchr(marker, '/') ? strrchr(marker, '/') + 1 : marker;
	at = mmap(NULL, sizeof(*at), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (at == MAP_FAILED) {
		perror("lone-exec: mmap");
		return 1;
	}
	tool = bench_spawn("lone-exec", argv + optind + 1, &fd);
	if (tool < 0)
		return 1;

	/* Until TOOL shows the marker's exec, it is not tracing yet. */
	start = bench_now_ms();
	while (seen < 0 && !ended && bench_now_ms() - start < 60e3) {
		if (!trigger(marker, name, at, tool))
			break;
		seen = line_with(fd, name, bench_now_ms() + WARMUP_INTERVAL_MS);
	}
	for (i = 0; seen >= 0 && i < execs; i++) {
		seen = -1;
		line_with(fd, NULL, bench_now_ms() + gap);
		if (!trigger(marker, name, at, tool))
			break;
		seen = line_with(fd, name, *at + timeout * 1e3);
		latency[i] = seen - *at;
	}
	stop(tool, fd);
	if (seen < 0) {
		fprintf(stderr, "lone-exec: %s did not show %s in time\n",
			argv[optind + 1], name);
		return 1;
	}
	printf("latency_ms=");
	for (i = 0; i < execs; i++)
		printf("%s%.3f", i ? "," : "", latency[i]);
	printf("\n");
	return 0;
}
