// SPDX-License-Identifier: GPL-2.0
/*
 * biosnoop: one record per completed block I/O, with who started it, the
 * disk, operation, sector and size, and its queue and service times.
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include "bpfkit/blockio.bpf.h"
#include "bpfkit/channel.bpf.h"
#include "bpfkit/filter.bpf.h"
#include "biosnoop.h"

char LICENSE[] SEC("license") = "GPL";

static __always_inline void rq_unstaged(void)
{
	bpfkit_drop(BPFKIT_STAGING_FULL);
}

static __always_inline void rq_done(void *ctx, struct request *rq,
				    const struct bpfkit_rq_start *s)
{
	struct biosnoop_event e = {};

	if (s->queued_ns && s->queued_ns <= s->issued_ns)
		e.queue_ns = s->issued_ns - s->queued_ns;
	e.service_ns = bpf_ktime_get_ns() - s->issued_ns;
	e.sector = BPF_CORE_READ(rq, __sector);
	e.bytes = BPF_CORE_READ(rq, __data_len);
	e.pid = s->pid;
	e.dev = bpfkit_rq_dev(rq);
	e.op = bpfkit_rq_op(rq);
	__builtin_memcpy(e.comm, s->comm, sizeof(e.comm));
	bpfkit_emit(ctx, &e.rec, sizeof(e));
}
