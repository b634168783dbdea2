// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * open-trigger COMM GOFILE PATH...: name this process COMM, print its pid,
 * wait until GOFILE exists ("-": do not wait), then open each PATH
 * read-only and print one line per PATH: the fd, or -errno.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/stat.h>

/* Poll for GOFILE with stat(2), which opensnoop does not trace. */
static int wait_go(const char *go)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };
	struct stat st;
	int i;

	for (i = 0; strcmp(go, "-") && i < 2000; i++) {
		if (!stat(go, &st))
			return 0;
		nanosleep(&ts, NULL);
	}
	return strcmp(go, "-") ? -1 : 0;
}

int main(int argc, char **argv)
{
	int i, fd;

	if (argc < 4) {
		fprintf(stderr, "usage: open-trigger COMM GOFILE PATH...\n");
		return 2;
	}
	if (prctl(PR_SET_NAME, argv[1])) {
		perror("open-trigger: prctl");
		return 1;
	}
	printf("%d\n", getpid());
	fflush(stdout);
	if (wait_go(argv[2])) {
		fprintf(stderr, "open-trigger: no %s after 20 s\n", argv[2]);
		return 1;
	}
	for (i = 3; i < argc; i++) {
		fd = open(argv[i], O_RDONLY);
		printf("%d\n", fd < 0 ? -errno : fd);
	}
	return 0;
}
