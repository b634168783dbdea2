// SPDX-License-Identifier: GPL-2.0
/*
 * biotop: block I/O per process, disk and operation (requests, bytes,
 * time in the device), counted as each request completes, for user space
 * to take every interval.
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
/* Times in the device, from issue: no queue times. */
#define BPFKIT_RQ_NO_QUEUE_TIME
#include "bpfkit/blockio.bpf.h"
#include "biotop.h"

char LICENSE[] SEC("license") = "GPL";

/* Requests not counted: the in-flight or the counts map was full. */
__u64 biotop_missed;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, BIOTOP_MAX_KEYS);
	__type(key, struct biotop_key);
	__type(value, struct biotop_val);
} biotop_counts SEC(".maps");

static __always_inline void rq_unstaged(void)
{
	__sync_fetch_and_add(&biotop_missed, 1);
}

static __always_inline void rq_done(void *ctx, struct request *rq,
				    const struct bpfkit_rq_start *s)
{
	static const struct biotop_val zero;
	struct biotop_key key = {
		.pid = s->pid,
		.dev = bpfkit_rq_dev(rq),
		.op = bpfkit_rq_op(rq) & BPFKIT_RQ_OP_MASK,
	};
	struct biotop_val *v;

	v = rq_counts(&biotop_counts, &key, &zero);
	if (!v)
		return;
	__builtin_memcpy(v->comm, s->comm, sizeof(v->comm));
	__sync_fetch_and_add(&v->io, 1);
	__sync_fetch_and_add(&v->bytes, BPF_CORE_READ(rq, __data_len));
	__sync_fetch_and_add(&v->service_ns, bpf_ktime_get_ns() - s->issued_ns);
}
