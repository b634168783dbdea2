// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * first-event [-a] [-r READY] [-i MS] [-t SECONDS] MARKER TOOL [ARG...]:
 * start TOOL with its stdout and stderr on a pipe, and every MS
 * milliseconds (default 5) fork and exec MARKER, named after its basename,
 * until a line of TOOL's output holds that name. Prints
 * "ready_ms=R ready_cpu_ms=RC first_ms=F cpu_ms=C": milliseconds from
 * spawning TOOL to its first line holding READY (-1 when not given or not
 * seen) and the CPU time TOOL had used by then (user + system, all its
 * threads), then the same for the marker's line. With -a (attached only:
 * READY is the end) no marker is run and F and C are -1. Then stops TOOL
 * with SIGINT. Exit 1 when TOOL dies or SECONDS (default 20) pass first.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include "bench.h"

/* CPU time of PID's threads so far, in ms (from their schedstat). */
static double cpu_ms(pid_t pid)
{
	char path[64];
	unsigned long long ns, sum = 0;
	struct dirent *d;
	FILE *f;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	dir = opendir(path);
	while (dir && (d = readdir(dir))) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%.16s/schedstat",
			 pid, d->d_name);
		f = fopen(path, "r");
		if (f && fscanf(f, "%llu", &ns) == 1)
			sum += ns;
		if (f)
			fclose(f);
	}
	if (dir)
		closedir(dir);
	return sum / 1e6;
}

/* Fork and exec MARKER under NAME; the child is reaped in reap(). */
static void trigger(const char *marker, const char *name)
{
	if (fork() == 0) {
		prctl(PR_SET_NAME, name);
		execl(marker, marker, (char *)NULL);
		_exit(127);
	}
}

/* Reap finished triggers; true when TOOL itself has exited. */
static bool reap(pid_t tool)
{
	pid_t pid;

	while ((pid = waitpid(-1, NULL, WNOHANG)) > 0)
		if (pid == tool)
			return true;
	return false;
}

/* Stop TOOL: SIGINT, read its output to EOF (at most 5 s), then SIGKILL. */
static void stop(pid_t tool, int fd, bool exited)
{
	char buf[4096];
	double end = bench_now_ms() + 5000;
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	if (exited)
		return;
	kill(tool, SIGINT);
	while (bench_now_ms() < end && poll(&pfd, 1, 100) >= 0)
		if (pfd.revents && read(fd, buf, sizeof(buf)) <= 0)
			break;
	kill(tool, SIGKILL);
	waitpid(tool, NULL, 0);
}

int main(int argc, char **argv)
{
	const char *ready = NULL, *marker, *name;
	double start, next, ready_ms = -1, first_ms = -1, cpu = -1;
	double ready_cpu = -1;
	bool ready_only = false;
	long interval = 5, timeout = 20;
	char buf[65536];
	size_t len = 0;
	bool exited = false;
	int opt, fd;
	pid_t tool;

	while ((opt = getopt(argc, argv, "+ar:i:t:")) != -1) {
		switch (opt) {
		case 'a':
			ready_only = true;
			break;
		case 'r':
			ready = optarg;
			break;
		case 'i':
			interval = atol(optarg);
			break;
		case 't':
			timeout = atol(optarg);
			break;
		default:
			return 2;
		}
	}
	if (argc - optind < 2 || interval <= 0 || timeout <= 0 ||
	    (ready_only && !ready)) {
		fprintf(stderr, "usage: first-event [-a] [-r READY] [-i MS] "
				"[-t SECONDS] MARKER TOOL [ARG...]\n");
		return 2;
	}
	marker = argv[optind];
	name = strrchr(marker, '/') ? strrchr(marker, '/') + 1 : marker;

	/* Spawn TOOL with both its outputs on our pipe. */
	start = bench_now_ms();
	tool = bench_spawn("first-event", argv + optind + 1, &fd);
	if (tool < 0)
		return 1;

	/* Exec the marker every INTERVAL ms until its line shows up. */
	next = start;
	while (first_ms < 0 && !(ready_only && ready_ms >= 0) && !exited &&
	       bench_now_ms() - start < timeout * 1e3) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		double t = bench_now_ms();
		char *nl, *line;
		ssize_t n;

		if (t >= next && !ready_only) {
			trigger(marker, name);
			next = t + interval;
		}
		exited = reap(tool);
		if (poll(&pfd, 1, (int)(next - t) + 1) <= 0)
			continue;
		n = read(fd, buf + len, sizeof(buf) - 1 - len);
		if (n <= 0)
			break;
		t = bench_now_ms();
		len += n;
		buf[len] = '\0';
		/* Look at each complete line; keep the partial one. */
		for (line = buf; (nl = strchr(line, '\n')); line = nl + 1) {
			*nl = '\0';
			if (ready && ready_ms < 0 && strstr(line, ready)) {
				ready_ms = t - start;
				ready_cpu = cpu_ms(tool);
			}
			if (first_ms < 0 && strstr(line, name)) {
				first_ms = t - start;
				cpu = cpu_ms(tool);
			}
		}
		len = strlen(line);
		memmove(buf, line, len + 1);
		if (len == sizeof(buf) - 1)
			len = 0;
	}

	stop(tool, fd, exited);
	/* Wait for the last triggers. */
	while (waitpid(-1, NULL, 0) > 0)
		;
	if (ready_only && ready_ms < 0) {
		fprintf(stderr, "first-event: %s never showed %s\n",
			argv[optind + 1], ready);
		return 1;
	}
	if (!ready_only && first_ms < 0) {
		fprintf(stderr, "first-event: %s never showed %s\n",
			argv[optind + 1], name);
		return 1;
	}
	printf("ready_ms=%.1f ready_cpu_ms=%.1f first_ms=%.1f cpu_ms=%.1f\n",
	       ready_ms, ready_cpu, first_ms, cpu);
	return 0;
}
