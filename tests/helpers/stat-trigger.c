// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * stat-trigger COMM PATH...: name this process COMM, print its pid, then
 * stat(2) each PATH and print one line per PATH: 0, or -errno.
 */
#include <errno.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/stat.h>

int main(int argc, char **argv)
{
	struct stat st;
	int i;

	if (argc < 3) {
		fprintf(stderr, "usage: stat-trigger COMM PATH...\n");
		return 2;
	}
	if (prctl(PR_SET_NAME, argv[1])) {
		perror("stat-trigger: prctl");
		return 1;
	}
	printf("%d\n", getpid());
	for (i = 2; i < argc; i++)
		printf("%d\n", stat(argv[i], &st) ? -errno : 0);
	return 0;
}
