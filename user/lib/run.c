// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The main loop: poll, tick, ask for loss reports, stop cleanly. */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>
#include "diag.h"
#include "metrics.h"
#include "output.h"
#include "run.h"

#define LOSS_REPORT_MS 1000
#define TEXTFILE_MS 10000 /* --textfile without an interval */

static struct bpfkit_run_opts opts = { .wake_ms = 100 };
static volatile sig_atomic_t exiting;

static void on_signal(int sig)
{
	exiting = 1;
}

void bpfkit_stop(void)
{
	exiting = 1;
}

bool bpfkit_stopping(void)
{
	return exiting;
}

static __u64 now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000ULL + ts.tv_nsec / 1000000;
}

static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP };

/*
 * Catch the stop signals from the start, before the slow part (open, load,
 * attach): one that comes then stops the run loop at its first check. Caught,
 * too, where the tool was started ignoring them (a background job of a
 * script ignores SIGINT), or a script's `kill -INT` would be lost.
 * SA_RESTART: a write blocked on a full pipe goes on after the signal, so no
 * line is torn or dropped; the waits (epoll_pwait, ppoll) are never
 * restarted, so the signal still ends them. SA_RESETHAND: the same signal
 * once more ends a tool whose reader never reads, at once.
 */
void bpfkit_run_init(const struct bpfkit_run_opts *o)
{
	struct sigaction sa = { .sa_handler = on_signal,
				.sa_flags = SA_RESTART | SA_RESETHAND };
	size_t i;

	opts = *o;
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

/*
 * Flush stdout: 1 when it went away (e.g. `tool | head -1`), which stops
 * the loop quietly; -errno when a write failed otherwise (reported), which
 * ends the tool. A pipe whose reader has gone polls as POLLERR, so this is
 * seen even before the next write fails.
 */
int bpfkit_check_stdout(void)
{
	struct pollfd pfd = { .fd = STDOUT_FILENO };
	int ret = bpfkit_output_flush();

	if (ret)
		return ret;
	return poll(&pfd, 1, 0) == 1 && (pfd.revents & POLLERR);
}

/*
 * Metrics: serve the scrapes that are ready, write the textfile when due,
 * and bring WAKE forward to the next connection's time limit.
 */
static void serve_metrics(__u64 now, __u64 *next_textfile,
			  unsigned int textfile_ms, __u64 *wake)
{
	int next = bpfkit_metrics_serve();

	if (next >= 0 && now + next < *wake)
		*wake = now + next;
	if (*next_textfile && now >= *next_textfile) {
		bpfkit_metrics_write_textfile();
		*next_textfile = now + textfile_ms;
	}
	if (*next_textfile && *next_textfile < *wake)
		*wake = *next_textfile;
}

int bpfkit_run(struct bpfkit_channel *ch, const struct bpfkit_tick *tick)
{
	__u64 start = now_ms(), now = start, next_tick = 0, next_loss = 0;
	__u64 end = opts.duration ? start + (__u64)(opts.duration * 1000) : 0;
	unsigned int textfile_ms = tick ? tick->interval_ms : TEXTFILE_MS;
	__u64 next_textfile = bpfkit_metrics_enabled() ? start : 0;
	__u64 metrics_wake = 0;
	sigset_t stops, waitmask, oldmask;
	int err = 0, ret = 0, mfd;

	err = bpfkit_metrics_start(ch);
	if (err)
		return err;
	mfd = bpfkit_metrics_fd();
	if (ch && mfd >= 0) {
		err = bpfkit_channel_watch(ch, mfd);
		if (err) {
			bpfkit_fail("watch the metrics socket", err);
			return err;
		}
	}
	err = bpfkit_drop_privileges(&opts.drop);
	if (err)
		return err;
	stop_masks(&stops, &waitmask);
	bpfkit_phase_last("first poll");
	bpfkit_output_start();
	bpfkit_error("tracing; hit Ctrl-C to end");
	if (tick)
		next_tick = start + tick->interval_ms;
	next_loss = start + LOSS_REPORT_MS;

	for (;;) {
		__u64 wake = now + opts.wake_ms;
		struct pollfd pfd = { .fd = mfd, .events = POLLIN };
		struct timespec ts;

		/*
		 * From the check to the wait a stop signal stays pending, and
		 * the wait, which unblocks it, ends at once: it cannot slip in
		 * between and leave the loop waiting a full --latency.
		 */
		sigprocmask(SIG_BLOCK, &stops, &oldmask);
		if (exiting)
			break;
		if (tick && next_tick < wake)
			wake = next_tick;
		if (end && end < wake)
			wake = end;
		if (metrics_wake && metrics_wake < wake)
			wake = metrics_wake;
		if (ch) {
			err = bpfkit_channel_poll(ch,
						  wake > now ? wake - now : 0,
						  &waitmask, &exiting);
			if (err < 0) {
				bpfkit_fail("read events", err);
				break;
			}
			err = 0;
		} else {
			/* Even with no time to wait, let a stop signal in. */
			wake = wake > now ? wake - now : 0;
			ts.tv_sec = wake / 1000;
			ts.tv_nsec = wake % 1000 * 1000000;
			ppoll(mfd >= 0 ? &pfd : NULL, mfd >= 0, &ts, &waitmask);
			sigprocmask(SIG_SETMASK, &waitmask, NULL);
		}
		now = now_ms();
		if (bpfkit_metrics_enabled()) {
			metrics_wake = UINT64_MAX;
			serve_metrics(now, &next_textfile, textfile_ms,
				      &metrics_wake);
		}
		if (tick && now >= next_tick) {
			if (tick->fn(tick->ctx))
				break;
			next_tick += tick->interval_ms;
		}
		if (ch && now >= next_loss) {
			bpfkit_channel_report_loss(ch);
			next_loss = now + LOSS_REPORT_MS;
		}
		ret = bpfkit_check_stdout();
		if (ret || (end && now >= end))
			break;
	}

	/*
	 * Drain and sum up, unless stdout went away or failed; the signals
	 * unblocked, so that a second one can end a drain that hangs. The
	 * textfile gets the last counts; the socket closes first.
	 */
	sigprocmask(SIG_SETMASK, &oldmask, NULL);
	bpfkit_metrics_write_textfile();
	bpfkit_metrics_stop();
	if (ch && !ret) {
		bpfkit_channel_drain(ch);
		if (!bpfkit_check_stdout())
			bpfkit_channel_summarize(ch);
	}
	ret = bpfkit_output_flush();
	return ret < 0 ? ret : err;
}
