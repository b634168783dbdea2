// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The event channel: perf buffers (merged in time order) or the ring buffer,
 * both read by libbpf, with exact loss counts, loss reports and a summary.
 */
#include <errno.h>
#include <pthread.h>
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
#include "container.h"
#include "diag.h"
#include "output.h"
#include "run.h"

/* Wake the reader at once when it was last woken this long ago. */
#define WAKEUP_BUDGET_NS 1000000ULL
/* A doorbell carries no records worth keeping: one page per CPU. */
#define DOORBELL_PAGES 1
#define PASS_NS \
	10000000 /* a pass's length under load, so the loop comes back */
#define PASS_CHECK 64 /* records between looks at the clock */
#define SETTLE_NS 2000000 /* the drain's counts must hold still this long */
#define DRAIN_IDLE_NS 100000000 /* and it gives up after so long in vain */
#define LOSS_REPORT_NS 1000000000ULL /* at most one loss report a second */
/*
 * Under a rate limit (or --max-cpu's) records trickle in, each of them
 * lone: wake the reader for one at most every 10 ms, not every 1 ms, so
 * that a throttled storm does not cost the reader a wakeup per record.
 */
#define LIMITED_WAKEUP_BUDGET_NS 10000000ULL

struct bpfkit_channel {
	struct bpfkit_channel_opts opts;
	struct bpf_object_skeleton *skel; /* the programs that produce */
	struct perf_buffer *pb; /* one of pb and rb is set */
	struct perf_buffer *doorbells; /* with pb: wake the reader early */
	struct ring_buffer *rb;
	struct bpfkit_perf_merge merge; /* of pb's buffers */
	size_t taking; /* the buffer libbpf is reading for the merge */
	int stats_fd;
	int ncpus;
	struct bpfkit_stats *percpu; /* scratch for reading bpfkit_stats */
	struct bpfkit_sink sink;
	struct bpfkit_channel_stats reported; /* the loss reported so far */
	__u64 next_report_ns; /* when a loss may be reported next */
	/* Links of skel's programs besides its own (bpfkit_channel_add_link) */
	struct bpf_link **links;
	size_t nr_links;
	struct bpfkit_overload *overload; /* --rate-limit, --sample, --max-cpu */
};

/* A sample as libbpf hands it over: its data follows a 4-byte size. */
struct perf_sample {
	struct perf_event_header header;
	__u32 size;
	char data[];
};

/* A lost record (see perf_event.h). */
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

enum bpfkit_verdict bpfkit_print_event(void *ctx, const void *data, size_t size)
{
	const struct bpfkit_printer *p = ctx;
	int err;

	/* Records come whole; perf may pad the end. */
	if (size < p->size)
		return BPFKIT_UNREADABLE;
	err = p->count ? p->count(data) : 0;
	if (err) {
		bpfkit_fail(p->counting, err);
		bpfkit_stop();
	}
	if (err || bpfkit_output_counts())
		return BPFKIT_SHOWN;
	if (bpfkit_output_json())
		p->json(data);
	else
		p->text(data);
	return BPFKIT_SHOWN;
}

