// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * mutex-hold ROUNDS HOLD_MS: print this process's pid and the address of
 * its pthread mutex, and stop (SIGSTOP) until continued; then ROUNDS
 * times: the main thread takes the mutex, lets the waiter thread
 * (bk_mutex_waiter) block on it, holds it HOLD_MS more (asleep) and lets
 * it go; the waiter takes it and lets it go at once. Each of the waiter's
 * ROUNDS waits lasts about HOLD_MS, on that mutex. Prints "done" and stops
 * again until continued, so that its stacks can still be symbolized.
 */
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static sem_t go, done;
static int rounds;

/* Block on the mutex each round, once the main thread holds it. */
__attribute__((noinline)) static void *bk_mutex_waiter(void *arg)
{
	int i;

	for (i = 0; i < rounds; i++) {
		sem_wait(&go);
		pthread_mutex_lock(&lock);
		pthread_mutex_unlock(&lock);
		sem_post(&done);
	}
	return arg;
}

int main(int argc, char **argv)
{
	struct timespec hold;
	pthread_t waiter;
	double ms;
	int i;

	if (argc != 3 || (rounds = atoi(argv[1])) <= 0 ||
	    (ms = atof(argv[2])) <= 0) {
		fprintf(stderr, "usage: mutex-hold ROUNDS HOLD_MS\n");
		return 2;
	}
	hold.tv_sec = ms / 1000;
	hold.tv_nsec = (long)(ms * 1e6) % 1000000000;
	sem_init(&go, 0, 0);
	sem_init(&done, 0, 0);
	printf("%d\n%p\n", getpid(), (void *)&lock);
	fflush(stdout);
	raise(SIGSTOP);
	if (pthread_create(&waiter, NULL, bk_mutex_waiter, NULL))
		return 1;
	for (i = 0; i < rounds; i++) {
		pthread_mutex_lock(&lock);
		sem_post(&go);
		nanosleep(&hold, NULL);
		pthread_mutex_unlock(&lock);
		sem_wait(&done);
	}
	pthread_join(waiter, NULL);
	printf("done\n");
	fflush(stdout);
	raise(SIGSTOP);
	return 0;
}
