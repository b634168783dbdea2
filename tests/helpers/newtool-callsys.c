// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * newtool-callsys NR: print this process's pid on stdout, wait for SIGUSR1
 * (10 s at most), then make syscall NR with all-zero arguments and exit.
 * The tests tools/new-tool makes for syscalls:* tracepoints use it to cause
 * a syscall from a known pid. The call's result does not matter: the
 * tracepoints fire either way (most calls fail with EFAULT or EINVAL).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/syscall.h>

int main(int argc, char **argv)
{
	struct timespec timeout = { .tv_sec = 10 };
	sigset_t usr1;
	char *end;
	long nr;

	if (argc != 2 || (nr = strtol(argv[1], &end, 10)) < 0 || *end ||
	    end == argv[1]) {
		fprintf(stderr, "usage: newtool-callsys NR\n");
		return 2;
	}
	/* Block SIGUSR1 before telling the pid, so no signal kills us. */
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	sigprocmask(SIG_BLOCK, &usr1, NULL);
	printf("%d\n", getpid());
	fflush(stdout);
	if (sigtimedwait(&usr1, NULL, &timeout) != SIGUSR1) {
		perror("newtool-callsys: waiting for SIGUSR1");
		return 1;
	}
	syscall(nr, 0, 0, 0, 0, 0, 0);
	return 0;
}