void bpfkit_channel_cfg_init(struct bpfkit_channel_cfg *cfg,
			     const struct bpfkit_channel_opts *opts)
{
	cfg->ringbuf = opts->transport == BPFKIT_RING_BUFFER;
	cfg->wakeup = opts->wakeup;
	/* Half the ring, or of one CPU's perf buffer: no burst fills it first. */
	cfg->wakeup_bytes =
		cfg->ringbuf ? ring_size(opts->pages) / 2 :
			       (__u64)opts->pages * sysconf(_SC_PAGESIZE) / 2;
	cfg->wakeup_budget_ns = WAKEUP_BUDGET_NS;
	if (opts->overload.rate || opts->overload.max_cpu)
		cfg->wakeup_budget_ns = LIMITED_WAKEUP_BUDGET_NS;
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

/*
 * The tool's verdict on a record; --container and --host-only's first
 * (container.c), for records the kernel had no verdict for yet.
 */
static enum bpfkit_verdict hand(struct bpfkit_sink *sink, const void *data,
				size_t size)
{
	if (!bpfkit_container_wanted(data, size))
		return BPFKIT_FILTERED;
	return sink->fn(sink->ctx, data, size);
}

/* Hand a record to the tool; false once the pass must end. */
static bool deliver(struct bpfkit_sink *sink, const void *data, size_t size)
{
	switch (hand(sink, data, size)) {
	case BPFKIT_UNREADABLE:
		sink->unreadable++;
		break;
	case BPFKIT_FILTERED:
		sink->filtered++;
		sink->delivered++;
		break;
	case BPFKIT_SHOWN:
		sink->delivered++;
		break;
	}
	if (sink->stop && *sink->stop)
		return false;
	return !sink->pass_end_ns || sink->delivered % PASS_CHECK ||
	       now_ns() < sink->pass_end_ns;
}

/* A held record's time; 0 (first) if it is too short to hold one. */
static __u64 next_ns(const struct bpfkit_perf_next *next)
{
	return next->size >= sizeof(__u64) ? next->data[0] : 0;
}

enum bpf_perf_event_ret bpfkit_perf_take(struct bpfkit_perf_merge *m, size_t i,
					 const struct perf_event_header *e)
{
	const struct perf_sample *s = (const void *)e;
	struct bpfkit_perf_next *next = &m->next[i];
	size_t size, cap;
	__u64 *data;

	if (e->type == PERF_RECORD_LOST &&
	    e->size >= sizeof(struct perf_lost)) {
		m->sink->perf_lost += ((const struct perf_lost *)e)->lost;
		return LIBBPF_PERF_EVENT_CONT;
	}
	if (e->type != PERF_RECORD_SAMPLE || e->size < sizeof(*s))
		return LIBBPF_PERF_EVENT_CONT;
	/* perf's raw size (its padding included), cut to the record. */
	size = s->size < e->size - sizeof(*s) ? s->size : e->size - sizeof(*s);
	if (size > next->cap) {
		for (cap = next->cap ? next->cap : 256; cap < size; cap *= 2)
			;
		data = realloc(next->data, cap);
		if (!data) {
			m->sink->unreadable++; /* consumed, never delivered */
			return LIBBPF_PERF_EVENT_CONT;
		}
		next->data = data;
		next->cap = cap;
	}
	memcpy(next->data, s->data, size);
	next->size = size;
	next->ready = true;
	return LIBBPF_PERF_EVENT_DONE;
}

/* Take buffer I's next record, unless one is held. */
static int take_next(struct bpfkit_perf_merge *m, size_t i)
{
	return m->next[i].ready ? 0 : m->fill(m->ctx, i);
}

int bpfkit_perf_merge(struct bpfkit_perf_merge *m)
{
	struct bpfkit_perf_next *first;
	size_t i, from = 0;
	int err;

	for (i = 0; i < m->n; i++) {
		err = take_next(m, i);
		if (err)
			return err;
	}
	for (;;) {
		first = NULL;
		for (i = 0; i < m->n; i++) {
			if (m->next[i].ready &&
			    (!first || next_ns(&m->next[i]) < next_ns(first))) {
				first = &m->next[i];
				from = i;
			}
		}
		if (!first || next_ns(first) >= m->horizon_ns)
			return 1;
		first->ready = false;
		if (!deliver(m->sink, first->data, first->size))
			return 0;
		err = take_next(m, from);
		if (err)
			return err;
	}
}

/*
 * libbpf's reader hands every record of the buffer the merge fills to
 * bpfkit_perf_take(), and consumes it, until that says done.
 */
static enum bpf_perf_event_ret on_perf_record(void *ctx, int cpu,
					      struct perf_event_header *e)
{
	struct bpfkit_channel *ch = ctx;

	return bpfkit_perf_take(&ch->merge, ch->taking, e);
}

/* The merge's fill: libbpf reads buffer I, on_perf_record() takes. */
static int fill_from_perf(void *ctx, size_t i)
{
	struct bpfkit_channel *ch = ctx;
	int err;

	ch->taking = i;
	err = perf_buffer__consume_buffer(ch->pb, i);
	/* Not on_perf_record(): libbpf had no memory to copy a wrapped one. */
	if (err == LIBBPF_PERF_EVENT_ERROR)
		return -ENOMEM;
	return err < 0 ? err : 0;
}

/*
 * One pass over the perf buffers, merged by record time; then empty the
 * doorbells (libbpf drops their records: no callback), so they keep room.
 */
static int read_perf(struct bpfkit_channel *ch)
{
	int err = bpfkit_perf_merge(&ch->merge);

	if (err < 0)
		return err;
	err = perf_buffer__consume(ch->doorbells);
	return err < 0 ? err : 0;
}

/*
 * libbpf's loop runs while new records come, which under a storm is for
 * ever: a negative return ends it when the pass must end (libbpf has
 * consumed the record by then).
 */
static int on_ring_record(void *ctx, void *data, size_t size)
{
	struct bpfkit_sink *sink = ctx;

	return deliver(sink, data, size) ? 0 : -EAGAIN;
}

/* One pass over the ring: the records delivered, or -errno. */
static int consume_ring(struct bpfkit_channel *ch)
{
	__u64 before = ch->sink.delivered;
	int err;

	err = ring_buffer__consume(ch->rb);
	if (err < 0 && err != -EAGAIN)
		return err;
	return ch->sink.delivered - before;
}

/* The perf buffers and their doorbells (which wake at their every record). */
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

	/* perf_buffer__new() wakes at every record: the raw one takes attr. */
	ch->pb = perf_buffer__new_raw(bpf_map__fd(map), ch->opts.pages, &attr,
				      on_perf_record, ch, NULL);
	if (!ch->pb)
		return -errno;
	attr.wakeup_events = 1;
	ch->doorbells = perf_buffer__new_raw(
		bpf_map__fd(doorbell), DOORBELL_PAGES, &attr, NULL, NULL, NULL);
	if (!ch->doorbells)
		return -errno;
	ch->merge = (struct bpfkit_perf_merge){
		.sink = &ch->sink,
		.n = perf_buffer__buffer_cnt(ch->pb),
		.fill = fill_from_perf,
		.ctx = ch,
	};
	ch->merge.next = calloc(ch->merge.n, sizeof(*ch->merge.next));
	return ch->merge.next ? 0 : -ENOMEM;
}

