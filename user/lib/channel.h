/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The user side of the event channel: one reader over the perf buffer or the
 * ring buffer, with batched wakeups, timed flushes and exact loss counts.
 *
 *	bpfkit_channel_prepare(obj, &rodata->bpfkit_cfg);	before load
 *	ch = bpfkit_channel_open(obj, fn, ctx);	after load
 *	bpfkit_run(ch, NULL);			poll until told to stop
 */
#ifndef BPFKIT_CHANNEL_H
#define BPFKIT_CHANNEL_H

#include <stddef.h>
#include <bpf/libbpf.h>
#include "bpfkit/channel.h"

/* Called for each record; SIZE may exceed the record by perf's padding. */
typedef void (*bpfkit_event_fn)(void *ctx, const void *data, size_t size);

struct bpfkit_channel;

struct bpfkit_counts {
	__u64 delivered; /* records handed to the tool's callback */
	__u64 lost; /* records the kernel could not buffer */
	__u64 produced; /* records the BPF side tried to emit */
};

/*
 * Before load: write the filters and channel settings into the object's
 * read-only bpfkit_cfg, size the chosen transport's map and retype the
 * unused one. Reports its own failures.
 */
int bpfkit_channel_prepare(struct bpf_object *obj, struct bpfkit_cfg *rodata);

/* After load: start reading. Returns NULL and sets errno on failure. */
struct bpfkit_channel *bpfkit_channel_open(struct bpf_object *obj,
					   bpfkit_event_fn fn, void *ctx);

/* Wait up to TIMEOUT_MS for records and deliver them; flush when due. */
int bpfkit_channel_poll(struct bpfkit_channel *ch, int timeout_ms);

/* Deliver every pending record now. */
int bpfkit_channel_flush(struct bpfkit_channel *ch);

/* Current counters; after a final flush, delivered + lost == produced. */
int bpfkit_channel_counts(struct bpfkit_channel *ch,
			  struct bpfkit_counts *counts);

void bpfkit_channel_free(struct bpfkit_channel *ch);

#endif /* BPFKIT_CHANNEL_H */
