/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The record biosnoop's BPF side sends for each completed block I/O. */
#ifndef BIOSNOOP_H
#define BIOSNOOP_H

#include "bpfkit/channel.h"

struct biosnoop_event {
	struct bpfkit_record rec; /* first: the time it completed */
	__u64 queue_ns; /* queued to issued, with -Q; 0: not seen queued */
	__u64 service_ns; /* issued to completed */
	__u64 sector; /* first sector, 512-byte units */
	__u32 bytes;
	__u32 pid; /* the task that queued (or issued) it */
	__u32 dev; /* the disk's dev_t */
	__u32 op; /* operation and flags, BPFKIT_RQ_* */
	char comm[BPFKIT_COMM_LEN];
};

#endif /* BIOSNOOP_H */
