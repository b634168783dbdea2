// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * scrape PORT N FAMILY: GET /metrics from 127.0.0.1:PORT N times, and print
 * the series of FAMILY in the last one, the tool's CPU per scrape (from its
 * process_cpu_seconds_total, before and after), the wall time per scrape
 * and the body's size:
 *
 *	series=545 cpu_ms=2.19 wall_ms=2.86 bytes=33516
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include "bench.h"

#define MAX_BODY (16 << 20)

/* One scrape into BUF; its length, or -1. */
static long scrape(int port, char *buf, size_t size)
{
	static const char req[] = "GET /metrics HTTP/1.1\r\nHost: b\r\n\r\n";
	struct sockaddr_in sa = { .sin_family = AF_INET,
				  .sin_port = htons(port),
				  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	size_t len = 0;
	ssize_t n;
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    write(fd, req, sizeof(req) - 1) != sizeof(req) - 1)
		return -1;
	while (len < size - 1 && (n = read(fd, buf + len, size - 1 - len)) > 0)
		len += n;
	close(fd);
	buf[len] = '\0';
	return strncmp(buf, "HTTP/1.1 200 ", 13) ? -1 : (long)len;
}

/* The value of line NAME in the body BUF, or -1. */
static double value(const char *buf, const char *name)
{
	const char *p = buf;
	size_t len = strlen(name);

	while ((p = strstr(p, name))) {
		if (p[-1] == '\n' && p[len] == ' ')
			return atof(p + len + 1);
		p += len;
	}
	return -1;
}

/* Lines of FAMILY's series in BUF. */
static long series(const char *buf, const char *family)
{
	const char *p = buf;
	size_t len = strlen(family);
	long n = 0;

	while ((p = strstr(p, family))) {
		if (p[-1] == '\n' && (p[len] == '{' || p[len] == ' '))
			n++;
		p += len;
	}
	return n;
}

int main(int argc, char **argv)
{
	char *buf = malloc(MAX_BODY);
	double cpu0, cpu1, t0, t1;
	long len = 0;
	int port, n, i;

	if (argc != 4 || !buf) {
		fprintf(stderr, "usage: scrape PORT N FAMILY\n");
		return 2;
	}
	port = atoi(argv[1]);
	n = atoi(argv[2]);
	if (scrape(port, buf, MAX_BODY) < 0) {
		fprintf(stderr, "scrape: no metrics on port %d\n", port);
		return 1;
	}
	cpu0 = value(buf, "process_cpu_seconds_total");
	t0 = bench_now_ms();
	for (i = 0; i < n; i++) {
		len = scrape(port, buf, MAX_BODY);
		if (len < 0) {
			fprintf(stderr, "scrape: scrape %d failed\n", i + 1);
			return 1;
		}
	}
	t1 = bench_now_ms();
	cpu1 = value(buf, "process_cpu_seconds_total");
	printf("series=%ld cpu_ms=%.3f wall_ms=%.3f bytes=%ld\n",
	       series(buf, argv[3]), (cpu1 - cpu0) * 1000 / n, (t1 - t0) / n,
	       len);
	return 0;
}
