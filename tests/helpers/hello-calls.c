// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * hello-calls UID SYSCALL N: become user UID, then make exactly N calls of
 * SYSCALL (execve, openat, write or getppid) and no other of those four,
 * so tests can count them. execve runs /bin/true in N children.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/wait.h>

static int run_true(void)
{
	char *const argv[] = { "true", NULL };
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (!pid) {
		execv("/bin/true", argv);
		_exit(127);
	}
	return waitpid(pid, &status, 0) == pid && status == 0 ? 0 : -1;
}

int main(int argc, char **argv)
{
	int fd = open("/dev/null", O_RDWR);
	long i, n;
	int err = 0;

	if (argc != 4 || fd < 0) {
		fprintf(stderr, "usage: hello-calls UID SYSCALL N\n");
		return 2;
	}
	n = atol(argv[3]);
	if (setresgid(atoi(argv[1]), atoi(argv[1]), atoi(argv[1])) ||
	    setresuid(atoi(argv[1]), atoi(argv[1]), atoi(argv[1]))) {
		perror("hello-calls: setresuid");
		return 1;
	}
	for (i = 0; i < n && !err; i++) {
		if (!strcmp(argv[2], "execve"))
			err = run_true();
		else if (!strcmp(argv[2], "openat"))
			err = close(openat(AT_FDCWD, "/", O_RDONLY));
		else if (!strcmp(argv[2], "write"))
			err = write(fd, "x", 1) != 1;
		else if (!strcmp(argv[2], "getppid"))
			syscall(SYS_getppid);
		else
			err = -1;
	}
	if (err)
		fprintf(stderr, "hello-calls: %s failed\n", argv[2]);
	return err ? 1 : 0;
}
