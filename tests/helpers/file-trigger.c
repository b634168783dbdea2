// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * file-trigger COMM GOFILE ACTION FILE [ARG...]: name this process COMM,
 * print its pid, wait until GOFILE exists, then make exactly the file
 * calls ACTION says on FILE, by raw syscalls (no library buffering), and
 * exit 0 (1 when a call fails):
 *
 *   vfs FILE N        openat(O_CREAT) FILE; N write()s of one byte, a
 *                     pwrite64, a writev; fsync, fdatasync; close; open
 *                     it again with openat(O_RDONLY); N read()s of one
 *                     byte, a pread64, a readv; close; creat(FILE) (on
 *                     machines with creat(2); else openat(O_CREAT)); close
 *   write FILE B K    openat(O_CREAT|O_TRUNC) FILE, then B bytes in K
 *                     write()s (the last takes the remainder); close
 *   sync FILE         one each of sync, fsync, fdatasync, syncfs, msync
 *                     (of FILE's first page, mapped) and sync_file_range,
 *                     in that order, on FILE (created, one page long),
 *                     then an fsync(-1) that fails (EBADF)
 *   life FILE MS      openat(O_CREAT) FILE, close; MS milliseconds later
 *                     unlinkat FILE
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>

static char buf[65536];

static int fail(const char *what)
{
	perror(what);
	return 1;
}

static long open_file(const char *file, int flags)
{
	return syscall(SYS_openat, AT_FDCWD, file, flags, 0644);
}

static int vfs(const char *file, long n)
{
	struct iovec iov = { buf, 1 };
	long fd, i;

	fd = open_file(file, O_CREAT | O_WRONLY | O_TRUNC);
	if (fd < 0)
		return fail("openat");
	for (i = 0; i < n; i++)
		if (syscall(SYS_write, fd, buf, 1) != 1)
			return fail("write");
	if (syscall(SYS_pwrite64, fd, buf, 1, 0) != 1 ||
	    syscall(SYS_writev, fd, &iov, 1) != 1)
		return fail("pwrite64, writev");
	if (syscall(SYS_fsync, fd) || syscall(SYS_fdatasync, fd))
		return fail("fsync, fdatasync");
	syscall(SYS_close, fd);
	fd = open_file(file, O_RDONLY);
	if (fd < 0)
		return fail("openat");
	for (i = 0; i < n; i++)
		if (syscall(SYS_read, fd, buf, 1) != 1)
			return fail("read");
	if (syscall(SYS_pread64, fd, buf, 1, 0) != 1 ||
	    syscall(SYS_readv, fd, &iov, 1) != 1)
		return fail("pread64, readv");
	syscall(SYS_close, fd);
#ifdef SYS_creat
	fd = syscall(SYS_creat, file, 0644);
#else
	fd = open_file(file, O_CREAT | O_WRONLY | O_TRUNC);
#endif
	if (fd < 0)
		return fail("creat");
	syscall(SYS_close, fd);
	return 0;
}

static int write_file(const char *file, long bytes, long calls)
{
	long fd, i, len;

	/* One write() per call: each must fit in the buffer. */
	if (calls < 1 || bytes < 0 ||
	    bytes - bytes / calls * (calls - 1) > (long)sizeof(buf)) {
		fprintf(stderr, "file-trigger: B/K above 64 KiB\n");
		return 2;
	}
	fd = open_file(file, O_CREAT | O_WRONLY | O_TRUNC);
	if (fd < 0)
		return fail("openat");
	for (i = 0; i < calls; i++) {
		len = i < calls - 1 ? bytes / calls : bytes - bytes / calls * i;
		if (syscall(SYS_write, fd, buf, len) != len)
			return fail("write");
	}
	syscall(SYS_close, fd);
	return 0;
}

static int sync_file(const char *file)
{
	long page = sysconf(_SC_PAGESIZE), fd;
	void *map;

	fd = open_file(file, O_CREAT | O_RDWR | O_TRUNC);
	if (fd < 0 || ftruncate(fd, page))
		return fail("open and size");
	map = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		return fail("mmap");
	memset(map, 'x', page);
	syscall(SYS_sync);
	if (syscall(SYS_fsync, fd) || syscall(SYS_fdatasync, fd) ||
	    syscall(SYS_syncfs, fd) || syscall(SYS_msync, map, page, MS_SYNC) ||
	    syscall(SYS_sync_file_range, fd, 0, page,
		    SYNC_FILE_RANGE_WRITE | SYNC_FILE_RANGE_WAIT_AFTER))
		return fail("sync calls");
	munmap(map, page);
	syscall(SYS_close, fd);
	syscall(SYS_fsync, -1);
	return 0;
}

static int life(const char *file, long ms)
{
	struct timespec ts = { ms / 1000, ms % 1000 * 1000000 };
	long fd;

	fd = open_file(file, O_CREAT | O_WRONLY | O_TRUNC);
	if (fd < 0)
		return fail("openat");
	syscall(SYS_close, fd);
	nanosleep(&ts, NULL);
	if (syscall(SYS_unlinkat, AT_FDCWD, file, 0))
		return fail("unlinkat");
	return 0;
}

int main(int argc, char **argv)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };
	const char *action;
	struct stat st;
	long i;

	if (argc < 5) {
		fprintf(stderr,
			"usage: file-trigger COMM GOFILE vfs|write|sync|life FILE [ARG...]\n");
		return 2;
	}
	if (prctl(PR_SET_NAME, argv[1]))
		return fail("file-trigger: prctl");
	printf("%d\n", getpid());
	fflush(stdout);
	for (i = 0; stat(argv[2], &st); i++) {
		if (i == 2000) {
			fprintf(stderr, "file-trigger: no %s after 20 s\n",
				argv[2]);
			return 1;
		}
		nanosleep(&ts, NULL);
	}
	action = argv[3];
	if (!strcmp(action, "vfs") && argc == 6)
		return vfs(argv[4], atol(argv[5]));
	if (!strcmp(action, "write") && argc == 7)
		return write_file(argv[4], atol(argv[5]), atol(argv[6]));
	if (!strcmp(action, "sync") && argc == 5)
		return sync_file(argv[4]);
	if (!strcmp(action, "life") && argc == 6)
		return life(argv[4], atol(argv[5]));
	fprintf(stderr, "file-trigger: bad action or arguments\n");
	return 2;
}
