// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * event-storm KIND PATH COUNT: COUNT events of one kind, one at a time, for
 * the tools row (each tool's tracepoints driven by the kind it traces):
 *
 *   rw FILE       a 4 KiB pwrite, then a 4 KiB pread, of FILE (on tmpfs):
 *                 two events, one per call
 *   fsync FILE    fsync(2) of FILE
 *   create DIR    a file created in DIR, closed and unlinked: one event
 *   cache DEVICE  a buffered 4 KiB pread of DEVICE (readahead off), its
 *                 page then dropped (POSIX_FADV_DONTNEED): one page into
 *                 the page cache and out, cycling through the first 16 MiB
 *   listen -      a TCP socket bound to a loopback port, listen(2), close
 *   tcp -         a byte sent each way between two connected loopback TCP
 *                 sockets, and received: two events, one per message
 *
 * then print "calls=N seconds=S cpu_seconds=C rate=R": the events,
 * wall-clock time, this process's CPU time (user + system; on loopback it
 * holds both ends' softirq work) and the wall-clock rate.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include "bench.h"

#define BLOCK 4096
#define SPAN (16 << 20)

static char buf[BLOCK];

static int fail(const char *what)
{
	perror(what);
	return -1;
}

static long rw(const char *path, long count)
{
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	long i;

	if (fd < 0)
		return fail("event-storm: open");
	for (i = 0; i < count; i += 2) {
		if (pwrite(fd, buf, BLOCK, 0) != BLOCK ||
		    pread(fd, buf, BLOCK, 0) != BLOCK)
			return fail("event-storm: rw");
	}
	close(fd);
	return i;
}

static long do_fsync(const char *path, long count)
{
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	long i;

	if (fd < 0)
		return fail("event-storm: open");
	for (i = 0; i < count; i++)
		if (fsync(fd))
			return fail("event-storm: fsync");
	close(fd);
	return i;
}

static long create(const char *dir, long count)
{
	char path[4096];
	long i;
	int fd;

	snprintf(path, sizeof(path), "%s/event-storm.%d", dir, getpid());
	for (i = 0; i < count; i++) {
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
		if (fd < 0 || close(fd) || unlink(path))
			return fail("event-storm: create");
	}
	return i;
}

static long cache(const char *device, long count)
{
	int fd = open(device, O_RDONLY);
	off_t off;
	long i;

	if (fd < 0 || posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM))
		return fail("event-storm: open");
	for (i = 0; i < count; i++) {
		off = i * BLOCK % SPAN;
		if (pread(fd, buf, BLOCK, off) != BLOCK ||
		    posix_fadvise(fd, off, BLOCK, POSIX_FADV_DONTNEED))
			return fail("event-storm: cache");
	}
	close(fd);
	return i;
}

static struct sockaddr_in loopback = {
	.sin_family = AF_INET,
	.sin_addr.s_addr = 0x0100007f, /* 127.0.0.1, network order */
};

static long do_listen(long count)
{
	long i;
	int fd;

	for (i = 0; i < count; i++) {
		fd = socket(AF_INET, SOCK_STREAM, 0);
		if (fd < 0 ||
		    bind(fd, (struct sockaddr *)&loopback, sizeof(loopback)) ||
		    listen(fd, 1) || close(fd))
			return fail("event-storm: listen");
	}
	return i;
}

static long tcp(long count)
{
	struct sockaddr_in sin = loopback;
	socklen_t len = sizeof(sin);
	int lfd, a, b, one = 1;
	char c = 0;
	long i;

	lfd = socket(AF_INET, SOCK_STREAM, 0);
	if (lfd < 0 || bind(lfd, (struct sockaddr *)&sin, len) ||
	    listen(lfd, 1) || getsockname(lfd, (struct sockaddr *)&sin, &len))
		return fail("event-storm: tcp listen");
	a = socket(AF_INET, SOCK_STREAM, 0);
	if (a < 0 || connect(a, (struct sockaddr *)&sin, len) ||
	    (b = accept(lfd, NULL, NULL)) < 0)
		return fail("event-storm: tcp connect");
	setsockopt(a, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	setsockopt(b, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	for (i = 0; i < count; i += 2) {
		if (send(a, &c, 1, 0) != 1 || recv(b, &c, 1, 0) != 1 ||
		    send(b, &c, 1, 0) != 1 || recv(a, &c, 1, 0) != 1)
			return fail("event-storm: tcp");
	}
	close(a);
	close(b);
	close(lfd);
	return i;
}

int main(int argc, char **argv)
{
	double wall, cpu;
	long count, n;

	if (argc != 4 || (count = atol(argv[3])) <= 0)
		goto usage;
	wall = bench_seconds(CLOCK_MONOTONIC);
	cpu = bench_seconds(CLOCK_PROCESS_CPUTIME_ID);
	if (!strcmp(argv[1], "rw"))
		n = rw(argv[2], count);
	else if (!strcmp(argv[1], "fsync"))
		n = do_fsync(argv[2], count);
	else if (!strcmp(argv[1], "create"))
		n = create(argv[2], count);
	else if (!strcmp(argv[1], "cache"))
		n = cache(argv[2], count);
	else if (!strcmp(argv[1], "listen"))
		n = do_listen(count);
	else if (!strcmp(argv[1], "tcp"))
		n = tcp(count);
	else
		goto usage;
	if (n < 0)
		return 1;
	cpu = bench_seconds(CLOCK_PROCESS_CPUTIME_ID) - cpu;
	wall = bench_seconds(CLOCK_MONOTONIC) - wall;
	printf("calls=%ld seconds=%.6f cpu_seconds=%.6f rate=%.0f\n", n, wall,
	       cpu, n / wall);
	return 0;
usage:
	fprintf(stderr,
		"usage: event-storm rw|fsync|create|cache|listen|tcp PATH COUNT\n");
	return 2;
}
