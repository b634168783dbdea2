// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The event channel: perf or ring buffer reader with exact loss counts, its
 * loss reports and its summary.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <linux/perf_event.h>
#include <bpf/bpf.h>
#include "channel.h"
#include "diag.h"
#include "output.h"

#define DRAIN_ROUNDS 16
/* Wake the reader at once when it was last woken this long ago. */
#define WAKEUP_BUDGET_NS 1000000ULL
/* A doorbell carries no records worth keeping: one page per CPU. */
#define DOORBELL_PAGES 1

struct bpfkit_channel {
	struct bpfkit_channel_opts opts;
	struct perf_buffer *pb; /* one of pb and rb is set */
	struct perf_buffer *doorbells; /* with pb: wake the reader early */
	struct ring_buffer *rb;
	int epoll_fd; /* the perf buffers and their doorbells */
	struct epoll_event *events;
	struct bpfkit_perf_cursor *cursors; /* one per perf buffer */
	size_t nbufs;
	int stats_fd;
	int ncpus;
	struct bpfkit_stats *percpu; /* scratch for reading bpfkit_stats */
	struct bpfkit_sink sink;
	__u64 reported_lost; /* lost records reported so far */
	__u64 last_flush_ns;
};

/* Where a sample's data starts: after its header and a 4-byte size. */
#define PERF_SAMPLE_DATA_OFF (sizeof(struct perf_event_header) + sizeof(__u32))

/* Layout of a lost record (see perf_event.h). */
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
static __u32 ring_size(unsigned int pages)
{
	__u64 want = (__u64)pages * sysconf(_SC_PAGESIZE) *
		     libbpf_num_possible_cpus();
	__u64 size = sysconf(_SC_PAGESIZE);

	while (size < want && size < (1ULL << 30))
		size <<= 1;
	return size;
}

void bpfkit_channel_cfg_init(struct bpfkit_channel_cfg *cfg,
			     const struct bpfkit_channel_opts *opts)
{
	cfg->ringbuf = opts->transport == BPFKIT_RING_BUFFER;
	cfg->wakeup = opts->wakeup;
	cfg->ring_wakeup_max = ring_size(opts->pages) / 2;
	cfg->wakeup_budget_ns = WAKEUP_BUDGET_NS;
}

int bpfkit_channel_prepare(struct bpf_object *obj,
			   struct bpfkit_channel_cfg *rodata,
			   const struct bpfkit_channel_opts *opts)
{
	struct bpf_map *perf = bpf_object__find_map_by_name(obj, "bpfkit_perf");
	struct bpf_map *ring = bpf_object__find_map_by_name(obj, "bpfkit_ring");
	struct bpf_map *doorbell =
		bpf_object__find_map_by_name(obj, "bpfkit_doorbell");
	bool ringbuf = opts->transport == BPFKIT_RING_BUFFER;
	int err;

	if (!perf || !ring || !doorbell) {
		bpfkit_error(
			"the BPF object has no event channel (include bpfkit/channel.bpf.h)");
		return -EINVAL;
	}
	bpfkit_channel_cfg_init(rodata, opts);
	if (ringbuf &&
	    libbpf_probe_bpf_map_type(BPF_MAP_TYPE_RINGBUF, NULL) != 1) {
		bpfkit_error(
			"this kernel has no BPF ring buffer (it needs Linux 5.8 or later); drop --ringbuf to use the perf buffer");
		return -EOPNOTSUPP;
	}
	if (ringbuf) {
		err = bpf_map__set_max_entries(ring, ring_size(opts->pages));
		if (!err)
			err = retype_unused(perf);
		if (!err)
			err = retype_unused(doorbell);
	} else {
		err = retype_unused(ring);
	}
	if (err)
		bpfkit_fail("set up the event channel", err);
	return err;
}

static void deliver(struct bpfkit_sink *sink, const void *data, size_t size)
{
	sink->delivered++;
	sink->fn(sink->ctx, data, size);
}

/* Copy LEN bytes from offset OFF of a RING of SIZE bytes, wrapping at its end. */
static void ring_copy(void *dst, const char *ring, size_t size, __u64 off,
		      size_t len)
{
	size_t at = off & (size - 1);
	size_t first = len < size - at ? len : size - at;

	memcpy(dst, ring + at, first);
	memcpy((char *)dst + first, ring, len - first);
}

/*
 * Step C's tail to its next sample, adding up the lost records on the way;
 * false if it has none left. The sample's time goes to C->next_ns.
 */
