// SPDX-License-Identifier: GPL-2.0
/*
 * pipe-keep N GO: print this process's pid, wait until file GO exists,
 * then make 2 x N pipes, close the first N of them and keep the others;
 * print "done" and wait for a signal (memleak.bats's kernel allocations).
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int fds[512][2], n, i;

	if (argc != 3 || atoi(argv[1]) < 1 || atoi(argv[1]) > 256) {
		fprintf(stderr, "usage: pipe-keep N(1-256) GO\n");
		return 2;
	}
	n = atoi(argv[1]);
	printf("%d\n", getpid());
	fflush(stdout);
	while (access(argv[2], F_OK))
		usleep(10000);
	for (i = 0; i < 2 * n; i++) {
		if (pipe(fds[i])) {
			perror("pipe");
			return 1;
		}
	}
	for (i = 0; i < n; i++) {
		close(fds[i][0]);
		close(fds[i][1]);
	}
	printf("done\n");
	fflush(stdout);
	pause();
	return 0;
}
