// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * exec-pair GAP_MS PATH: run PATH twice, each from a child of its own, the
 * second exec at least GAP_MS after the first; print each child's pid, the
 * CLOCK_MONOTONIC time (ns) it called execve at and the time it was seen
 * to have exited, one "PID AT DONE" line each, so that a test can compare
 * a tracer's times with the real gap: an event of the exec happened
 * between AT and DONE, however long a busy machine kept the child from
 * running in between.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/wait.h>

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/*
 * Fork a child that notes the time in AT, shared, then runs PATH; return
 * its pid once the time is there. The child wakes no one before its exec
 * (the parent polls), so nothing delays it between the time and the exec.
 */
static int spawn(char *path, volatile unsigned long long *at)
{
	const struct timespec poll_interval = { .tv_nsec = 1000000 };
	char *argv[] = { path, NULL };
	int pid;

	*at = 0;
	pid = fork();
	if (pid < 0) {
		perror("exec-pair: fork");
		exit(1);
	}
	if (pid == 0) {
		*at = now_ns();
		execv(path, argv);
		perror("exec-pair: execv");
		_exit(127);
	}
	while (!*at)
		nanosleep(&poll_interval, NULL);
	return pid;
}

int main(int argc, char **argv)
{
	volatile unsigned long long *at;
	unsigned long long second, done[2];
	struct timespec until;
	int pid[2];
	long gap_ms;

	if (argc != 3 || (gap_ms = atol(argv[1])) <= 0) {
		fprintf(stderr, "usage: exec-pair GAP_MS PATH\n");
		return 2;
	}
	at = mmap(NULL, 2 * sizeof(*at), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (at == MAP_FAILED) {
		perror("exec-pair: mmap");
		return 1;
	}
	pid[0] = spawn(argv[2], &at[0]);
	waitpid(pid[0], NULL, 0);
	done[0] = now_ns();
	second = at[0] + gap_ms * 1000000ULL;
	until.tv_sec = second / 1000000000ULL;
	until.tv_nsec = second % 1000000000ULL;
	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL);
	pid[1] = spawn(argv[2], &at[1]);
	waitpid(pid[1], NULL, 0);
	done[1] = now_ns();
	printf("%d %llu %llu\n%d %llu %llu\n", pid[0], at[0], done[0], pid[1],
	       at[1], done[1]);
	return 0;
}
