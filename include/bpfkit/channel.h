/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * What both sides of a tool that sends events agree on: the channel
 * settings user space writes into the object's read-only bpfkit_channel_cfg
 * before load, the header of every record and the counters the BPF side
 * keeps for every record.
 */
#ifndef BPFKIT_CHANNEL_CFG_H
#define BPFKIT_CHANNEL_CFG_H

#include "bpfkit/types.h"

/* Set once, before load, as the read-only `bpfkit_channel_cfg`. */
struct bpfkit_channel_cfg {
	__u32 ringbuf; /* emit into the ring buffer instead of the perf buffer */
	__u32 wakeup; /* wake the reader once this many records are pending */
	__u64 wakeup_bytes; /* ...or this many bytes: half a buffer */
	__u64 wakeup_budget_ns; /* ...or at once if last woken this long ago */
};

/*
 * The header every record starts with: bpfkit_emit() stamps it with the
 * kernel's CLOCK_MONOTONIC (bpf_ktime_get_ns()) just before sending.
 */
struct bpfkit_record {
	__u64 ktime_ns;
	/*
	 * The task it is about, for the container room (user/lib/container.c):
	 * bpfkit_emit() fills these from the task that sends it; a record
	 * about another task (a socket's owner, a task woken) carries that
	 * task's (bpfkit_emit_stamped()), all zero when it is not known.
	 */
	__u64 cgroup_id; /* its cgroup v2 id (kernfs id) */
	__u32 mntns; /* its mount namespace's inode number */
	__u32 pidns; /* its pid namespace's inode number */
	__u32 pidns_pid; /* its process id as its own pid namespace sees it */
	__u32 reserved; /* zero */
};

/*
 * Per-CPU counters of the event channel. An event is produced when the BPF
 * side tries to emit its record, or when it gives the event up before that
 * because a map on its way failed (bpfkit_drop()); each of those is lost.
 */
struct bpfkit_stats {
	__u64 produced; /* events emitted or dropped on the way */
	__u64 dropped; /* records that found no room in the buffer */
	__u64 staging_full; /* events a staging map had no room for */
	__u64 read_failed; /* events whose staged or scratch entry was missing */
	/* Overload control (bpfkit/overload.bpf.h): events not sent, on purpose */
	__u64 throttled; /* by a --rate-limit or --max-cpu budget */
	__u64 sampled; /* left out by --sample */
	__u64 limit_misses; /* keys bpfkit_buckets had no bucket for */
};

#endif /* BPFKIT_CHANNEL_CFG_H */
