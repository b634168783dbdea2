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
 *   futex -       two threads pass a turn back and forth through one futex
 *                 word: each pass one FUTEX_WAKE and (mostly) one
 *                 FUTEX_WAIT: one event per pass
 *   cap -         setuid(2) to the caller's own uid: one capability check
 *                 (CAP_SETUID) per call
 *   rename DIR    two threads each renaming a file of their own in DIR
 *                 back and forth (the directory's lock contended): one
 *                 event per rename
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
#include <linux/futex.h>
#include <pthread.h>
#include <sys/socket.h>
#include <sys/syscall.h>
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

/* The futex word of the futex kind: whose turn it is (0 or 1). */
static int turn;

static void futex(int op, int val)
{
	syscall(SYS_futex, &turn, op | FUTEX_PRIVATE_FLAG, val, NULL, NULL, 0);
}

/* Take turn ME COUNT times: wait for it, hand it over, wake the other. */
static long take_turns(int me, long count)
{
	long i;
	int t;

	for (i = 0; i < count; i++) {
		while ((t = __atomic_load_n(&turn, __ATOMIC_ACQUIRE)) != me)
			futex(FUTEX_WAIT, t);
		__atomic_store_n(&turn, !me, __ATOMIC_RELEASE);
		futex(FUTEX_WAKE, 1);
	}
	return i;
}

static long count_each;

static void *other_turns(void *arg)
{
	(void)arg;
	take_turns(1, count_each);
	return NULL;
}

static long do_futex(long count)
{
	pthread_t t;

	count_each = count / 2;
	if (pthread_create(&t, NULL, other_turns, NULL))
		return fail("event-storm: thread");
	take_turns(0, count_each);
	pthread_join(t, NULL);
	return 2 * count_each;
}

static long cap(long count)
{
	uid_t uid = getuid();
	long i;

	for (i = 0; i < count; i++)
		if (setuid(uid))
			return fail("event-storm: setuid");
	return i;
}

/* The rename kind: DIR, and each thread's renames. */
static const char *rename_dir;

static long renames(int me, long count)
{
	char a[4096], b[4096];
	long i;
	int fd;

	snprintf(a, sizeof(a), "%s/event-storm.%d.%d.a", rename_dir, getpid(),
		 me);
	snprintf(b, sizeof(b), "%s/event-storm.%d.%d.b", rename_dir, getpid(),
		 me);
	fd = open(a, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || close(fd))
		return fail("event-storm: rename");
	for (i = 0; i < count; i++)
		if (rename(i % 2 ? b : a, i % 2 ? a : b))
			return fail("event-storm: rename");
	unlink(i % 2 ? b : a);
	return i;
}

static void *other_renames(void *arg)
{
	(void)arg;
	renames(1, count_each);
	return NULL;
}

static long do_rename(const char *dir, long count)
{
	pthread_t t;
	long n;

	rename_dir = dir;
	count_each = count / 2;
	if (pthread_create(&t, NULL, other_renames, NULL))
		return fail("event-storm: thread");
	n = renames(0, count_each);
	pthread_join(t, NULL);
	return n < 0 ? n : 2 * count_each;
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
	else if (!strcmp(argv[1], "futex"))
		n = do_futex(count);
	else if (!strcmp(argv[1], "cap"))
		n = cap(count);
	else if (!strcmp(argv[1], "rename"))
		n = do_rename(argv[2], count);
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
		"usage: event-storm rw|fsync|create|cache|listen|tcp|futex|cap|rename PATH COUNT\n");
	return 2;
}
