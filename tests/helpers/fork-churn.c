// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * fork-churn COMM N: name this process COMM, then start N short-lived
 * processes one after the other, each exiting at once (exit_group(2), a
 * syscall that never returns), and reap each. Prints how many were started.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/wait.h>

int main(int argc, char **argv)
{
	long i, n;
	pid_t pid;

	if (argc != 3 || (n = atol(argv[2])) <= 0) {
		fprintf(stderr, "usage: fork-churn COMM N\n");
		return 2;
	}
	if (prctl(PR_SET_NAME, argv[1])) {
		perror("fork-churn: prctl");
		return 1;
	}
	for (i = 0; i < n; i++) {
		/* vfork: no page tables to copy, so each costs little. */
		pid = vfork();
		if (pid < 0) {
			perror("fork-churn: vfork");
			return 1;
		}
		if (!pid)
			_exit(0);
		if (waitpid(pid, NULL, 0) != pid) {
			perror("fork-churn: waitpid");
			return 1;
		}
	}
	printf("%ld\n", n);
	return 0;
}
