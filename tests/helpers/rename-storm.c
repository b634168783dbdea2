// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * rename-storm DIR THREADS MS: print this process's pid and stop
 * (SIGSTOP) until continued; then THREADS threads each rename a file of
 * their own in DIR back and forth for MS milliseconds, all contending for
 * DIR's inode lock (i_rwsem, taken by every rename in it); print the
 * renames done and "done", and exit. Kernel lock contention (klockstat).
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define MAX_THREADS 64

static const char *dir;
static double end_ms;

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void *renamer(void *arg)
{
	long t = (long)arg, n = 0;
	char a[4096], b[4096];
	FILE *f;

	snprintf(a, sizeof(a), "%s/bk-rename-%ld-a", dir, t);
	snprintf(b, sizeof(b), "%s/bk-rename-%ld-b", dir, t);
	f = fopen(a, "w");
	if (!f)
		return (void *)-1L;
	fclose(f);
	while (now_ms() < end_ms) {
		if (rename(a, b) || rename(b, a))
			return (void *)-1L;
		n += 2;
	}
	unlink(a);
	return (void *)n;
}

int main(int argc, char **argv)
{
	pthread_t threads[MAX_THREADS];
	long i, nthreads, total = 0;
	void *n;

	if (argc != 4 || (nthreads = atol(argv[2])) <= 0 ||
	    nthreads > MAX_THREADS) {
		fprintf(stderr, "usage: rename-storm DIR THREADS(1-64) MS\n");
		return 2;
	}
	dir = argv[1];
	printf("%d\n", getpid());
	fflush(stdout);
	raise(SIGSTOP);
	end_ms = now_ms() + atof(argv[3]);
	for (i = 0; i < nthreads; i++)
		if (pthread_create(&threads[i], NULL, renamer, (void *)i))
			return 1;
	for (i = 0; i < nthreads; i++) {
		pthread_join(threads[i], &n);
		if ((long)n < 0) {
			perror("rename-storm");
			return 1;
		}
		total += (long)n;
	}
	printf("renames %ld\ndone\n", total);
	return 0;
}
