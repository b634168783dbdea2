/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel differences the BPF side meets, in one place, each read the
 * CO-RE way (type flavours, bpf_core_field_exists(), ...) and named with
 * the kernel version that changed it. libbpf resolves every check below at
 * load, against the running kernel's BTF: the branch not taken is dead
 * code the verifier never sees.
 */
#ifndef BPFKIT_CORE_FIXES_BPF_H
#define BPFKIT_CORE_FIXES_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>

/*
 * The syscall and snoop tools' differences.
 *
 * mm_struct's rss_stat: a struct mm_rss_stat of atomic_long_t counts
 * before Linux 6.2, an array of struct percpu_counter since (vmlinux.h's).
 */
struct mm_rss_stat___o {
	atomic_long_t count[NR_MM_COUNTERS];
} __attribute__((preserve_access_index));

struct mm_struct___o {
	struct mm_rss_stat___o rss_stat;
} __attribute__((preserve_access_index));

/*
 * The pages counter ITEM of mm_struct MM holds (MM_FILEPAGES,
 * MM_ANONPAGES, MM_SHMEMPAGES: the same numbers since Linux 4.5), as
 * get_mm_counter() reads it: a percpu_counter's shared count, not summed
 * over the CPUs. A macro: CO-RE relocates an array index only when it is
 * a constant.
 */
#define bpfkit_mm_counter(mm, item)                                       \
	({                                                                \
		long n_;                                                  \
                                                                          \
		if (bpf_core_type_exists(struct mm_rss_stat___o))         \
			n_ = BPF_CORE_READ((struct mm_struct___o *)(mm),  \
					   rss_stat.count[item].counter); \
		else                                                      \
			n_ = BPF_CORE_READ((struct mm_struct *)(mm),      \
					   rss_stat[item].count);         \
		n_ > 0 ? n_ : 0;                                          \
	})

/*
 * oom:mark_victim's record: the victim's pid alone before Linux 6.9,
 * which added its comm, uid, memory (total_vm and the rss counts) and
 * oom_score_adj, all at once (backported to stable kernels: 5.4, 5.15,
 * 6.1 and 6.6 have it in their later releases).
 */
static __always_inline bool bpfkit_mark_victim_full(void)
{
	return bpf_core_field_exists(struct trace_event_raw_mark_victim,
				     __data_loc_comm);
}

/*
 * A program on syscalls:sys_enter_NAME gets struct syscall_tp_t, not the
 * event's record: before Linux 6.6 it began with the registers' address
 * and the number as an unsigned long, where syscall_trace_enter (its
 * layout since) has the common header and an int. The arguments are at
 * the same offset in both, and so is the number where the common header
 * is 8 bytes; not on PREEMPT_RT kernels (Debian 12's 6.1-rt), whose
 * header is longer. The syscall's number, on either.
 */
struct syscall_tp_t___o {
	unsigned long long regs;
	unsigned long syscall_nr;
} __attribute__((preserve_access_index));

static __always_inline long
bpfkit_syscall_enter_nr(const struct syscall_trace_enter *ctx)
{
	if (bpf_core_field_exists(struct syscall_tp_t___o, regs))
		return ((const struct syscall_tp_t___o *)ctx)->syscall_nr;
	return ctx->nr;
}

/*
 * task_struct's state: "state", a long, before Linux 5.14, which renamed
 * it "__state" and made it an unsigned int. Unsigned here: libbpf resizes
 * a plain load (bpfkit_btf_task_state()) only between unsigned members.
 */
struct task_struct___o {
	volatile unsigned long state;
} __attribute__((preserve_access_index));

static __always_inline unsigned int bpfkit_task_state(const void *task)
{
	const struct task_struct *t = task;

	if (bpf_core_field_exists(t->__state))
		return BPF_CORE_READ(t, __state);
	return BPF_CORE_READ((const struct task_struct___o *)task, state);
}

/*
 * The same, by plain loads, of a task the verifier trusts (a tp_btf
 * argument): libbpf sizes each load to the member this kernel has. In
 * the old member's width: no truncation on a scheduler hot path.
 */
static __always_inline unsigned long
bpfkit_btf_task_state(const struct task_struct *t)
{
	if (bpf_core_field_exists(t->__state))
		return t->__state;
	return ((const struct task_struct___o *)t)->state;
}

/*
 * sched_switch's raw tracepoint gained a last argument, prev_state, in
 * Linux 5.18: programs on it take the first three (preempt, prev, next),
 * the same on every kernel, and read the state from the task.
 */

/*
 * The block request tracepoints block_rq_insert and block_rq_issue: their
 * raw arguments were (struct request_queue *, struct request *) until
 * Linux 5.11 (and some stable kernels: Debian 11's 5.10 has the new form)
 * made them (struct request *). The prototype in the kernel's BTF says
 * which: these flavours match it only in the new form. A kernel without
 * the btf_trace_* types (before 5.5) has the old one.
 */
typedef void (*btf_trace_block_rq_insert___rq)(void *, struct request *);
typedef void (*btf_trace_block_rq_issue___rq)(void *, struct request *);

