/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The user side of the event channel: one reader over the perf buffer or the
 * ring buffer, with batched wakeups, timed flushes and exact loss counts,
 * which it reports as they happen and sums up at the end. The run loop
 * (run.h) reads it once it is open.
 *
 *	bpfkit_channel_prepare(obj, &rodata->bpfkit_channel_cfg, &opts);
 *	ch = bpfkit_channel_open(skel, &opts, fn, ctx);	after load
 *	err = bpfkit_run_loop();			until told to stop
 *	bpfkit_channel_drain(ch);
 *	bpfkit_channel_summarize(ch);
 */
#ifndef BPFKIT_CHANNEL_H
#define BPFKIT_CHANNEL_H

#include <stdbool.h>
#include <signal.h>
#include <stddef.h>
#include <linux/perf_event.h>
#include <bpf/libbpf.h>
#include "bpfkit/channel.h"
#include "overload.h"

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
	/* --rate-limit, --rate-limit-by, --sample, --max-cpu (overload.h) */
	struct bpfkit_overload_opts overload;
};

#define BPFKIT_CHANNEL_DEFAULTS                                               \
	{                                                                     \
		.transport = BPFKIT_PERF_BUFFER, .pages = 64, .wakeup = 1024, \
		.latency_ms = 100,                                            \
	}

/* What a tool's callback did with a record. */
enum bpfkit_verdict {
	BPFKIT_SHOWN, /* printed it */
	BPFKIT_FILTERED, /* left it out: a user-space filter (-n, -l) */
	BPFKIT_UNREADABLE, /* could not read it (too short): lost, read failed */
};

/*
 * Called for each record, which starts with its struct bpfkit_record; SIZE
 * may exceed the record by perf's padding. Returns what became of the
 * record, for the summary.
 */
typedef enum bpfkit_verdict (*bpfkit_event_fn)(void *ctx, const void *data,
					       size_t size);

/*
 * A tool's events printed from parts: bpfkit_print_event() with the
 * printer as its context reads each record as they say.
 */
struct bpfkit_printer {
	size_t size; /* the event's: a shorter record is unreadable */
	/*
	 * Count an event (for -C or metrics), or NULL: 0, or -errno when it
	 * could not be: then "failed to COUNTING: ..." and the run stops.
	 * With counts instead of events (bpfkit_output_counts()), events are
	 * counted, not printed.
	 */
	int (*count)(const void *event);
	const char *counting; /* e.g. "count connects" */
	void (*text)(const void *event); /* its row on stdout */
	void (*json)(const void *event); /* its JSON Lines object, with -j */
};

/* A bpfkit_event_fn: DATA printed as CTX, a struct bpfkit_printer, says. */
enum bpfkit_verdict bpfkit_print_event(void *ctx, const void *data,
				       size_t size);

struct bpfkit_channel;

/*
 * Every produced event is delivered, lost, or on purpose not sent:
 * delivered + lost + throttled + sampled == produced once the channel is
 * drained. A delivered record was shown or filtered.
 */