static void report_loss(struct bpfkit_channel *ch);
static void overload_tick(struct bpfkit_channel *ch, bool final);

/*
 * Start a pass of reading: it ends after PASS_NS, or on a stop; on the perf
 * buffers it delivers the records stamped before it began (later ones wait
 * for the next pass, so that they come in time order after those of the
 * other CPUs that are on their way now).
 */
static void begin_pass(struct bpfkit_channel *ch)
{
	__u64 now = now_ns();

	ch->merge.horizon_ns = now;
	ch->sink.pass_end_ns = now + PASS_NS;
}

/* Deliver the pending records now, in one pass. */
static int read_pass(struct bpfkit_channel *ch)
{
	begin_pass(ch);
	if (ch->rb)
		return consume_ring(ch);
	return read_perf(ch);
}

/*
 * The run loop's handler of the buffers' wakeups (perf: or a doorbell's)
 * and of the --latency timer, which delivers what batched wakeups leave
 * behind: read the buffers, and report the losses once a second at most.
 */
static int on_wakeup(void *ctx)
{
	struct bpfkit_channel *ch = ctx;
	int err = read_pass(ch);

	if (err < 0) {
		bpfkit_fail("read events", err);
		return err;
	}
	if (now_ns() >= ch->next_report_ns) {
		report_loss(ch);
		ch->next_report_ns = now_ns() + LOSS_REPORT_NS;
	}
	overload_tick(ch, false);
	return 0;
}

/* Have the run loop read the buffers when they wake, and every --latency. */
static int watch_buffers(struct bpfkit_channel *ch)
{
	const struct bpfkit_tick flush = { ch->opts.latency_ms, on_wakeup, ch };
	int fds[2] = { -1, -1 }, i, err = 0;

	if (ch->rb) {
		fds[0] = ring_buffer__epoll_fd(ch->rb);
	} else {
		fds[0] = perf_buffer__epoll_fd(ch->pb);
		fds[1] = perf_buffer__epoll_fd(ch->doorbells);
	}
	for (i = 0; i < 2 && fds[i] >= 0 && !err; i++)
		err = bpfkit_run_watch(fds[i], EPOLLIN, on_wakeup, ch);
	return err ?: bpfkit_run_every(&flush);
}

