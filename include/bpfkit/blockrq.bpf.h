/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A block request as the block tools read it, by CO-RE: its disk (and
 * --disk's filter on it) and its operation and flags. blockio.bpf.h
 * builds on it to follow requests from their start to their completion;
 * a tool that counts at one tracepoint includes this file alone.
 */
#ifndef BPFKIT_BLOCKRQ_BPF_H
#define BPFKIT_BLOCKRQ_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include "bpfkit/blockio.h"
#include "bpfkit/core_fixes.bpf.h"

/* Trace this disk only (its dev_t); 0: all. */
const volatile __u32 bpfkit_rq_dev_filter;

static __always_inline __u32 bpfkit_rq_dev(struct request *rq)
{
	struct gendisk *disk = bpfkit_rq_disk(rq);

	if (!disk)
		return 0;
	return BPF_CORE_READ(disk, major) << BPFKIT_MINOR_BITS |
	       BPF_CORE_READ(disk, first_minor);
}

/* Whether request flags F hold FLAG, a bit of enum req_flag_bits. */
#define rq_flag(f, flag)                                         \
	(bpf_core_enum_value_exists(enum req_flag_bits, flag) && \
	 ((f) >> bpf_core_enum_value(enum req_flag_bits, flag) & 1))

/* The request's operation and flags, as BPFKIT_RQ_* (blockio.h). */
static __always_inline __u32 bpfkit_rq_op(struct request *rq)
{
	__u32 f = BPF_CORE_READ(rq, cmd_flags);
	__u32 op = f & BPFKIT_RQ_OP_MASK;

	if (rq_flag(f, __REQ_SYNC))
		op |= BPFKIT_RQ_SYNC;
	if (rq_flag(f, __REQ_META))
		op |= BPFKIT_RQ_META;
	if (rq_flag(f, __REQ_FUA))
		op |= BPFKIT_RQ_FUA;
	if (rq_flag(f, __REQ_PREFLUSH))
		op |= BPFKIT_RQ_PREFLUSH;
	if (rq_flag(f, __REQ_RAHEAD))
		op |= BPFKIT_RQ_RAHEAD;
	return op;
}

static __always_inline bool rq_selected(struct request *rq)
{
	return !bpfkit_rq_dev_filter ||
	       bpfkit_rq_dev(rq) == bpfkit_rq_dev_filter;
}

#endif /* BPFKIT_BLOCKRQ_BPF_H */