static bool next_sample(struct bpfkit_sink *sink, struct bpfkit_perf_cursor *c)
{
	struct perf_event_header hdr;
	struct perf_lost lost;
	__u32 len;

	for (; c->tail < c->head; c->tail += hdr.size) {
		ring_copy(&hdr, c->ring, c->size, c->tail, sizeof(hdr));
		if (hdr.size < sizeof(hdr)) {
			c->tail = c->head; /* not a record: skip what is left */
			return false;
		}
		if (hdr.type == PERF_RECORD_SAMPLE &&
		    hdr.size >= PERF_SAMPLE_DATA_OFF) {
			ring_copy(&len, c->ring, c->size, c->tail + sizeof(hdr),
				  sizeof(len));
			c->next_ns = 0; /* too short for a header: first */
			if (len >= sizeof(c->next_ns) &&
			    hdr.size >=
				    PERF_SAMPLE_DATA_OFF + sizeof(c->next_ns))
				ring_copy(&c->next_ns, c->ring, c->size,
					  c->tail + PERF_SAMPLE_DATA_OFF,
					  sizeof(c->next_ns));
			return true;
		}
		if (hdr.type == PERF_RECORD_LOST && hdr.size >= sizeof(lost)) {
			ring_copy(&lost, c->ring, c->size, c->tail,
				  sizeof(lost));
			sink->perf_lost += lost.lost;
		}
	}
	return false;
}

/*
 * A sample is its header, a 4-byte size and the data, which so starts 4
 * bytes past an 8-byte boundary: copy it out aligned (and whole, if it
 * wraps) before the tool reads its fields, then step past it.
 */
static void deliver_sample(struct bpfkit_sink *sink,
			   struct bpfkit_perf_cursor *c)
{
	static __u64 aligned[65536 / sizeof(__u64)];
	struct perf_event_header hdr;
	__u32 len;

	ring_copy(&hdr, c->ring, c->size, c->tail, sizeof(hdr));
	ring_copy(&len, c->ring, c->size, c->tail + sizeof(hdr), sizeof(len));
	if (len > hdr.size - PERF_SAMPLE_DATA_OFF)
		len = hdr.size - PERF_SAMPLE_DATA_OFF;
	ring_copy(aligned, c->ring, c->size, c->tail + PERF_SAMPLE_DATA_OFF,
		  len);
	c->tail += hdr.size;
	deliver(sink, aligned, len);
}

void bpfkit_perf_merge(struct bpfkit_sink *sink,
		       struct bpfkit_perf_cursor *bufs, size_t n)
{
	struct bpfkit_perf_cursor *first;
	size_t i;

	for (i = 0; i < n; i++)
		bufs[i].ready = next_sample(sink, &bufs[i]);
	for (;;) {
		first = NULL;
		for (i = 0; i < n; i++) {
			if (bufs[i].ready &&
			    (!first || bufs[i].next_ns < first->next_ns))
				first = &bufs[i];
		}
		if (!first)
			return;
		deliver_sample(sink, first);
		first->ready = next_sample(sink, first);
	}
}

/*
 * Read every perf buffer from its tail to its head, merged by record time,
 * then free what was read. Empty the doorbells too, so they keep room.
 */
static int read_perf(struct bpfkit_channel *ch)
{
	struct perf_event_mmap_page *page;
	struct bpfkit_perf_cursor *c;
	size_t i, size;
	void *base;
	int err;

	for (i = 0; i < ch->nbufs; i++) {
		c = &ch->cursors[i];
		err = perf_buffer__buffer(ch->pb, i, &base, &size);
		if (err)
			return err;
		page = base;
		c->ring = (char *)base + sysconf(_SC_PAGESIZE);
		c->size = size;
		c->tail = page->data_tail;
		c->head = __atomic_load_n(&page->data_head, __ATOMIC_ACQUIRE);
	}
	bpfkit_perf_merge(&ch->sink, ch->cursors, ch->nbufs);
	for (i = 0; i < ch->nbufs; i++) {
		perf_buffer__buffer(ch->pb, i, &base, &size);
		page = base;
		__atomic_store_n(&page->data_tail, ch->cursors[i].tail,
				 __ATOMIC_RELEASE);
	}
	for (i = 0; i < perf_buffer__buffer_cnt(ch->doorbells); i++) {
		if (perf_buffer__buffer(ch->doorbells, i, &base, &size))
			continue;
		page = base;
		__atomic_store_n(&page->data_tail,
				 __atomic_load_n(&page->data_head,
						 __ATOMIC_ACQUIRE),
				 __ATOMIC_RELEASE);
	}
	return 0;
}

