// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The run loop: the rooms' sources in one epoll set, timers, stop signals. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <time.h>
#include <unistd.h>
#include <linux/types.h>
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include "diag.h"
#include "output.h"
#include "run.h"

#define MAX_SOURCES 16

struct source {
	int fd;
	bool timer; /* a timerfd of ours: read, then closed with the loop */
	bpfkit_handler_fn fn;
	void *ctx;
};

static struct source sources[MAX_SOURCES];
static int nr_sources;
static int epoll_fd = -1;
static double duration;
static volatile sig_atomic_t exiting;

static void on_signal(int sig)
{
	exiting = 1;
}

void bpfkit_stop(void)
{
	exiting = 1;
}

const volatile sig_atomic_t *bpfkit_stop_flag(void)
{
	return &exiting;
}

static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP };

/*
 * Catch the stop signals from the start, before the slow part (open, load,
 * attach): one that comes then stops the run loop at its first check. Caught,
 * too, where the tool was started ignoring them (a background job of a
 * script ignores SIGINT), or a script's `kill -INT` would be lost.
 * SA_RESTART: a write blocked on a full pipe goes on after the signal, so no
 * line is torn or dropped; the wait (epoll_pwait) is never restarted, so the
 * signal still ends it. SA_RESETHAND: the same signal once more ends a tool
 * whose reader never reads, at once.
 */
void bpfkit_run_init(double seconds)
{
	struct sigaction sa = { .sa_handler = on_signal,
				.sa_flags = SA_RESTART | SA_RESETHAND };
	size_t i;

	duration = seconds;
	for (i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++)
		sigaction(stop_signals[i], &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

/* STOPS: the stop signals; WAITMASK: the signal mask the loop waits with. */
static void stop_masks(sigset_t *stops, sigset_t *waitmask)
{
	size_t i;

	sigemptyset(stops);
	sigprocmask(SIG_SETMASK, NULL, waitmask);
	for (i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++) {
		sigaddset(stops, stop_signals[i]);
		sigdelset(waitmask, stop_signals[i]);
	}
}

/* The epoll set of the sources, made with the first. */
static int open_set(void)
{
	if (epoll_fd < 0)
		epoll_fd = epoll_create1(EPOLL_CLOEXEC);
	return epoll_fd < 0 ? -errno : 0;
}

static int add(int fd, unsigned int events, bool timer, bpfkit_handler_fn fn,
	       void *ctx)
{
	struct source *s = &sources[nr_sources];
	struct epoll_event ev = { .events = events, .data.ptr = s };
	int err = nr_sources < MAX_SOURCES ? open_set() : -ENOSPC;

	if (err)
		return err;
	*s = (struct source){ .fd = fd, .timer = timer, .fn = fn, .ctx = ctx };
	if (epoll_ctl(epoll_fd, EPOLL_CTL_ADD, fd, &ev))
		return -errno;
	nr_sources++;
	return 0;
}

int bpfkit_run_watch(int fd, unsigned int events, bpfkit_handler_fn fn,
		     void *ctx)
{
	return add(fd, events, false, fn, ctx);
}

/* FN(CTX) every NS nanoseconds. */
static int add_timer(__u64 ns, bpfkit_handler_fn fn, void *ctx)
{
	struct timespec every = { .tv_sec = ns / 1000000000,
				  .tv_nsec = ns % 1000000000 };
	struct itimerspec its = { .it_value = every, .it_interval = every };
	int fd, err;

	if (!ns)
		return -EINVAL;
	fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (timerfd_settime(fd, 0, &its, NULL))
		err = -errno;
	else
		err = add(fd, EPOLLIN, true, fn, ctx);
	if (err)
		close(fd);
	return err;
}

int bpfkit_run_every(const struct bpfkit_tick *tick)
{
	return add_timer(tick->interval_ms * 1000000ULL, tick->fn, tick->ctx);
}

static int end_now(void *ctx)
{
	return 1;
}

/*
 * Stdout hung up: its reader has gone (`tool | head -1`), which ends the
 * loop quietly, unless the last output fails to go otherwise.
 */
static int stdout_gone(void *ctx)
{
	int ret = bpfkit_output_flush();

	return ret < 0 ? ret : 1;
}

/* Call S's handler; a timer's expirations are read first, or it stays ready. */
static int dispatch(const struct source *s)
{
	__u64 expirations;

	if (s->timer && read(s->fd, &expirations, sizeof(expirations)) < 0)
		return 0;
	return s->fn(s->ctx);
}

static void forget_sources(void)
{
	int i;

	for (i = 0; i < nr_sources; i++)
		if (sources[i].timer)
			close(sources[i].fd);
	nr_sources = 0;
	if (epoll_fd >= 0)
		close(epoll_fd);
	epoll_fd = -1;
}

int bpfkit_run_loop(void)
{
	struct epoll_event evs[MAX_SOURCES];
	sigset_t stops, waitmask, oldmask;
	int ret, n, i;

	ret = open_set();
	if (!ret && duration)
		ret = add_timer(duration * 1e9, end_now, NULL);
	if (ret) {
		bpfkit_fail("start the run loop", ret);
		forget_sources();
		return ret;
	}
	/* A file or /dev/null never hangs up, and cannot be watched. */
	add(STDOUT_FILENO, 0, false, stdout_gone, NULL);
	stop_masks(&stops, &waitmask);
	bpfkit_phase_last("first poll");
	bpfkit_error("tracing; hit Ctrl-C to end");

	while (!ret) {
		/*
		 * From the check to the wait a stop signal stays pending, and
		 * the wait, which unblocks it, ends at once: it cannot slip in
		 * between and leave the loop waiting for the next timer.
		 */
		sigprocmask(SIG_BLOCK, &stops, &oldmask);
		if (exiting)
			break;
		n = epoll_pwait(epoll_fd, evs, MAX_SOURCES, -1, &waitmask);
		ret = n < 0 && errno != EINTR ? -errno : 0;
		sigprocmask(SIG_SETMASK, &waitmask, NULL);
		if (ret)
			bpfkit_fail("wait for events", ret);
		for (i = 0; i < n && !ret; i++)
			ret = dispatch(evs[i].data.ptr);
		if (!ret)
			ret = bpfkit_output_flush();
	}
	/* The signals unblocked: a second one ends what follows, at once. */
	sigprocmask(SIG_SETMASK, &oldmask, NULL);
	forget_sources();
	return ret < 0 ? ret : 0;
}

double bpfkit_lap(struct timespec *last)
{
	struct timespec now;
	double s;

	clock_gettime(CLOCK_MONOTONIC, &now);
	s = now.tv_sec - last->tv_sec + (now.tv_nsec - last->tv_nsec) / 1e9;
	*last = now;
	return s;
}
