// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * conn-storm COUNT: COUNT TCP sessions on loopback, one at a time: connect
 * to a listener of its own on 127.0.0.1, accept, close the client, then
 * the server side; then print "calls=N seconds=S cpu_seconds=C rate=R":
 * the sessions, wall-clock time, this thread's CPU time (user + system,
 * which on loopback holds the softirq work of both ends) and the
 * wall-clock rate.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include "bench.h"

int main(int argc, char **argv)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	socklen_t len = sizeof(sin);
	int lfd, fd, cfd;
	double wall, cpu;
	long i, count;

	if (argc != 2 || (count = atol(argv[1])) <= 0) {
		fprintf(stderr, "usage: conn-storm COUNT\n");
		return 2;
	}
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	lfd = socket(AF_INET, SOCK_STREAM, 0);
	if (lfd < 0 || bind(lfd, (struct sockaddr *)&sin, len) ||
	    listen(lfd, 64) ||
	    getsockname(lfd, (struct sockaddr *)&sin, &len)) {
		perror("conn-storm: listen");
		return 1;
	}
	wall = bench_seconds(CLOCK_MONOTONIC);
	cpu = bench_seconds(CLOCK_THREAD_CPUTIME_ID);
	for (i = 0; i < count; i++) {
		fd = socket(AF_INET, SOCK_STREAM, 0);
		if (fd < 0 || connect(fd, (struct sockaddr *)&sin, len)) {
			perror("conn-storm: connect");
			return 1;
		}
		cfd = accept(lfd, NULL, NULL);
		if (cfd < 0) {
			perror("conn-storm: accept");
			return 1;
		}
		close(fd);
		close(cfd);
	}
	cpu = bench_seconds(CLOCK_THREAD_CPUTIME_ID) - cpu;
	wall = bench_seconds(CLOCK_MONOTONIC) - wall;
	printf("calls=%ld seconds=%.6f cpu_seconds=%.6f rate=%.0f\n", count,
	       wall, cpu, count / wall);
	return 0;
}