/* Always 0: a non-zero return would end ring_buffer__poll() early. */
static int on_ring_record(void *ctx, void *data, size_t size)
{
	deliver(ctx, data, size);
	return 0;
}

/* Add every buffer of PB to the epoll set: any of them wakes the reader. */
static int watch(struct bpfkit_channel *ch, struct perf_buffer *pb)
{
	struct epoll_event ev = { .events = EPOLLIN };
	size_t i;

	for (i = 0; i < perf_buffer__buffer_cnt(pb); i++) {
		if (epoll_ctl(ch->epoll_fd, EPOLL_CTL_ADD,
			      perf_buffer__buffer_fd(pb, i), &ev))
			return -errno;
	}
	return 0;
}

/*
 * The perf buffers, their doorbells (which wake the reader at their every
 * record) and an epoll set that waits for either.
 */
static int open_perf(struct bpfkit_channel *ch, struct bpf_object *obj)
{
	struct bpf_map *map = bpf_object__find_map_by_name(obj, "bpfkit_perf");
	struct bpf_map *doorbell =
		bpf_object__find_map_by_name(obj, "bpfkit_doorbell");
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_BPF_OUTPUT,
		.sample_type = PERF_SAMPLE_RAW,
		.sample_period = 1,
		.wakeup_events = ch->opts.wakeup,
	};
	int err;

	/* libbpf maps the buffers; read_perf() reads them, so no callback. */
	ch->pb = perf_buffer__new_raw(bpf_map__fd(map), ch->opts.pages, &attr,
				      NULL, NULL, NULL);
	if (!ch->pb)
		return -errno;
	attr.wakeup_events = 1;
	ch->doorbells = perf_buffer__new_raw(
		bpf_map__fd(doorbell), DOORBELL_PAGES, &attr, NULL, NULL, NULL);
	if (!ch->doorbells)
		return -errno;
	ch->nbufs = perf_buffer__buffer_cnt(ch->pb);
	ch->events = calloc(ch->nbufs + perf_buffer__buffer_cnt(ch->doorbells),
			    sizeof(*ch->events));
	ch->cursors = calloc(ch->nbufs, sizeof(*ch->cursors));
	if (!ch->events || !ch->cursors)
		return -ENOMEM;
	ch->epoll_fd = epoll_create1(EPOLL_CLOEXEC);
	if (ch->epoll_fd < 0)
		return -errno;
	err = watch(ch, ch->pb);
	if (!err)
		err = watch(ch, ch->doorbells);
	return err;
}

struct bpfkit_channel *
bpfkit_channel_open(struct bpf_object *obj,
		    const struct bpfkit_channel_opts *opts, bpfkit_event_fn fn,
		    void *ctx)
{
	struct bpf_map *stats =
		bpf_object__find_map_by_name(obj, "bpfkit_stats");
	struct bpf_map *ring = bpf_object__find_map_by_name(obj, "bpfkit_ring");
	struct bpfkit_channel *ch;
	int err;

	ch = calloc(1, sizeof(*ch));
	if (!ch)
		return NULL;
	ch->epoll_fd = -1;
	if (!stats || !ring) {
		err = -EINVAL;
		goto err_out;
	}
	ch->opts = *opts;
	ch->sink.fn = fn;
	ch->sink.ctx = ctx;
	ch->stats_fd = bpf_map__fd(stats);
	ch->ncpus = libbpf_num_possible_cpus();
	ch->last_flush_ns = now_ns();
	ch->percpu = calloc(ch->ncpus, sizeof(*ch->percpu));
	if (!ch->percpu) {
		err = -ENOMEM;
		goto err_out;
	}
	if (opts->transport == BPFKIT_RING_BUFFER) {
		ch->rb = ring_buffer__new(bpf_map__fd(ring), on_ring_record,
					  &ch->sink, NULL);
		err = ch->rb ? 0 : -errno;
	} else {
		err = open_perf(ch, obj);
	}
	if (err)
		goto err_out;
	return ch;

err_out:
	bpfkit_channel_free(ch);
	errno = -err;
	return NULL;
}

/* Deliver every pending record now. */
static int flush(struct bpfkit_channel *ch)
{
	ch->last_flush_ns = now_ns();
	if (ch->rb)
		return ring_buffer__consume(ch->rb);
	return read_perf(ch);
}

