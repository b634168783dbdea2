/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The main loop every tool runs after attaching: poll the channel, call the
 * tool's periodic report, have the channel report losses, stop on SIGINT,
 * SIGTERM, SIGHUP, --duration expiry or a closed stdout, then have the
 * channel drain and sum up.
 */
#ifndef BPFKIT_RUN_H
#define BPFKIT_RUN_H

#include "channel.h"
#include "kernel.h"

/* How long the loop runs and how often it wakes. */
struct bpfkit_run_opts {
	double duration; /* seconds; 0: until a signal */
	unsigned int wake_ms; /* longest sleep between checks */
	struct bpfkit_drop_opts drop; /* whom to become once set up */
};

/* Run as OPTS says from now on; until a signal, every 100 ms, until called. */
void bpfkit_run_init(const struct bpfkit_run_opts *opts);

/* A periodic report, e.g. printing counts every interval. */
struct bpfkit_tick {
	unsigned int interval_ms;
	int (*fn)(void *ctx); /* non-zero return stops the loop */
	void *ctx;
};

/*
 * Run until told to stop, as the --drop-privileges user once the metrics
 * socket is bound (nothing the loop does needs privileges). CH may be NULL for tools that only read maps;
 * TICK may be NULL for tools that only print events. Returns 0 or -errno.
 */
int bpfkit_run(struct bpfkit_channel *ch, const struct bpfkit_tick *tick);

/* Ask the loop to stop, e.g. after --count events. */
void bpfkit_stop(void);

/* True once a stop was requested. */
bool bpfkit_stopping(void);

/*
 * Flush stdout: 0 when fine, 1 once its reader has gone (nothing more is to
 * be printed), -errno once a write failed otherwise (reported).
 */
int bpfkit_check_stdout(void);

#endif /* BPFKIT_RUN_H */