/*
 * The request a block_rq_TP raw tracepoint program (TP: insert or issue)
 * was given, CTX its arguments.
 */
#define bpfkit_rq_arg(ctx, tp) \
	bpfkit_rq_arg_at(ctx,  \
			 bpf_core_type_exists(btf_trace_block_rq_##tp##___rq))

static __always_inline struct request *
bpfkit_rq_arg_at(const unsigned long long *ctx, bool alone)
{
	unsigned long long rq;

	/*
	 * A load at a fixed offset on each path: clang would make the two
	 * one load at ctx + (alone ? 0 : 8), an offset the verifier refuses
	 * in the context. The barriers keep them apart.
	 */
	if (alone) {
		rq = ctx[0];
		barrier_var(rq);
	} else {
		rq = ctx[1];
		barrier_var(rq);
	}
	return (struct request *)rq;
}

/*
 * A request's disk: the request's own rq_disk before Linux 5.17, its
 * queue's disk (request_queue.disk, Linux 5.15 on) since.
 */
struct request___o {
	struct gendisk *rq_disk;
} __attribute__((preserve_access_index));

static __always_inline struct gendisk *bpfkit_rq_disk(struct request *rq)
{
	struct request___o *o = (void *)rq;

	if (bpf_core_field_exists(o->rq_disk))
		return BPF_CORE_READ(o, rq_disk);
	return BPF_CORE_READ(rq, q, disk);
}

/*
 * block:block_rq_complete's record (a tracepoint program's context): its
 * own struct trace_event_raw_block_rq_complete until Linux 5.18 gave it a
 * class with block_rq_error, struct trace_event_raw_block_rq_completion;
 * the same fields in both. The completed part's disk (the kernel's dev_t,
 * MAJOR << 20 | MINOR), first sector and sectors.
 */
struct trace_event_raw_block_rq_complete___o {
	dev_t dev;
	sector_t sector;
	unsigned int nr_sector;
} __attribute__((preserve_access_index));

static __always_inline void bpfkit_rq_completed(const void *ctx, __u32 *dev,
						__u64 *sector, __u32 *sectors)
{
	const struct trace_event_raw_block_rq_completion *c = ctx;
	const struct trace_event_raw_block_rq_complete___o *o = ctx;

	__u64 d, s, n;

	/* Loads at fixed offsets on each path, as in bpfkit_rq_arg_at(). */
	if (bpf_core_type_exists(struct trace_event_raw_block_rq_completion)) {
		d = c->dev;
		s = c->sector;
		n = c->nr_sector;
		barrier_var(d);
		barrier_var(s);
		barrier_var(n);
	} else {
		d = o->dev;
		s = o->sector;
		n = o->nr_sector;
		barrier_var(d);
		barrier_var(s);
		barrier_var(n);
	}
	*dev = d;
	*sector = s;
	*sectors = n;
}

/*
 * The network tools' differences.
 *
 * struct sock's sk_protocol and sk_type: bitfields of 8 and 16 bits before
 * Linux 5.6, a u16 each since. Read either way, as libbpf relocates them.
 */
static __always_inline __u16 bpfkit_sock_protocol(const struct sock *sk)
{
	return BPF_CORE_READ_BITFIELD_PROBED(sk, sk_protocol);
}

static __always_inline __u16 bpfkit_sock_type(const struct sock *sk)
{
	return BPF_CORE_READ_BITFIELD_PROBED(sk, sk_type);
}

/*
 * tcp:tcp_retransmit_skb's record: the tcp_event_sk_skb class's (this
 * struct) until the event got a record of its own, with the retransmit's
 * err, after Linux 6.12 (6.18 has it; vmlinux.h's
 * trace_event_raw_tcp_retransmit_skb). The class's record has the
 * socket's family since Linux 5.16; before (5.10), IPv4 addresses are in
 * saddr_v6 and daddr_v6 too, v4-mapped.
 */
struct trace_event_raw_tcp_event_sk_skb___o {
	struct trace_entry ent;
	const void *skbaddr;
	const void *skaddr;
	int state;
	__u16 sport;
	__u16 dport;
	__u16 family;
	__u8 saddr[4];
	__u8 daddr[4];
	__u8 saddr_v6[16];
	__u8 daddr_v6[16];
} __attribute__((preserve_access_index));

/*
 * skb:kfree_skb's drop reason (enum skb_drop_reason): since Linux 5.17.
 * Is it there? Then its value in *REASON.
 */
static __always_inline bool
bpfkit_kfree_skb_reason(const struct trace_event_raw_kfree_skb *ctx,
			__u32 *reason)
{
	if (!bpf_core_field_exists(ctx->reason))
		return false;
	*reason = ctx->reason;
	return true;
}

/*
 * The page cache tools' differences.
 *
 * filemap:mm_filemap_add_to_page_cache and delete_from_page_cache (Linux
 * 3.10 on): one event per folio since Linux 5.17, whose record gained the
 * folio's order then; one per page, with no order, before. The pages an
 * event stands for.
 */
static __always_inline __u64
bpfkit_filemap_pages(const struct trace_event_raw_mm_filemap_op_page_cache *ctx)
{
	if (bpf_core_field_exists(ctx->order))
		return 1ULL << (ctx->order & 31);
	return 1;
}

/*
 * writeback:writeback_dirty_page became writeback_dirty_folio in Linux
 * 5.16, its argument a folio, which may be large: its pages are
 * folio->_nr_pages where PG_head is in its flags, or 1. The flags are an
 * unsigned long up to Linux 6.12 at least, a memdesc_flags_t in 6.18
 * (vmlinux.h's); the page count is _folio_nr_pages in 6.1 and 6.12,
 * _nr_pages in 6.18.
 */
struct folio___o {
	unsigned long flags;
	unsigned int _folio_nr_pages;
} __attribute__((preserve_access_index));

static __always_inline __u64 bpfkit_folio_pages(const struct folio *folio)
{
	const struct folio___o *o = (const void *)folio;
	__u32 head = bpf_core_enum_value(enum pageflags, PG_head);
	unsigned long flags;

	if (bpf_core_field_exists(o->flags))
		flags = BPF_CORE_READ(o, flags);
	else
		flags = BPF_CORE_READ(folio, flags.f);
	if (!(flags >> (head & 63) & 1))
		return 1;
	if (bpf_core_field_exists(folio->_nr_pages))
		return BPF_CORE_READ(folio, _nr_pages);
	return BPF_CORE_READ(o, _folio_nr_pages);
}

/*
 * The record header's differences (containers).
 *
 * bpf_get_current_task_btf(): since Linux 5.11; before, the current task
 * is read through bpf_probe_read_kernel() (BPF_CORE_READ), a helper call
 * per pointer.
 */
static __always_inline bool bpfkit_has_task_btf(void)
{
	return bpf_core_enum_value_exists(enum bpf_func_id,
					  BPF_FUNC_get_current_task_btf);
}

/*
 * memleak's kmem tracepoints.
 *
 * kmem:kmalloc and kmem:kmem_cache_alloc shared the kmem_alloc class's
 * record (this flavour; 5.10's), and kmalloc_node and
 * kmem_cache_alloc_node the kmem_alloc_node class's, whose fields begin
 * alike, until Linux 6.1 folded the _node events into the two and gave
 * each a record of its own (trace_event_raw_kmalloc,
 * trace_event_raw_kmem_cache_alloc); later kernels (6.18) put the cache's
 * name before kmem_cache_alloc's sizes, which CO-RE's offsets follow.
 */
struct trace_event_raw_kmem_alloc___o {
	struct trace_entry ent;
	unsigned long call_site;
	const void *ptr;
	size_t bytes_req;
	size_t bytes_alloc;
} __attribute__((preserve_access_index));

/* An allocation a kmem tracepoint reports: its address and bytes. */
struct bpfkit_kmem_alloc {
	const void *ptr;
	__u64 bytes;
};

/*
 * CTX's allocation: kmem_cache_alloc's (CACHE) or kmalloc's, _node's too;
 * read by BPF_CORE_READ(): the verifier refuses a load from the context
 * at an offset CO-RE computed into a register.
 */
static __always_inline struct bpfkit_kmem_alloc
bpfkit_kmem_alloc_of(const void *ctx, bool cache)
{
	const struct trace_event_raw_kmem_cache_alloc *c = ctx;
	const struct trace_event_raw_kmem_alloc___o *o = ctx;
	const struct trace_event_raw_kmalloc *k = ctx;
	struct bpfkit_kmem_alloc a;

	if (bpf_core_type_exists(struct trace_event_raw_kmem_alloc___o)) {
		a.ptr = BPF_CORE_READ(o, ptr);
		a.bytes = BPF_CORE_READ(o, bytes_alloc);
	} else if (cache) {
		a.ptr = BPF_CORE_READ(c, ptr);
		a.bytes = BPF_CORE_READ(c, bytes_alloc);
	} else {
		a.ptr = BPF_CORE_READ(k, ptr);
		a.bytes = BPF_CORE_READ(k, bytes_alloc);
	}
	return a;
}

/*
 * kmem:kfree and kmem:kmem_cache_free shared the kmem_free class's record
 * (this flavour) until Linux 5.12 gave kmem_cache_free the cache's name
 * (trace_event_raw_kfree, trace_event_raw_kmem_cache_free; 6.1 has them).
 * The address freed, of kmem_cache_free (CACHE) or kfree.
 */
struct trace_event_raw_kmem_free___o {
	struct trace_entry ent;
	unsigned long call_site;
	const void *ptr;
} __attribute__((preserve_access_index));

static __always_inline const void *bpfkit_kmem_freed(const void *ctx,
						     bool cache)
{
	const struct trace_event_raw_kmem_cache_free *c = ctx;
	const struct trace_event_raw_kmem_free___o *o = ctx;
	const struct trace_event_raw_kfree *k = ctx;

	if (bpf_core_type_exists(struct trace_event_raw_kmem_free___o))
		return BPF_CORE_READ(o, ptr);
	return cache ? BPF_CORE_READ(c, ptr) : BPF_CORE_READ(k, ptr);
}

#endif /* BPFKIT_CORE_FIXES_BPF_H */
