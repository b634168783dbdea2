// SPDX-License-Identifier: GPL-2.0
/*
 * pipe-block GOFILE [MS]: print our pid, wait until GOFILE exists, then
 * block in bk_block_read(), a read(2) on a pipe that a child writes to
 * after MS milliseconds (default 1000), and exit. Built with frame
 * pointers, and the read is a system call made from bk_block_read itself
 * (libc's read() has no frame pointer, which would hide its caller), so
 * that offcputime.bats sees main;bk_block_read above the kernel's frames.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

static inline __attribute__((always_inline)) long raw_read(int fd, void *buf,
							   size_t n)
{
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "0"(SYS_read), "D"(fd), "S"(buf), "d"(n)
			 : "rcx", "r11", "memory");
	return ret;
}

__attribute__((noinline)) long bk_block_read(int fd)
{
	char c;

	return raw_read(fd, &c, 1);
}

int main(int argc, char **argv)
{
	struct timespec nap = { 0, 10 * 1000000 };
	long ms = argc > 2 ? atol(argv[2]) : 1000;
	int fds[2];

	if (argc < 2 || pipe(fds)) {
		fprintf(stderr, "usage: pipe-block GOFILE [MS]\n");
		return 2;
	}
	printf("%d\n", getpid());
	fflush(stdout);
	while (access(argv[1], F_OK))
		nanosleep(&nap, NULL);
	if (fork() == 0) {
		struct timespec wait = { ms / 1000, ms % 1000 * 1000000 };

		nanosleep(&wait, NULL);
		_exit(write(fds[1], "x", 1) != 1);
	}
	return bk_block_read(fds[0]) == 1 ? 0 : 1;
}