/* Wait for a wakeup or a doorbell, then read the perf buffers. */
static int poll_perf(struct bpfkit_channel *ch, int timeout_ms)
{
	int n, err;

	n = epoll_wait(ch->epoll_fd, ch->events,
		       ch->nbufs + perf_buffer__buffer_cnt(ch->doorbells),
		       timeout_ms);
	if (n <= 0)
		return n < 0 ? -errno : 0;
	err = read_perf(ch);
	return err ? err : n;
}

int bpfkit_channel_poll(struct bpfkit_channel *ch, int timeout_ms)
{
	int n;

	n = ch->rb ? ring_buffer__poll(ch->rb, timeout_ms) :
		     poll_perf(ch, timeout_ms);
	if (n == -EINTR)
		n = 0;
	if (n < 0)
		return n;
	/* Batched wakeups leave records behind: flush them in time. */
	if (now_ns() - ch->last_flush_ns >= ch->opts.latency_ms * 1000000ULL) {
		int m = flush(ch);

		if (m < 0)
			return m;
		n += m;
	}
	return n;
}

void bpfkit_channel_tally(const struct bpfkit_stats *percpu, int ncpus,
			  const struct bpfkit_sink *sink,
			  struct bpfkit_channel_stats *stats)
{
	__u64 dropped = 0;
	int i;

	memset(stats, 0, sizeof(*stats));
	for (i = 0; i < ncpus; i++) {
		stats->produced += percpu[i].produced;
		dropped += percpu[i].dropped;
	}
	/*
	 * Every record perf reports lost also failed in BPF and was counted
	 * there; BPF also sees failures perf never reports (no reader on a
	 * CPU), so its count is the exact one.
	 */
	stats->lost = dropped > sink->perf_lost ? dropped : sink->perf_lost;
	stats->delivered = sink->delivered;
}

int bpfkit_channel_stats(struct bpfkit_channel *ch,
			 struct bpfkit_channel_stats *stats)
{
	__u32 zero = 0;

	memset(stats, 0, sizeof(*stats));
	if (bpf_map_lookup_elem(ch->stats_fd, &zero, ch->percpu))
		return -errno;
	bpfkit_channel_tally(ch->percpu, ch->ncpus, &ch->sink, stats);
	return 0;
}

void bpfkit_channel_report_loss(struct bpfkit_channel *ch)
{
	struct bpfkit_channel_stats s;
	struct bpfkit_json j;
	__u64 lost;

	if (bpfkit_channel_stats(ch, &s) || s.lost == ch->reported_lost)
		return;
	lost = s.lost - ch->reported_lost;
	if (bpfkit_output_json()) {
		bpfkit_json_begin_type(&j, stdout, "lost");
		bpfkit_json_uint(&j, "lost", lost);
		bpfkit_json_uint(&j, "total", s.lost);
		bpfkit_json_end(&j);
	}
	bpfkit_error(
		"lost %llu events (%llu in total): the reader fell behind; use a larger --buffer-pages or narrower filters",
		lost, s.lost);
	ch->reported_lost = s.lost;
}

void bpfkit_channel_drain(struct bpfkit_channel *ch)
{
	struct bpfkit_channel_stats s;
	int i;

	/* Deliver what is still buffered until the counters add up. */
	for (i = 0; i < DRAIN_ROUNDS; i++) {
		flush(ch);
		if (bpfkit_channel_stats(ch, &s) ||
		    s.delivered + s.lost >= s.produced)
			break;
	}
	bpfkit_channel_report_loss(ch);
}

void bpfkit_channel_summarize(struct bpfkit_channel *ch)
{
	struct bpfkit_channel_stats s;
	struct bpfkit_json j;

	if (bpfkit_channel_stats(ch, &s))
		return;
	if (bpfkit_output_json()) {
		bpfkit_json_begin_type(&j, stdout, "summary");
		bpfkit_json_uint(&j, "events", s.delivered);
		bpfkit_json_uint(&j, "lost", s.lost);
		bpfkit_json_uint(&j, "produced", s.produced);
		bpfkit_json_end(&j);
	}
	fflush(stdout);
	bpfkit_error("%llu events, %llu lost", s.delivered, s.lost);
}

void bpfkit_channel_free(struct bpfkit_channel *ch)
{
	if (!ch)
		return;
	if (ch->epoll_fd >= 0)
		close(ch->epoll_fd);
	free(ch->events);
	free(ch->cursors);
	perf_buffer__free(ch->pb);
	perf_buffer__free(ch->doorbells);
	ring_buffer__free(ch->rb);
	free(ch->percpu);
	free(ch);
}
