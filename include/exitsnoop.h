/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The record exitsnoop sends for every process (or thread) exit. */
#ifndef EXITSNOOP_H
#define EXITSNOOP_H

#include "bpfkit/channel.h"
#include "bpfkit/layout.h"

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

/*
 * The kernel struct members the BPF side reads at offsets from the kernel's
 * BTF, without CO-RE (bpfkit/layout.h): X(struct, member, bytes read).
 */
#define EXITSNOOP_MEMBERS(X)                         \
	X(task_struct, signal, sizeof(void *))       \
	X(task_struct, exit_code, 4)                 \
	X(task_struct, start_time, 8)                \
	X(task_struct, group_leader, sizeof(void *)) \
	X(task_struct, real_parent, sizeof(void *))  \
	X(task_struct, tgid, 4)                      \
	X(signal_struct, live, 4) /* atomic_t */     \
	X(signal_struct, flags, 4)                   \
	X(signal_struct, group_exit_code, 4)

struct exitsnoop_layout {
	EXITSNOOP_MEMBERS(BPFKIT_LAYOUT_OFFSET)
};

#endif /* EXITSNOOP_H */
