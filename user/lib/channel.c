// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The event channel: perf or ring buffer reader with exact loss counts. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <bpf/bpf.h>
#include "bpfkit/channel.h"
#include "channel.h"
#include "cli.h"
#include "diag.h"

struct bpfkit_channel {
	struct perf_buffer *pb; /* one of pb and rb is set */
	struct ring_buffer *rb;
	int stats_fd;
	int ncpus;
	struct bpfkit_stats *percpu; /* scratch for reading bpfkit_stats */
	bpfkit_event_fn fn;
	void *ctx;
	__u64 delivered;
	__u64 perf_lost; /* sum of PERF_RECORD_LOST counts */
	__u64 last_flush_ns;
};

/* Layouts of the perf records we read (see perf_event.h). */
struct perf_sample_raw {
	struct perf_event_header header;
	__u32 size;
	char data[];
};

struct perf_lost {
	struct perf_event_header header;
	__u64 id;
	__u64 lost;
};

static __u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* The unused transport's map becomes a one-slot array: cheap everywhere. */
static int retype_unused(struct bpf_map *map)
{
	int err;

	err = bpf_map__set_type(map, BPF_MAP_TYPE_ARRAY);
	if (!err)
		err = bpf_map__set_key_size(map, sizeof(__u32));
	if (!err)
		err = bpf_map__set_value_size(map, sizeof(__u32));
	if (!err)
		err = bpf_map__set_max_entries(map, 1);
	return err;
}

/* Ring size: as much memory as the perf buffers would take, a power of 2. */
static __u32 ring_size(void)
{
	__u64 want = (__u64)bpfkit_env.pages * sysconf(_SC_PAGESIZE) *
		     libbpf_num_possible_cpus();
	__u64 size = sysconf(_SC_PAGESIZE);

	while (size < want && size < (1ULL << 30))
		size <<= 1;
	return size;
}

int bpfkit_channel_prepare(struct bpf_object *obj, struct bpfkit_cfg *rodata)
{
	struct bpf_map *perf = bpf_object__find_map_by_name(obj, "bpfkit_perf");
	struct bpf_map *ring = bpf_object__find_map_by_name(obj, "bpfkit_ring");
	int err;

	if (!perf || !ring) {
		bpfkit_error(
			"the BPF object has no event channel (include bpfkit/channel.bpf.h)");
		return -EINVAL;
	}
	*rodata = bpfkit_env.cfg;
	rodata->ringbuf = bpfkit_env.ringbuf;
	rodata->wakeup = bpfkit_env.wakeup;
	rodata->ring_wakeup_max = ring_size() / 2;
	if (bpfkit_env.ringbuf &&
	    libbpf_probe_bpf_map_type(BPF_MAP_TYPE_RINGBUF, NULL) != 1) {
		bpfkit_error(
			"this kernel has no BPF ring buffer (it needs Linux 5.8 or later); drop --ringbuf to use the perf buffer");
		return -EOPNOTSUPP;
	}
	if (bpfkit_env.ringbuf) {
		err = bpf_map__set_max_entries(ring, ring_size());
		if (!err)
			err = retype_unused(perf);
	} else {
		err = retype_unused(ring);
	}
	if (err)
		bpfkit_fail("set up the event channel", err);
	return err;
}

/* Perf puts raw samples 4 bytes past an 8-byte boundary: realign them. */
static void deliver(struct bpfkit_channel *ch, const void *data, size_t size)
{
	static __u64 aligned[65536 / sizeof(__u64)];

	ch->delivered++;
	if ((uintptr_t)data % sizeof(__u64) && size <= sizeof(aligned)) {
		memcpy(aligned, data, size);
		data = aligned;
	}
	ch->fn(ch->ctx, data, size);
}

static enum bpf_perf_event_ret on_perf_record(void *ctx, int cpu,
					      struct perf_event_header *hdr)
{
	struct bpfkit_channel *ch = ctx;

	if (hdr->type == PERF_RECORD_SAMPLE) {
		struct perf_sample_raw *s = (void *)hdr;

		deliver(ch, s->data, s->size);
	} else if (hdr->type == PERF_RECORD_LOST) {
		ch->perf_lost += ((struct perf_lost *)hdr)->lost;
	}
	return LIBBPF_PERF_EVENT_CONT;
}

