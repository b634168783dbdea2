/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The user side of the event channel: one reader over the perf buffer or the
 * ring buffer, with batched wakeups, timed flushes and exact loss counts,
 * which it reports as they happen and sums up at the end.
 *
 *	bpfkit_channel_prepare(obj, &rodata->bpfkit_channel_cfg, &opts);
 *	ch = bpfkit_channel_open(skel, &opts, fn, ctx);	after load
 *	bpfkit_run(ch, NULL);				poll until told to stop
 */
#ifndef BPFKIT_CHANNEL_H
#define BPFKIT_CHANNEL_H

#include <signal.h>
#include <stddef.h>
#include <bpf/libbpf.h>
#include "bpfkit/channel.h"

/* Which buffer carries records from the kernel. */
enum bpfkit_transport {
	BPFKIT_PERF_BUFFER, /* per-CPU perf buffers, any kernel */
	BPFKIT_RING_BUFFER, /* one BPF ring buffer, Linux 5.8 or later */
};

/* How the channel carries records (--ringbuf, --buffer-pages, ...). */
struct bpfkit_channel_opts {
	enum bpfkit_transport transport;
	unsigned int pages; /* buffer size, in pages per CPU */
	unsigned int wakeup; /* records per reader wakeup */
	unsigned int latency_ms; /* longest wait before a flush */
};

#define BPFKIT_CHANNEL_DEFAULTS                                             \
	{                                                                   \
		.transport = BPFKIT_PERF_BUFFER, .pages = 64, .wakeup = 64, \
		.latency_ms = 100,                                          \
	}

/* Called for each record; SIZE may exceed the record by perf's padding. */
typedef void (*bpfkit_event_fn)(void *ctx, const void *data, size_t size);

struct bpfkit_channel;

struct bpfkit_channel_stats {
	__u64 delivered; /* records handed to the tool's callback */
	__u64 lost; /* records the kernel could not buffer */
	__u64 produced; /* records the BPF side tried to emit */
};

/*
 * Before load: write OPTS into the object's read-only bpfkit_channel_cfg
 * (RODATA), size the chosen transport's map and retype the unused one.
 * Reports its own failures.
 */
int bpfkit_channel_prepare(struct bpf_object *obj,
			   struct bpfkit_channel_cfg *rodata,
			   const struct bpfkit_channel_opts *opts);

/*
 * After load: start reading the records of SKEL's programs, which the drain
 * detaches. Returns NULL and sets errno on failure.
 */
struct bpfkit_channel *
bpfkit_channel_open(struct bpf_object_skeleton *skel,
		    const struct bpfkit_channel_opts *opts, bpfkit_event_fn fn,
		    void *ctx);

/*
 * Wait up to TIMEOUT_MS for records with the signal mask SIGMASK (see
 * epoll_pwait(2)), which stays from then on, and deliver them; flush when
 * due. Each pass of reading ends after a few milliseconds, or at once when
 * *STOP is set (by a signal handler, say), so that the caller comes back
 * and a stop is seen however fast records come.
 */
int bpfkit_channel_poll(struct bpfkit_channel *ch, int timeout_ms,
			const sigset_t *sigmask,
			const volatile sig_atomic_t *stop);

/*
 * Current counts; after bpfkit_channel_drain(), delivered + lost ==
 * produced.
 */
int bpfkit_channel_stats(struct bpfkit_channel *ch,
			 struct bpfkit_channel_stats *stats);

/* Report the records lost since the last report, if any. */
void bpfkit_channel_report_loss(struct bpfkit_channel *ch);

/*
 * At the end: detach the programs, deliver every record they produced
 * until the counts add up and hold still, then report what was lost.
 */
void bpfkit_channel_drain(struct bpfkit_channel *ch);

/* Print "N events, M lost" (and with -j a summary record). */
void bpfkit_channel_summarize(struct bpfkit_channel *ch);

void bpfkit_channel_free(struct bpfkit_channel *ch);

/* The channel's parts that need no kernel, for its unit tests. */

/* The settings OPTS gives the BPF side. */
void bpfkit_channel_cfg_init(struct bpfkit_channel_cfg *cfg,
			     const struct bpfkit_channel_opts *opts);

/* Where records go: the tool's callback, and what reached it or was lost. */
struct bpfkit_sink {
	bpfkit_event_fn fn;
	void *ctx;
	__u64 delivered; /* records handed to fn */
	__u64 perf_lost; /* sum of the perf buffer's PERF_RECORD_LOST counts */
	const volatile sig_atomic_t *stop; /* if set and non-zero: end a pass */
	__u64 pass_end_ns; /* if non-zero: end a pass past this CLOCK_MONOTONIC */
};

/*
 * Read the perf records of RING (SIZE bytes, a power of two) from offset
 * TAIL up to HEAD: each sample's data goes to the sink 8-byte aligned, even
 * when the record wraps past the ring's end; lost counts add up. Returns
 * the new tail: HEAD, or the end of the record after which the sink said
 * the pass must end.
 */
__u64 bpfkit_perf_read(struct bpfkit_sink *sink, const void *ring, size_t size,
		       __u64 tail, __u64 head);

/* Sum NCPUS per-CPU counters of the BPF side with the sink's into STATS. */
void bpfkit_channel_tally(const struct bpfkit_stats *percpu, int ncpus,
			  const struct bpfkit_sink *sink,
			  struct bpfkit_channel_stats *stats);

#endif /* BPFKIT_CHANNEL_H */
