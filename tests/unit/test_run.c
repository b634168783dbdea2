// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The run loop on sources of the test's own: a readable fd calls its
 * handler, a timer its own every interval, a handler's verdict ends the
 * loop (or its error), --duration and stdout's hang-up end it quietly, the
 * sources are forgotten with the loop, and a stop signal ends it; a lap
 * times an interval.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <cmocka.h>
#include "run.h"

struct counter {
	int fd; /* a pipe's read end, drained when set */
	int calls;
	int stop_at; /* the call whose verdict is RET */
	int ret;
};

static int count(void *ctx)
{
	struct counter *c = ctx;
	char buf[64];

	if (c->fd >= 0)
		while (read(c->fd, buf, sizeof(buf)) > 0)
			;
	return ++c->calls == c->stop_at ? c->ret : 0;
}

static int time_out(void *ctx)
{
	return -ETIMEDOUT;
}

/* A loop that would wait for ever fails after 10 s instead. */
static void guard(void)
{
	const struct bpfkit_tick tick = { 10000, time_out, NULL };

	assert_int_equal(bpfkit_run_every(&tick), 0);
}

static int setup(void **state)
{
	bpfkit_run_init(0);
	return 0;
}

/* Data on a watched pipe calls its handler; its verdict 1 ends the loop. */
static void test_watch(void **state)
{
	struct counter c = { .stop_at = 1, .ret = 1 };
	int p[2];

	assert_int_equal(pipe2(p, O_NONBLOCK), 0);
	c.fd = p[0];
	assert_int_equal(write(p[1], "x", 1), 1);
	assert_int_equal(bpfkit_run_watch(p[0], EPOLLIN, count, &c), 0);
	guard();
	assert_int_equal(bpfkit_run_loop(), 0);
	assert_int_equal(c.calls, 1);
	close(p[0]);
	close(p[1]);
}

/* A timer calls its handler every interval; an error ends the loop. */
static void test_every(void **state)
{
	struct counter c = { .fd = -1, .stop_at = 3, .ret = -EIO };
	const struct bpfkit_tick tick = { 5, count, &c };

	assert_int_equal(bpfkit_run_every(&tick), 0);
	guard();
	assert_int_equal(bpfkit_run_loop(), -EIO);
	assert_int_equal(c.calls, 3);
}

/*
 * --duration ends the loop with 0; the sources of the loop before are
 * gone, though their fd still has data.
 */
static void test_duration_forgets(void **state)
{
	struct counter c = { .stop_at = 1, .ret = 1 };
	int p[2];

	assert_int_equal(pipe2(p, O_NONBLOCK), 0);
	assert_int_equal(write(p[1], "x", 1), 1);
	c.fd = -1; /* not drained: the pipe stays readable */
	assert_int_equal(bpfkit_run_watch(p[0], EPOLLIN, count, &c), 0);
	guard();
	assert_int_equal(bpfkit_run_loop(), 0);
	assert_int_equal(c.calls, 1);
	bpfkit_run_init(0.02);
	guard();
	assert_int_equal(bpfkit_run_loop(), 0);
	assert_int_equal(c.calls, 1);
	bpfkit_run_init(0);
	close(p[0]);
	close(p[1]);
}

/* A pipe on stdout whose reader has gone ends the loop quietly. */
static void test_stdout_hangup(void **state)
{
	int saved, p[2], ret;

	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	assert_int_equal(pipe2(p, O_NONBLOCK), 0);
	dup2(p[1], STDOUT_FILENO);
	close(p[1]);
	close(p[0]);
	guard();
	ret = bpfkit_run_loop();
	dup2(saved, STDOUT_FILENO);
	close(saved);
	assert_int_equal(ret, 0);
}

static int send_sigterm(void *ctx)
{
	raise(SIGTERM);
	return 0;
}

/* A stop signal (the last test: the stop stays asked) ends the loop, 0. */
static void test_stop_signal(void **state)
{
	const struct bpfkit_tick tick = { 5, send_sigterm, NULL };

	assert_int_equal(*bpfkit_stop_flag(), 0);
	assert_int_equal(bpfkit_run_every(&tick), 0);
	guard();
	assert_int_equal(bpfkit_run_loop(), 0);
	assert_int_not_equal(*bpfkit_stop_flag(), 0);
}

/* A lap is the time since the last one, which it restarts. */
static void test_lap(void **state)
{
	struct timespec last;
	double s;

	clock_gettime(CLOCK_MONOTONIC, &last);
	last.tv_sec -= 2;
	s = bpfkit_lap(&last);
	assert_true(s >= 2.0 && s < 3.0);
	s = bpfkit_lap(&last);
	assert_true(s >= 0.0 && s < 1.0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_watch),
		cmocka_unit_test(test_every),
		cmocka_unit_test(test_duration_forgets),
		cmocka_unit_test(test_stdout_hangup),
		cmocka_unit_test(test_stop_signal),
		cmocka_unit_test(test_lap),
	};

	return cmocka_run_group_tests_name("run", tests, setup, NULL);
}
