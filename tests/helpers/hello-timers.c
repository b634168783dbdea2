// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * hello-timers COMM: name this process COMM, print its pid, wait for a
 * line (or EOF) on stdin, then call timer_create, timer_settime,
 * timer_delete and getppid once each and execve /bin/true.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>

int main(int argc, char **argv)
{
	struct sigevent sev = { .sigev_notify = SIGEV_NONE };
	struct itimerspec its = { .it_value.tv_sec = 60 };
	timer_t timer;
	char c;

	if (argc != 2) {
		fprintf(stderr, "usage: hello-timers COMM\n");
		return 2;
	}
	if (prctl(PR_SET_NAME, argv[1])) {
		perror("hello-timers: prctl");
		return 1;
	}
	printf("%d\n", getpid());
	fflush(stdout);
	if (read(0, &c, 1) < 0 || timer_create(CLOCK_MONOTONIC, &sev, &timer) ||
	    timer_settime(timer, 0, &its, NULL) || timer_delete(timer)) {
		perror("hello-timers");
		return 1;
	}
	getppid();
	execl("/bin/true", "true", (char *)NULL);
	perror("hello-timers: execl");
	return 127;
}
