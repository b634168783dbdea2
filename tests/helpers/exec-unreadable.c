// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * exec-unreadable MODE PATH ARG...: print "PID PPID" on stdout, then run
 * PATH with argv ARG... through execveat(AT_FDCWD, PATH, ...), with memory
 * a tracer cannot read at syscall entry, by MODE:
 *   mapped    the argument strings sit in a shared mapping this process
 *             has never touched (not in its page tables); the exec works
 *   bad-argv  the argv array is on an unmapped page: EFAULT
 *   bad-path  the path is on an unmapped page: EFAULT
 * Exits 127 if the exec fails.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/syscall.h>

extern char **environ;

/* A page that is no longer mapped. */
static void *unmapped_page(void)
{
	void *p =
		mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED || munmap(p, 4096)) {
		perror("exec-unreadable: mmap");
		exit(126);
	}
	return p;
}

/* Copies of ARGS in a fresh mapping of a memfd, never touched here. */
static char **mapped_args(int argc, char **args)
{
	char **copy = calloc(argc + 1, sizeof(*copy));
	size_t size = 0, off = 0;
	char *map;
	int fd, i;

	for (i = 0; i < argc; i++)
		size += strlen(args[i]) + 1;
	fd = memfd_create("exec-unreadable", MFD_CLOEXEC);
	if (!copy || fd < 0) {
		perror("exec-unreadable: memfd_create");
		exit(126);
	}
	for (i = 0; i < argc; i++)
		if (write(fd, args[i], strlen(args[i]) + 1) < 0) {
			perror("exec-unreadable: write");
			exit(126);
		}
	map = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED) {
		perror("exec-unreadable: mmap");
		exit(126);
	}
	for (i = 0; i < argc; i++) {
		copy[i] = map + off;
		off += strlen(args[i]) + 1;
	}
	return copy;
}

int main(int argc, char **argv)
{
	char *path = argv[2], **args = argv + 3;

	if (argc < 4) {
		fprintf(stderr, "usage: exec-unreadable MODE PATH ARG...\n");
		return 2;
	}
	if (!strcmp(argv[1], "mapped")) {
		args = mapped_args(argc - 3, args);
	} else if (!strcmp(argv[1], "bad-argv")) {
		args = unmapped_page();
	} else if (!strcmp(argv[1], "bad-path")) {
		path = unmapped_page();
	} else {
		fprintf(stderr, "exec-unreadable: unknown mode '%s'\n",
			argv[1]);
		return 2;
	}
	printf("%d %d\n", getpid(), getppid());
	fflush(stdout);
	syscall(SYS_execveat, AT_FDCWD, path, args, environ, 0);
	perror("exec-unreadable: execveat");
	return 127;
}
