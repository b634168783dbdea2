/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The record exitsnoop sends for every process (or thread) exit. */
#ifndef EXITSNOOP_H
#define EXITSNOOP_H

#include "bpfkit/channel.h"

struct exitsnoop_event {
	struct bpfkit_record rec; /* first: the time it was sent */
	__u32 pid; /* tgid */
	__u32 tid; /* the thread that exited (that ended it, for a process) */
	__u32 ppid;
	__u32 uid;
	__s32 exit_code; /* as wait(2) sees it: code << 8, or signal | 0x80 */
	__u32 threads_left; /* live threads after this one, with --threads */
	__u64 age_ns; /* lifetime of the process (thread, with --threads) */
	char comm[BPFKIT_COMM_LEN];
};

#endif /* EXITSNOOP_H */
