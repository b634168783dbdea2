/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * What the BPF side and user space of every tool agree on: the filters and
 * channel settings user space writes into .rodata before load, and the
 * counters the BPF side keeps for every record it emits.
 */
#ifndef BPFKIT_CHANNEL_CFG_H
#define BPFKIT_CHANNEL_CFG_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

#define BPFKIT_COMM_LEN 16
#define BPFKIT_ANY_UID ((__u32)-1)

/* Set once, before load, as the read-only `bpfkit_cfg` of every object. */
struct bpfkit_cfg {
	__u32 pid; /* trace this process (tgid) only; 0: all */
	__u32 uid; /* trace this user only; BPFKIT_ANY_UID: all */
	__u64 cgroup_id; /* trace this cgroup v2 only; 0: all */
	char comm[BPFKIT_COMM_LEN]; /* trace this command only; "": all */
	__u32 ringbuf; /* emit into the ring buffer instead of the perf buffer */
	__u32 wakeup; /* wake the reader once this many records are pending */
	__u64 ring_wakeup_max; /* ...or this many bytes, whichever is fewer */
};

/* Per-CPU counters of the event channel. */
struct bpfkit_stats {
	__u64 produced; /* records the BPF side tried to emit */
	__u64 dropped; /* records that found no room and were lost */
};

#endif /* BPFKIT_CHANNEL_CFG_H */
