// SPDX-License-Identifier: GPL-2.0
/*
 * leak N SIZE [GO]: print this process's pid, wait until file GO exists (if
 * given), then allocate N blocks of SIZE bytes in bk_leak_blocks() and
 * keep them, and N more in bk_freed_blocks() and free them; print "done"
 * and wait for a signal. Built with frame pointers, for memleak.bats's
 * stacks.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void *volatile kept[4096];
static void *volatile freed[4096];

__attribute__((noinline)) void bk_leak_blocks(int n, size_t size)
{
	int i;

	for (i = 0; i < n; i++)
		kept[i] = malloc(size);
}

__attribute__((noinline)) void bk_freed_blocks(int n, size_t size)
{
	int i;

	for (i = 0; i < n; i++)
		freed[i] = malloc(size);
	for (i = 0; i < n; i++)
		free(freed[i]);
}

int main(int argc, char **argv)
{
	int n;
	size_t size;

	if (argc < 3 || atoi(argv[1]) < 0 || atoi(argv[1]) > 4096) {
		fprintf(stderr, "usage: leak N(0-4096) SIZE [GO]\n");
		return 2;
	}
	n = atoi(argv[1]);
	size = strtoul(argv[2], NULL, 0);
	/* stdio's buffer now, not among the blocks counted. */
	printf("%d\n", getpid());
	fflush(stdout);
	while (argc > 3 && access(argv[3], F_OK))
		usleep(10000);
	bk_leak_blocks(n, size);
	bk_freed_blocks(n, size);
	printf("done\n");
	fflush(stdout);
	pause();
	return 0;
}
