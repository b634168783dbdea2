/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The record syncsnoop sends for every completed sync call. */
#ifndef SYNCSNOOP_H
#define SYNCSNOOP_H

#include "bpfkit/channel.h"

/* Which syscall asked for the sync. */
enum syncsnoop_call {
	SYNCSNOOP_SYNC,
	SYNCSNOOP_FSYNC,
	SYNCSNOOP_FDATASYNC,
	SYNCSNOOP_SYNCFS,
	SYNCSNOOP_MSYNC,
	SYNCSNOOP_SYNC_FILE_RANGE,
	SYNCSNOOP_CALLS,
};

struct syncsnoop_event {
	struct bpfkit_record rec; /* first: the time it was sent */
	__u64 latency_ns; /* from the syscall's entry to its exit */
	__u64 arg; /* the fd; msync's address; 0 for sync */
	__u32 pid;
	__u32 tid;
	__u32 uid;
	__s32 ret; /* 0, or -errno */
	__u32 call; /* enum syncsnoop_call */
	char comm[BPFKIT_COMM_LEN];
};

#endif /* SYNCSNOOP_H */
