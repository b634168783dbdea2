// SPDX-License-Identifier: GPL-2.0
/*
 * vfork-block GOFILE [MS]: print our pid, wait until GOFILE exists, then
 * vfork(): the parent waits uninterruptibly (D, killable) in the kernel's
 * wait_for_vfork_done() while the child sleeps MS milliseconds (default
 * 1000) and exits; then the parent exits. offcputime.bats tells this D
 * wait from pipe-block's S read with --state.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

int main(int argc, char **argv)
{
	struct timespec nap = { 0, 10 * 1000000 }, wait;
	long ms = argc > 2 ? atol(argv[2]) : 1000;
	pid_t child;

	if (argc < 2) {
		fprintf(stderr, "usage: vfork-block GOFILE [MS]\n");
		return 2;
	}
	printf("%d\n", getpid());
	fflush(stdout);
	while (access(argv[1], F_OK))
		nanosleep(&nap, NULL);
	wait.tv_sec = ms / 1000;
	wait.tv_nsec = ms % 1000 * 1000000;
	child = vfork();
	if (child == 0) {
		/* The vfork child: system calls only, then _exit. */
		syscall(SYS_nanosleep, &wait, NULL);
		_exit(0);
	}
	return child < 0;
}