struct bpfkit_channel *
bpfkit_channel_open(struct bpf_object_skeleton *skel,
		    const struct bpfkit_channel_opts *opts, bpfkit_event_fn fn,
		    void *ctx)
{
	struct bpf_object *obj = *skel->obj;
	struct bpf_map *stats =
		bpf_object__find_map_by_name(obj, "bpfkit_stats");
	struct bpf_map *ring = bpf_object__find_map_by_name(obj, "bpfkit_ring");
	struct bpfkit_channel *ch;
	int err;

	ch = calloc(1, sizeof(*ch));
	if (!ch)
		return NULL;
	if (!stats || !ring) {
		err = -EINVAL;
		goto err_out;
	}
	ch->opts = *opts;
	ch->skel = skel;
	ch->sink.fn = fn;
	ch->sink.ctx = ctx;
	ch->sink.stop = bpfkit_stop_flag();
	ch->stats_fd = bpf_map__fd(stats);
	ch->ncpus = libbpf_num_possible_cpus();
	ch->next_report_ns = now_ns() + LOSS_REPORT_NS;
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
	if (!err)
		err = watch_buffers(ch);
	if (err)
		goto err_out;
	return ch;

err_out:
	bpfkit_channel_free(ch);
	errno = -err;
	return NULL;
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
		stats->staging_full += percpu[i].staging_full;
		stats->read_failed += percpu[i].read_failed;
		stats->throttled += percpu[i].throttled;
		stats->sampled += percpu[i].sampled;
		stats->limit_misses += percpu[i].limit_misses;
	}
	/*
	 * Every record perf reports lost also failed in BPF and was counted
	 * there; BPF also sees failures perf never reports (no reader on a
	 * CPU), so its count is the exact one.
	 */
	stats->buffer_full = dropped > sink->perf_lost ? dropped :
							 sink->perf_lost;
	stats->read_failed += sink->unreadable;
	stats->lost =
		stats->buffer_full + stats->staging_full + stats->read_failed;
	stats->delivered = sink->delivered;
	stats->filtered = sink->filtered;
	stats->shown = sink->delivered - sink->filtered;
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

/* Why events were lost, and what helps: one line each for reports. */
static const struct {
	size_t at; /* the reason's counter in struct bpfkit_channel_stats */
	const char *name; /* its JSON key */
	const char *text; /* its summary text */
	const char *why; /* its report's cause and cure */
} loss_reasons[] = {
	{ offsetof(struct bpfkit_channel_stats, buffer_full), "buffer_full",
	  "buffer full",
	  "the reader fell behind; use a larger --buffer-pages or narrower filters" },
	{ offsetof(struct bpfkit_channel_stats, staging_full), "staging_full",
	  "staging full",
	  "a BPF staging map was full (too many calls in flight); use narrower filters" },
	{ offsetof(struct bpfkit_channel_stats, read_failed), "read_failed",
	  "read failed",
	  "a staged entry was gone at the call's end, or a record came short; this is a bug, please report it" },
};

#define NR_LOSS_REASONS (sizeof(loss_reasons) / sizeof(loss_reasons[0]))

static __u64 lost_for(const struct bpfkit_channel_stats *s, size_t reason)
{
	return *(const __u64 *)((const char *)s + loss_reasons[reason].at);
}

/* Report the records lost since the last report, if any. */
static void report_loss(struct bpfkit_channel *ch)
{
	struct bpfkit_channel_stats s;
	struct bpfkit_json j;
	size_t i;

	if (bpfkit_channel_stats(ch, &s) || s.lost == ch->reported.lost)
		return;
	if (bpfkit_output_json()) {
		bpfkit_json_begin_type(&j, stdout, "lost");
		bpfkit_json_uint(&j, "lost", s.lost - ch->reported.lost);
		bpfkit_json_uint(&j, "total", s.lost);
		for (i = 0; i < NR_LOSS_REASONS; i++)
			bpfkit_json_uint(&j, loss_reasons[i].name,
					 lost_for(&s, i) -
						 lost_for(&ch->reported, i));
		bpfkit_json_end(&j);
	}
	for (i = 0; i < NR_LOSS_REASONS; i++) {
		__u64 lost = lost_for(&s, i) - lost_for(&ch->reported, i);

		if (lost)
			bpfkit_error("lost %llu events (%llu in total): %s",
				     lost, s.lost, loss_reasons[i].why);
	}
	ch->reported = s;
}

