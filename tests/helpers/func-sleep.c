// SPDX-License-Identifier: GPL-2.0
/*
 * func-sleep CALLS MS [GO]: print this process's pid, wait until file GO
 * exists (if given), then call bk_sleep_ms(MS) CALLS times: the function
 * funclatency.bats times, which sleeps MS milliseconds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

__attribute__((noinline)) void bk_sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, ms % 1000 * 1000000 };

	while (nanosleep(&ts, &ts))
		;
	__asm__ volatile("" ::: "memory");
}

int main(int argc, char **argv)
{
	long calls, ms, i;

	if (argc < 3) {
		fprintf(stderr, "usage: func-sleep CALLS MS [GO]\n");
		return 2;
	}
	calls = atol(argv[1]);
	ms = atol(argv[2]);
	printf("%d\n", getpid());
	fflush(stdout);
	while (argc > 3 && access(argv[3], F_OK))
		usleep(10000);
	for (i = 0; i < calls; i++)
		bk_sleep_ms(ms);
	return 0;
}
