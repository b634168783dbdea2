// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * oom-hog COMM MIB: name this process COMM, print its pid, then allocate
 * MIB MiB and touch every page of it, so that a memory limit smaller than
 * that has the OOM killer kill it. Prints "survived" and exits 0 if it
 * is not killed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/prctl.h>

int main(int argc, char **argv)
{
	size_t mib, i;
	char *p;

	if (argc != 3 || !(mib = strtoul(argv[2], NULL, 10))) {
		fprintf(stderr, "usage: oom-hog COMM MIB\n");
		return 2;
	}
	if (prctl(PR_SET_NAME, argv[1])) {
		perror("oom-hog: prctl");
		return 1;
	}
	printf("%d\n", getpid());
	fflush(stdout);
	p = mmap(NULL, mib << 20, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("oom-hog: mmap");
		return 1;
	}
	for (i = 0; i < mib; i++)
		memset(p + (i << 20), 0xa5, 1 << 20);
	printf("survived\n");
	return 0;
}
