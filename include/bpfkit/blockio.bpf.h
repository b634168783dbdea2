/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The BPF side every block I/O tool shares: when each request was queued
 * and issued and by whom, from the block tracepoints, and its disk and
 * operation. The tool includes this file and defines
 *
 *	static __always_inline void rq_done(void *ctx, struct request *rq,
 *					    const struct bpfkit_rq_start *s);
 *
 * called at each completion of a request seen starting, and
 *
 *	static __always_inline void rq_unstaged(void);
 *
 * called when a request's start found no room in the map (so that its
 * completion is counted lost, not missed silently). The programs are
 * raw_tp ones (they attach where the kernel has no BTF of its own) and
 * read the request by CO-RE, its arguments and its disk as this kernel
 * has them (core_fixes.bpf.h). User space (blockio.h in user/lib) keeps
 * a queue program only when it needs queue times: block_io_start where
 * the kernel has it (Linux 6.5 and later: every request, as it is made),
 * block_rq_insert before (requests that go through a queue; those issued
 * directly are seen at issue only). A tool that needs no request's start
 * includes blockrq.bpf.h alone.
 */
#ifndef BPFKIT_BLOCKIO_BPF_H
#define BPFKIT_BLOCKIO_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "bpfkit/blockrq.bpf.h"
#include "bpfkit/filter.bpf.h"

#define BPFKIT_RQ_MAX_INFLIGHT 10240 /* requests tracked at once */

/* What was seen of a request before it completed. */
struct bpfkit_rq_start {
	__u64 queued_ns; /* at block_io_start/insert; 0: not seen queued */
	__u64 issued_ns; /* at block_rq_issue (the last, if requeued) */
	__u32 pid; /* the task that queued (else issued) it; see rq_task() */
	bool selected; /* that task passed the common filters (-p, -u, ...) */
	char comm[BPFKIT_COMM_LEN];
};

/*
 * The requests in flight, by address: made at the start, deleted at the
 * completion. Not an LRU: one would forget the longest in flight, the
 * slowest, without a word; a full map is counted instead (rq_unstaged()).
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, BPFKIT_RQ_MAX_INFLIGHT);
	__type(key, __u64); /* the struct request's address */
	__type(value, struct bpfkit_rq_start);
} bpfkit_rq_starts SEC(".maps");

static __always_inline void rq_unstaged(void);

/*
 * The task making or issuing a request, for tools that report it, and
 * whether it passes the common filters: only its requests reach rq_done().
 * A tool that reports no task and offers no filters (a histogram of
 * all) defines BPFKIT_RQ_NO_TASK before including this file and saves the
 * helper calls on every request.
 */
static __always_inline void rq_task(struct bpfkit_rq_start *s)
{
#ifndef BPFKIT_RQ_NO_TASK
	s->pid = bpf_get_current_pid_tgid() >> 32;
	bpf_get_current_comm(s->comm, sizeof(s->comm));
	s->selected = bpfkit_selected();
#else
	s->selected = true;
#endif
}

/*
 * A request's queue time. A tool that needs none (it times requests from
 * their issue) defines BPFKIT_RQ_NO_QUEUE_TIME before including this file
 * and saves a clock read per request, which costs more here than the rest
 * of the queue program: queued_ns is then 1, a mark that it was queued.
 */
#ifdef BPFKIT_RQ_NO_QUEUE_TIME
#define rq_queue_time() 1
#else
#define rq_queue_time() bpf_ktime_get_ns()
#endif

/*
 * Start request RQ's entry, QUEUED (else issued) now, over any a request
 * queued at that address and merged away left.
 */
static __always_inline void rq_start(struct request *rq, bool queued)
{
	struct bpfkit_rq_start s = {};
	__u64 key = (__u64)rq;

	if (queued)
		s.queued_ns = rq_queue_time();
	else
		s.issued_ns = bpf_ktime_get_ns();
	rq_task(&s);
	if (bpf_map_update_elem(&bpfkit_rq_starts, &key, &s, BPF_ANY))
		rq_unstaged();
}

static __always_inline void rq_queued(struct request *rq)
{
	if (rq_selected(rq))
		rq_start(rq, true);
}

static __always_inline void rq_issued(struct request *rq)
{
	struct bpfkit_rq_start *s;
	__u64 key = (__u64)rq;

	if (!rq_selected(rq))
		return;
	s = bpf_map_lookup_elem(&bpfkit_rq_starts, &key);
	/* Seen queued (or issued before, if requeued): this issue's time. */
	if (s) {
		s->issued_ns = bpf_ktime_get_ns();
		return;
	}
	rq_start(rq, false);
}

static __always_inline void rq_done(void *ctx, struct request *rq,
				    const struct bpfkit_rq_start *s);

/*
 * For a tool that counts requests in MAP: KEY's entry, made from ZERO on
 * first use; NULL, and the request counted by rq_unstaged(), when MAP is
 * full.
 */
static __always_inline void *rq_counts(void *map, const void *key,
				       const void *zero)
{
	void *v = bpf_map_lookup_elem(map, key);

	if (v)
		return v;
	bpf_map_update_elem(map, key, zero, BPF_NOEXIST);
	v = bpf_map_lookup_elem(map, key);
	if (!v)
		rq_unstaged();
	return v;
}

static __always_inline void rq_completed(void *ctx, struct request *rq)
{
	struct bpfkit_rq_start *s;
	__u64 key = (__u64)rq;

	s = bpf_map_lookup_elem(&bpfkit_rq_starts, &key);
	if (!s)
		return;
	/* Only issued requests complete; a queued-only one was merged away. */
	if (s->issued_ns && s->selected)
		rq_done(ctx, rq, s);
	bpf_map_delete_elem(&bpfkit_rq_starts, &key);
}

/* Linux 6.5 on; its request is its only argument. */
SEC("raw_tp/block_io_start")
int BPF_PROG(io_start, struct request *rq)
{
	rq_queued(rq);
	return 0;
}

/* Their request: the first argument or the second (core_fixes.bpf.h). */
SEC("raw_tp/block_rq_insert")
int rq_insert(unsigned long long *ctx)
{
	rq_queued(bpfkit_rq_arg(ctx, insert));
	return 0;
}

SEC("raw_tp/block_rq_issue")
int rq_issue(unsigned long long *ctx)
{
	rq_issued(bpfkit_rq_arg(ctx, issue));
	return 0;
}

SEC("raw_tp/block_rq_complete")
int BPF_PROG(rq_complete, struct request *rq, int error, unsigned int nr_bytes)
{
	rq_completed(ctx, rq);
	return 0;
}

#endif /* BPFKIT_BLOCKIO_BPF_H */