static void *detach_link(void *slot)
{
	struct bpf_link **link = slot;

	bpf_link__destroy(*link);
	*link = NULL;
	return NULL;
}

/*
 * Detach every program of CH's skeleton at once, and CH's other links:
 * the release of a tracepoint's link waits for an RCU grace period of its
 * own (tens of milliseconds, more on a busy machine), so one thread per
 * link lets those waits overlap. A link whose thread cannot start is
 * detached here.
 */
static void detach_all(struct bpfkit_channel *ch)
{
	struct bpf_object_skeleton *s = ch->skel;
	size_t i, n = 0, slots = s->prog_cnt + ch->nr_links;
	pthread_t *threads = calloc(slots, sizeof(*threads));
	struct bpf_link **link;

	for (i = 0; i < slots; i++) {
		link = i < (size_t)s->prog_cnt ? s->progs[i].link :
						 &ch->links[i - s->prog_cnt];
		if (!link || !*link)
			continue;
		if (threads &&
		    !pthread_create(&threads[n], NULL, detach_link, link))
			n++;
		else
			detach_link(link);
	}
	while (n--)
		pthread_join(threads[n], NULL);
	free(threads);
}

int bpfkit_channel_add_link(struct bpfkit_channel *ch, struct bpf_link *link)
{
	struct bpf_link **more;

	more = realloc(ch->links, (ch->nr_links + 1) * sizeof(*more));
	if (!more) {
		bpf_link__destroy(link);
		return -ENOMEM;
	}
	ch->links = more;
	ch->links[ch->nr_links++] = link;
	return 0;
}

