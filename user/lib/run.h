/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The run loop: it waits on the sources the rooms register, an fd and a
 * handler each (the channel's buffers, the metrics listener, a timer such
 * as a histogram's interval), calls a source's handler when it is ready and
 * flushes stdout, until a handler, bpfkit_stop(), --duration, a stop signal
 * (SIGINT, SIGTERM, SIGHUP) or stdout's hang-up ends it. It knows no room.
 *
 *	bpfkit_run_init(duration);		at start: catch the stop signals
 *	bpfkit_run_watch(fd, EPOLLIN, fn, ctx);	the rooms' sources
 *	bpfkit_run_every(&tick);
 *	err = bpfkit_run_loop();
 */
#ifndef BPFKIT_RUN_H
#define BPFKIT_RUN_H

#include <signal.h>
#include <time.h>

/*
 * A source's handler: 0 goes on; above 0 ends the loop; -errno ends it
 * with that error, which the handler has reported.
 */
typedef int (*bpfkit_handler_fn)(void *ctx);

/* A timer: FN(CTX) every INTERVAL_MS, e.g. a report every interval. */
struct bpfkit_tick {
	unsigned int interval_ms;
	bpfkit_handler_fn fn;
	void *ctx;
};

/*
 * Catch the stop signals from now on, before the slow part of start-up, and
 * run for DURATION seconds (0: until stopped).
 */
void bpfkit_run_init(double duration);

/*
 * Call FN(CTX) whenever FD has EVENTS (epoll's: EPOLLIN, or 0 for only a
 * hang-up or an error) in the next bpfkit_run_loop(). 0 or -errno.
 */
int bpfkit_run_watch(int fd, unsigned int events, bpfkit_handler_fn fn,
		     void *ctx);

/* Call TICK's function every interval, from a timerfd. 0 or -errno. */
int bpfkit_run_every(const struct bpfkit_tick *tick);

/*
 * Announce "tracing", then run the sources until stopped, flushing stdout
 * after each wakeup; then forget them. 0, or -errno from a handler or a
 * failed write to stdout.
 */
int bpfkit_run_loop(void);

/*
 * The seconds since *LAST (CLOCK_MONOTONIC), which then becomes now: an
 * interval's length, for the tools that report one (start it with
 * clock_gettime(CLOCK_MONOTONIC, LAST)).
 */
double bpfkit_lap(struct timespec *last);

/* Ask the loop to stop, e.g. after --count events. */
void bpfkit_stop(void);

/* Non-zero once a stop was asked for: a handler's long pass ends there. */
const volatile sig_atomic_t *bpfkit_stop_flag(void);

#endif /* BPFKIT_RUN_H */