struct bpfkit_channel_stats {
	__u64 produced; /* events the BPF side emitted or gave up (bpfkit_drop) */
	__u64 delivered; /* records the tool read: shown + filtered */
	__u64 shown; /* ...and printed: the summary's "events" */
	__u64 filtered; /* ...and left out by a user-space filter (-n, -l) */
	__u64 lost; /* buffer_full + staging_full + read_failed */
	__u64 buffer_full; /* records that found no room in the buffer */
	__u64 staging_full; /* events a BPF staging map had no room for */
	__u64 read_failed; /* events whose staged entry was missing in BPF,
			    * or records too short for the tool to read */
	/* Overload control: events not sent, on purpose (overload.h) */
	__u64 throttled; /* by --rate-limit or --max-cpu */
	__u64 sampled; /* left out by --sample */
	__u64 limit_misses; /* keys that found no rate-limit bucket */
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
 * detaches: in the next bpfkit_run_loop(), whenever the buffers wake it and
 * every --latency, a pass of reading that a stop (bpfkit_stop_flag()) or a
 * few milliseconds end. Returns NULL and sets errno on failure.
 */
struct bpfkit_channel *
bpfkit_channel_open(struct bpf_object_skeleton *skel,
		    const struct bpfkit_channel_opts *opts, bpfkit_event_fn fn,
		    void *ctx);

/*
 * Current counts; after bpfkit_channel_drain(), delivered + lost ==
 * produced.
 */
int bpfkit_channel_stats(struct bpfkit_channel *ch,
			 struct bpfkit_channel_stats *stats);

/*
 * At the end: detach the programs, deliver every record they produced
 * until the counts add up and hold still, then report what was lost.
 */
void bpfkit_channel_drain(struct bpfkit_channel *ch);

/*
 * Print "N events, M lost" with the reasons of the loss and the filtered
 * count when not zero (and with -j a summary record with all of them).
 */
void bpfkit_channel_summarize(struct bpfkit_channel *ch);

void bpfkit_channel_free(struct bpfkit_channel *ch);

/*
 * Give CH LINK, another link of one of its skeleton's programs (one that
 * serves several tracepoints): it is detached with theirs when CH drains,
 * and destroyed with CH. 0, or -ENOMEM (LINK destroyed).
 */
int bpfkit_channel_add_link(struct bpfkit_channel *ch, struct bpf_link *link);

/*
 * Give CH the overload control of its programs (overload.h), which it
 * ticks at its wakeups, sums up and frees.
 */
void bpfkit_channel_overload(struct bpfkit_channel *ch,
			     struct bpfkit_overload *ov);

/* The channel's parts that need no kernel, for its unit tests. */

/* The settings OPTS gives the BPF side. */
void bpfkit_channel_cfg_init(struct bpfkit_channel_cfg *cfg,
			     const struct bpfkit_channel_opts *opts);

/* Where records go: the tool's callback, and what reached it or was lost. */
struct bpfkit_sink {
	bpfkit_event_fn fn;
	void *ctx;
	__u64 delivered; /* records fn read: BPFKIT_SHOWN or BPFKIT_FILTERED */
	__u64 filtered; /* ...of which BPFKIT_FILTERED */
	__u64 unreadable; /* records fn returned BPFKIT_UNREADABLE for */
	__u64 perf_lost; /* sum of the perf buffer's PERF_RECORD_LOST counts */
	const volatile sig_atomic_t *stop; /* if set and non-zero: end a pass */
	__u64 pass_end_ns; /* if non-zero: end a pass past this CLOCK_MONOTONIC */
};

/*
 * One CPU's perf buffer in the merge: its next record, which libbpf handed
 * over (bpfkit_perf_take()) ahead of its delivery, its data copied to an
 * 8-byte boundary.
 */
struct bpfkit_perf_next {
	__u64 *data;
	size_t cap; /* bytes of data */
	size_t size; /* bytes of the record */
	bool ready; /* a record is held */
};

/*
 * The perf buffers of all CPUs, each in time order, merged into one
 * sequence in time order: a k-way merge over each buffer's next record.
 */
struct bpfkit_perf_merge {
	struct bpfkit_sink *sink;
	struct bpfkit_perf_next *next; /* one per buffer */
	size_t n;
	__u64 horizon_ns; /* a pass delivers the records stamped before this */
	/*
	 * Have buffer I's reader (libbpf's perf_buffer__consume_buffer())
	 * hand its records to bpfkit_perf_take() until that says done or the
	 * buffer is empty; 0 or -errno.
	 */
	int (*fill)(void *ctx, size_t i);
	void *ctx;
};

/*
 * The callback for each perf record of buffer I (libbpf's event_cb): add a
 * PERF_RECORD_LOST's count to the sink's perf_lost and go on
 * (LIBBPF_PERF_EVENT_CONT); hold a sample as the buffer's next record, and
 * stop there (LIBBPF_PERF_EVENT_DONE).
 */
enum bpf_perf_event_ret bpfkit_perf_take(struct bpfkit_perf_merge *m, size_t i,
					 const struct perf_event_header *e);

/*
 * One pass: hand the sink, 8-byte aligned, every record stamped before the
 * horizon, in the order of the times in their struct bpfkit_record headers
 * (a record too short for one comes first), each buffer's next record
 * taken as the one before is delivered. 1 once every buffer is read up to
 * the horizon; 0 as soon as the sink says the pass must end (the records
 * taken and not delivered stay held for the next pass); -errno from fill.
 */
int bpfkit_perf_merge(struct bpfkit_perf_merge *m);

/* Sum NCPUS per-CPU counters of the BPF side with the sink's into STATS. */
void bpfkit_channel_tally(const struct bpfkit_stats *percpu, int ncpus,
			  const struct bpfkit_sink *sink,
			  struct bpfkit_channel_stats *stats);

#endif /* BPFKIT_CHANNEL_H */