/* Wait NS nanoseconds, signals or not. */
static void pause_ns(__u64 ns)
{
	struct timespec ts = { .tv_sec = ns / 1000000000,
			       .tv_nsec = ns % 1000000000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

void bpfkit_channel_drain(struct bpfkit_channel *ch)
{
	struct bpfkit_channel_stats s, last = { 0 };
	__u64 idle_ns = 0, detached_ns, late_produced = 0;
	bool late = false;

	/*
	 * Detach first, so nothing is produced after the counts are taken;
	 * then deliver in passes until every record produced is delivered or
	 * lost and the counts hold still for SETTLE_NS (a program that ran as
	 * it was detached may still be on its way), or give up after
	 * DRAIN_IDLE_NS without progress, or when records are still produced
	 * that long after the detach (by a program on a link of the tool's
	 * own, outside the skeleton).
	 */
	detach_all(ch);
	detached_ns = now_ns();
	ch->sink.stop = NULL;
	while (idle_ns < DRAIN_IDLE_NS) {
		if (read_pass(ch) < 0 || bpfkit_channel_stats(ch, &s))
			break;
		if (now_ns() - detached_ns > DRAIN_IDLE_NS) {
			if (late && s.produced != late_produced)
				break;
			late = true;
			late_produced = s.produced;
		}
		if (s.delivered == last.delivered &&
		    s.produced == last.produced && s.lost == last.lost) {
			if (s.delivered + s.lost + s.throttled + s.sampled ==
				    s.produced &&
			    idle_ns >= SETTLE_NS)
				break;
			pause_ns(SETTLE_NS);
			idle_ns += SETTLE_NS;
		} else {
			idle_ns = 0;
		}
		last = s;
	}
	report_loss(ch);
	overload_tick(ch, true);
}

/*
 * Runs of the channel's programs the kernel skipped because another BPF
 * program was running on that CPU (their recursion_misses, Linux 5.12 on):
 * events nobody saw.
 */
static __u64 skipped_runs(const struct bpfkit_channel *ch)
{
	struct bpf_prog_info info;
	__u64 n = 0;
	__u32 len;
	int i, fd;

	for (i = 0; i < ch->skel->prog_cnt; i++) {
		memset(&info, 0, sizeof(info));
		len = sizeof(info);
		fd = bpf_program__fd(*ch->skel->progs[i].prog);
		if (fd >= 0 && !bpf_obj_get_info_by_fd(fd, &info, &len))
			n += info.recursion_misses;
	}
	return n;
}

void bpfkit_channel_overload(struct bpfkit_channel *ch,
			     struct bpfkit_overload *ov)
{
	ch->overload = ov;
}

/* Overload control's part of the channel: reports once a second. */
static void overload_tick(struct bpfkit_channel *ch, bool final)
{
	struct bpfkit_channel_stats s;

	if (ch->overload && (final || bpfkit_overload_due(ch->overload)) &&
	    !bpfkit_channel_stats(ch, &s))
		bpfkit_overload_tick(ch->overload, s.produced, s.throttled,
				     s.sampled, final);
}

/* The summary's ", T throttled, S sampled" into BUF (from after the ")"). */
static void overload_text(const struct bpfkit_channel_stats *s, char *buf,
			  size_t size)
{
	size_t n = 0;

	if (size)
		*buf = '\0';
	if (s->throttled && size > 1)
		n += snprintf(buf, size, ", %llu throttled", s->throttled);
	if (s->sampled && n + 1 < size)
		snprintf(buf + n, size - n, ", %llu sampled", s->sampled);
}

/* The JSON summary's overload counts (always, so the identity reads). */
static void overload_json(const struct bpfkit_channel *ch,
			  const struct bpfkit_channel_stats *s,
			  struct bpfkit_json *j)
{
	bpfkit_json_uint(j, "throttled", s->throttled);
	bpfkit_json_uint(j, "sampled", s->sampled);
	bpfkit_json_uint(j, "limit_misses", s->limit_misses);
	bpfkit_overload_summary_json(ch->overload, j);
}

void bpfkit_channel_summarize(struct bpfkit_channel *ch)
{
	struct bpfkit_channel_stats s;
	struct bpfkit_json j;
	char why[128] = "";
	char more[64]; /* ", T throttled, S sampled" */
	size_t i, n = 0;
	__u64 skipped;

	if (bpfkit_channel_stats(ch, &s))
		return;
	/* ...and those the kernel left out by container (container.c). */
	s.filtered += bpfkit_container_filtered();
	skipped = skipped_runs(ch);
	if (bpfkit_output_json()) {
		bpfkit_json_begin_type(&j, stdout, "summary");
		bpfkit_json_uint(&j, "events", s.shown);
		bpfkit_json_uint(&j, "filtered", s.filtered);
		bpfkit_json_uint(&j, "lost", s.lost);
		for (i = 0; i < NR_LOSS_REASONS; i++)
			bpfkit_json_uint(&j, loss_reasons[i].name,
					 lost_for(&s, i));
		bpfkit_json_uint(&j, "produced", s.produced);
		bpfkit_json_uint(&j, "skipped_runs", skipped);
		overload_json(ch, &s, &j);
		bpfkit_json_end(&j);
	}
	if (bpfkit_output_flush())
		return;
	/* "N events, M lost (A buffer full, B staging full), F filtered" */
	for (i = 0; i < NR_LOSS_REASONS; i++) {
		if (lost_for(&s, i) && n < sizeof(why))
			n += snprintf(why + n, sizeof(why) - n, "%s%llu %s",
				      n ? ", " : " (", lost_for(&s, i),
				      loss_reasons[i].text);
	}
	if (n && n < sizeof(why))
		snprintf(why + n, sizeof(why) - n, ")");
	overload_text(&s, more, sizeof(more));
	if (s.filtered)
		bpfkit_error("%llu events, %llu lost%s, %llu filtered%s",
			     s.shown, s.lost, why, s.filtered, more);
	else
		bpfkit_error("%llu events, %llu lost%s%s", s.shown, s.lost, why,
			     more);
	bpfkit_overload_summary_text(ch->overload);
	/* Events the programs never saw: say so, since no count holds them. */
	if (skipped)
		bpfkit_error(
			"the kernel skipped %llu runs of the BPF programs: another BPF program was running on that CPU (run fewer tracers at once)",
			(unsigned long long)skipped);
}

void bpfkit_channel_free(struct bpfkit_channel *ch)
{
	size_t i;

	if (!ch)
		return;
	for (i = 0; i < ch->nr_links; i++)
		bpf_link__destroy(ch->links[i]);
	free(ch->links);
	for (i = 0; ch->merge.next && i < ch->merge.n; i++)
		free(ch->merge.next[i].data);
	free(ch->merge.next);
	perf_buffer__free(ch->pb);
	perf_buffer__free(ch->doorbells);
	ring_buffer__free(ch->rb);
	bpfkit_overload_free(ch->overload);
	free(ch->percpu);
	free(ch);
}
