// SPDX-License-Identifier: GPL-2.0
/*
 * stack-spin [SECONDS]: spin on the CPU, about 90% of the time in
 * bk_hot_spin() and 10% in bk_cold_spin(), both called from main(),
 * for SECONDS (default 10). Built with frame pointers for profile.bats.
 */
#include <stdlib.h>
#include <time.h>

#define UNIT 200000 /* iterations per unit of work */

static volatile unsigned long sink;

/*
 * Called first by each spinner, so that neither is a leaf function: GCC 12
 * omits a leaf's frame pointer even with -mno-omit-leaf-frame-pointer, and
 * the unwinder would then skip main.
 */
__attribute__((noinline)) void bk_start_spin(void)
{
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void bk_hot_spin(void)
{
	unsigned long i;

	bk_start_spin();
	for (i = 0; i < 9 * UNIT; i++)
		sink += i;
}

__attribute__((noinline)) void bk_cold_spin(void)
{
	unsigned long i;

	bk_start_spin();
	for (i = 0; i < UNIT; i++)
		sink += i;
}

int main(int argc, char **argv)
{
	double seconds = argc > 1 ? atof(argv[1]) : 10;
	struct timespec start, now;

	clock_gettime(CLOCK_MONOTONIC, &start);
	do {
		bk_hot_spin();
		bk_cold_spin();
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while (now.tv_sec - start.tv_sec +
			 (now.tv_nsec - start.tv_nsec) / 1e9 <
		 seconds);
	return 0;
}
