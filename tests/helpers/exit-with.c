// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * exit-with COMM code N | signal N | thread | leader-first N | group N: name
 * this process COMM, print "PID PPID TID" on stdout, then exit with code N,
 * die by signal N, start a thread that exits, wait for it and exit 0, (leader-
 * first) end the main thread first and let a second thread exit with code N
 * once the main thread is a zombie, or (group) exit with code N while two
 * more threads spin, so that all three end at once. TID is the second
 * thread's, if any.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

static volatile long thread_tid;
static int code;

static void *thread_main(void *unused)
{
	thread_tid = syscall(SYS_gettid);
	return NULL;
}

/* Is the main thread a zombie yet? */
static bool leader_gone(void)
{
	char path[64], buf[256], *p;
	FILE *f;
	bool gone = false;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", getpid());
	f = fopen(path, "r");
	if (!f)
		return true;
	if (fgets(buf, sizeof(buf), f) && (p = strrchr(buf, ')')))
		gone = p[2] == 'Z';
	fclose(f);
	return gone;
}

static void *spin(void *unused)
{
	for (;;)
		;
	return NULL;
}

static void *last_thread(void *unused)
{
	thread_tid = syscall(SYS_gettid);
	while (!leader_gone())
		usleep(1000);
	exit(code);
}

int main(int argc, char **argv)
{
	pthread_t t;

	if (argc < 3 || (strcmp(argv[2], "thread") && argc < 4)) {
		fprintf(stderr,
			"usage: exit-with COMM code N | signal N | thread | leader-first N | group N\n");
		return 2;
	}
	if (prctl(PR_SET_NAME, argv[1])) {
		perror("exit-with: prctl");
		return 1;
	}
	code = argc > 3 ? atoi(argv[3]) : 0;
	if (!strcmp(argv[2], "leader-first")) {
		pthread_create(&t, NULL, last_thread, NULL);
		while (!thread_tid)
			usleep(1000);
		printf("%d %d %ld\n", getpid(), getppid(), thread_tid);
		fflush(stdout);
		pthread_exit(NULL);
	}
	if (!strcmp(argv[2], "thread")) {
		pthread_create(&t, NULL, thread_main, NULL);
		pthread_join(t, NULL);
		printf("%d %d %ld\n", getpid(), getppid(), thread_tid);
		return 0;
	}
	printf("%d %d %d\n", getpid(), getppid(), getpid());
	fflush(stdout);
	if (!strcmp(argv[2], "group")) {
		pthread_create(&t, NULL, spin, NULL);
		pthread_create(&t, NULL, spin, NULL);
		usleep(1000);
	}
	if (!strcmp(argv[2], "signal")) {
		kill(getpid(), code);
		pause();
	}
	return code;
}
