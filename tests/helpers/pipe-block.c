// SPDX-License-Identifier: GPL-2.0
/*
 * pipe-block GOFILE [MS [LINGER_MS]]: print our pid, wait until GOFILE
 * exists, then block in bk_block_read(), a read(2) on a pipe that a child
 * named "pipe-waker" writes to from bk_wake_write() MS milliseconds
 * (default 1000) after it saw us asleep there (so that a late start on a
 * loaded machine does not shorten the block), and exit; the child exits LINGER_MS (default 1000)
 * after its write (a waker's memory maps are read while it runs). Built with frame pointers, and the read and
 * the write are system calls made from those functions themselves (libc's
 * read() has no frame pointer, which would hide its caller), so that
 * offcputime.bats sees main;bk_block_read above the kernel's frames and
 * wakeuptime.bats main;bk_wake_write.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

/* read(2) or write(2), NR, as a system call made by the caller itself. */
static inline __attribute__((always_inline)) long raw_io(long nr, int fd,
							 void *buf, size_t n)
{
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "0"(nr), "D"(fd), "S"(buf), "d"(n)
			 : "rcx", "r11", "memory");
	return ret;
}

__attribute__((noinline)) long bk_block_read(int fd)
{
	char c;

	return raw_io(SYS_read, fd, &c, 1);
}

__attribute__((noinline)) long bk_wake_write(int fd)
{
	char c = 'x';

	return raw_io(SYS_write, fd, &c, 1);
}

/* Wait until process PID sleeps (state S in /proc/PID/stat). */
static void wait_asleep(pid_t pid)
{
	struct timespec nap = { 0, 1000000 };
	char path[64], buf[512], *paren;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	for (;;) {
		f = fopen(path, "r");
		if (!f)
			return;
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
		buf[n] = '\0';
		paren = strrchr(buf, ')');
		if (!paren || (paren[1] == ' ' && paren[2] == 'S'))
			return;
		nanosleep(&nap, NULL);
	}
}

int main(int argc, char **argv)
{
	struct timespec nap = { 0, 10 * 1000000 };
	long ms = argc > 2 ? atol(argv[2]) : 1000;
	long linger_ms = argc > 3 ? atol(argv[3]) : 1000;
	int fds[2];

	if (argc < 2 || pipe(fds)) {
		fprintf(stderr, "usage: pipe-block GOFILE [MS [LINGER_MS]]\n");
		return 2;
	}
	printf("%d\n", getpid());
	fflush(stdout);
	while (access(argv[1], F_OK))
		nanosleep(&nap, NULL);
	if (fork() == 0) {
		struct timespec wait = { ms / 1000, ms % 1000 * 1000000 };
		struct timespec linger = { linger_ms / 1000,
					   linger_ms % 1000 * 1000000 };
		long written;

		prctl(PR_SET_NAME, "pipe-waker");
		wait_asleep(getppid());
		nanosleep(&wait, NULL);
		written = bk_wake_write(fds[1]);
		nanosleep(&linger, NULL);
		_exit(written != 1);
	}
	return bk_block_read(fds[0]) == 1 ? 0 : 1;
}
