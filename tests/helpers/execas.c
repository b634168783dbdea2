// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * execas COMM PROG [ARG...]: name this process COMM, print its pid on
 * stdout, then execve PROG. Tests use it to cause an exec with a known pid
 * and a unique command name.
 */
#include <stdio.h>
#include <unistd.h>
#include <sys/prctl.h>

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: execas COMM PROG [ARG...]\n");
		return 2;
	}
	if (prctl(PR_SET_NAME, argv[1])) {
		perror("execas: prctl");
		return 1;
	}
	printf("%d\n", getpid());
	fflush(stdout);
	execv(argv[2], argv + 2);
	perror("execas: execv");
	return 127;
}
