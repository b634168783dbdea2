// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * sysc-trigger COMM GOFILE N [M]: name this process COMM, print its pid,
 * wait until GOFILE exists, then make exactly N getppid(2) calls and M
 * failing close(-1) calls (EBADF), and exit.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>

int main(int argc, char **argv)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };
	struct stat st;
	long i, n, m;

	if (argc < 4) {
		fprintf(stderr, "usage: sysc-trigger COMM GOFILE N [M]\n");
		return 2;
	}
	n = atol(argv[3]);
	m = argc > 4 ? atol(argv[4]) : 0;
	if (prctl(PR_SET_NAME, argv[1])) {
		perror("sysc-trigger: prctl");
		return 1;
	}
	printf("%d\n", getpid());
	fflush(stdout);
	for (i = 0; stat(argv[2], &st); i++) {
		if (i == 2000) {
			fprintf(stderr, "sysc-trigger: no %s after 20 s\n",
				argv[2]);
			return 1;
		}
		nanosleep(&ts, NULL);
	}
	/* Call the kernel directly: no library caching. */
	for (i = 0; i < n; i++)
		syscall(SYS_getppid);
	for (i = 0; i < m; i++)
		syscall(SYS_close, -1);
	return 0;
}