/* Always 0: a non-zero return would end ring_buffer__poll() early. */
static int on_ring_record(void *ctx, void *data, size_t size)
{
	deliver(ctx, data, size);
	return 0;
}

static struct perf_buffer *open_perf(struct bpf_object *obj,
				     struct bpfkit_channel *ch)
{
	struct bpf_map *map = bpf_object__find_map_by_name(obj, "bpfkit_perf");
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_BPF_OUTPUT,
		.sample_type = PERF_SAMPLE_RAW,
		.sample_period = 1,
		.wakeup_events = bpfkit_env.wakeup,
	};

	return perf_buffer__new_raw(bpf_map__fd(map), bpfkit_env.pages, &attr,
				    on_perf_record, ch, NULL);
}

struct bpfkit_channel *bpfkit_channel_open(struct bpf_object *obj,
					   bpfkit_event_fn fn, void *ctx)
{
	struct bpf_map *stats =
		bpf_object__find_map_by_name(obj, "bpfkit_stats");
	struct bpf_map *ring = bpf_object__find_map_by_name(obj, "bpfkit_ring");
	struct bpfkit_channel *ch;
	int err;

	ch = calloc(1, sizeof(*ch));
	if (!ch || !stats || !ring) {
		err = ch ? -EINVAL : -ENOMEM;
		goto err_out;
	}
	ch->fn = fn;
	ch->ctx = ctx;
	ch->stats_fd = bpf_map__fd(stats);
	ch->ncpus = libbpf_num_possible_cpus();
	ch->last_flush_ns = now_ns();
	ch->percpu = calloc(ch->ncpus, sizeof(*ch->percpu));
	if (!ch->percpu) {
		err = -ENOMEM;
		goto err_out;
	}
	if (bpfkit_env.ringbuf)
		ch->rb = ring_buffer__new(bpf_map__fd(ring), on_ring_record, ch,
					  NULL);
	else
		ch->pb = open_perf(obj, ch);
	if (!ch->rb && !ch->pb) {
		err = -errno;
		goto err_out;
	}
	return ch;

err_out:
	bpfkit_channel_free(ch);
	errno = -err;
	return NULL;
}

int bpfkit_channel_flush(struct bpfkit_channel *ch)
{
	ch->last_flush_ns = now_ns();
	return ch->rb ? ring_buffer__consume(ch->rb) :
			perf_buffer__consume(ch->pb);
}

int bpfkit_channel_poll(struct bpfkit_channel *ch, int timeout_ms)
{
	int n;

	n = ch->rb ? ring_buffer__poll(ch->rb, timeout_ms) :
		     perf_buffer__poll(ch->pb, timeout_ms);
	if (n == -EINTR)
		n = 0;
	if (n < 0)
		return n;
	/* Batched wakeups leave records behind: flush them in time. */
	if (now_ns() - ch->last_flush_ns >=
	    bpfkit_env.latency_ms * 1000000ULL) {
		int m = bpfkit_channel_flush(ch);

		if (m < 0)
			return m;
		n += m;
	}
	return n;
}

int bpfkit_channel_counts(struct bpfkit_channel *ch,
			  struct bpfkit_counts *counts)
{
	__u32 zero = 0;
	__u64 dropped = 0;
	int i;

	memset(counts, 0, sizeof(*counts));
	if (bpf_map_lookup_elem(ch->stats_fd, &zero, ch->percpu))
		return -errno;
	for (i = 0; i < ch->ncpus; i++) {
		counts->produced += ch->percpu[i].produced;
		dropped += ch->percpu[i].dropped;
	}
	/*
	 * Every record perf reports lost also failed in BPF and was counted
	 * there; BPF also sees failures perf never reports (no reader on a
	 * CPU), so its count is the exact one.
	 */
	counts->lost = dropped > ch->perf_lost ? dropped : ch->perf_lost;
	counts->delivered = ch->delivered;
	return 0;
}

void bpfkit_channel_free(struct bpfkit_channel *ch)
{
	if (!ch)
		return;
	perf_buffer__free(ch->pb);
	ring_buffer__free(ch->rb);
	free(ch->percpu);
	free(ch);
}
