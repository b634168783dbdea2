// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * exec-at [-f] [-t] PATH ARG...: print "PID PPID TID" on stdout, then run
 * PATH with argv ARG... through execveat(AT_FDCWD, PATH, ...). With -f, open
 * PATH and run it by fd (fexecve: empty path, AT_EMPTY_PATH); with -t, exec
 * from a second thread. Exits 127 if the exec fails.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

extern char **environ;

static bool by_fd;
static char *path;
static char **args;

static void *run(void *unused)
{
	int fd = AT_FDCWD, flags = 0;

	if (by_fd) {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			perror("exec-at: open");
			_exit(126);
		}
		flags = AT_EMPTY_PATH;
	}
	printf("%d %d %ld\n", getpid(), getppid(), syscall(SYS_gettid));
	fflush(stdout);
	syscall(SYS_execveat, fd, by_fd ? "" : path, args, environ, flags);
	perror("exec-at: execveat");
	_exit(127);
}

int main(int argc, char **argv)
{
	bool thread = false;
	pthread_t t;
	int i = 1;

	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "-f"))
			by_fd = true;
		else if (!strcmp(argv[i], "-t"))
			thread = true;
		else
			break;
	}
	if (argc - i < 2) {
		fprintf(stderr, "usage: exec-at [-f] [-t] PATH ARG...\n");
		return 2;
	}
	path = argv[i];
	args = argv + i + 1;
	if (!thread)
		run(NULL);
	pthread_create(&t, NULL, run, NULL);
	pthread_join(t, NULL);
	return 127;
}
