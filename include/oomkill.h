/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The record oomkill sends for every OOM kill. */
#ifndef OOMKILL_H
#define OOMKILL_H

#include "bpfkit/channel.h"

/* Which of the victim's fields the record holds (oomkill_event.known). */
enum oomkill_known {
	OOMKILL_COMM = 1 << 0,
	OOMKILL_UID = 1 << 1,
	OOMKILL_MEM = 1 << 2, /* total_vm and the rss fields */
	OOMKILL_ADJ = 1 << 3, /* oom_score_adj */
	OOMKILL_FROM_TASK = 1 << 4, /* filled from the victim's task_struct */
	OOMKILL_ALL = OOMKILL_COMM | OOMKILL_UID | OOMKILL_MEM | OOMKILL_ADJ,
};

struct oomkill_event {
	struct bpfkit_record rec; /* first: the time it was sent */
	__u32 pid; /* the victim, as oom:mark_victim names it */
	__u32 uid;
	__u64 total_vm_kb;
	__u64 anon_rss_kb;
	__u64 file_rss_kb;
	__u64 shmem_rss_kb;
	__s32 oom_score_adj;
	__u32 known; /* enum oomkill_known */
	__u32 trigger_pid; /* the task that ran the OOM killer */
	__u32 trigger_tid;
	char comm[BPFKIT_COMM_LEN];
	char trigger_comm[BPFKIT_COMM_LEN];
};

#endif /* OOMKILL_H */
