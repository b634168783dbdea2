// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * sig-trigger COMM wait [IGNSIG]: name this process COMM, print its pid,
 * ignore signal IGNSIG if given, and wait for signals (default actions).
 * sig-trigger COMM kill|tgkill|queue PID SIG: name this process COMM, print
 * its pid, send SIG to PID with kill(2), tgkill(2) or sigqueue(3), and print
 * 0 or -errno.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

static int send(const char *how, pid_t pid, int sig)
{
	union sigval v = { 0 };

	if (!strcmp(how, "kill"))
		return kill(pid, sig);
	if (!strcmp(how, "tgkill"))
		return syscall(SYS_tgkill, pid, pid, sig);
	return sigqueue(pid, sig, v);
}

int main(int argc, char **argv)
{
	if (argc < 3 || (strcmp(argv[2], "wait") && argc < 5)) {
		fprintf(stderr,
			"usage: sig-trigger COMM wait [IGNSIG]\n"
			"       sig-trigger COMM kill|tgkill|queue PID SIG\n");
		return 2;
	}
	if (prctl(PR_SET_NAME, argv[1])) {
		perror("sig-trigger: prctl");
		return 1;
	}
	printf("%d\n", getpid());
	fflush(stdout);
	if (!strcmp(argv[2], "wait")) {
		if (argc > 3)
			signal(atoi(argv[3]), SIG_IGN);
		for (;;)
			pause();
	}
	printf("%d\n",
	       send(argv[2], atoi(argv[3]), atoi(argv[4])) ? -errno : 0);
	return 0;
}
