/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The record oomkill sends for every OOM kill. */
#ifndef OOMKILL_H
#define OOMKILL_H

#include "bpfkit/channel.h"
#include "bpfkit/layout.h"

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

/*
 * What the victim's task gives where oom:mark_victim lacks it, read at
 * offsets from the kernel's BTF (bpfkit/layout.h). mm->rss_stat was a
 * struct mm_rss_stat of atomic_long_t counts before Linux 6.2, an array
 * of struct percpu_counter since: mm_rss_stat.count is absent there.
 */
#define OOMKILL_MEMBERS(X)                                    \
	X(task_struct, pid, 4)                                \
	X(task_struct, comm, BPFKIT_COMM_LEN)                 \
	X(task_struct, cred, sizeof(void *))                  \
	X(task_struct, signal, sizeof(void *))                \
	X(task_struct, mm, sizeof(void *))                    \
	X(cred, uid, 4) /* kuid_t */                          \
	X(signal_struct, oom_score_adj, 2)                    \
	X(mm_struct, total_vm, sizeof(long))                  \
	X(mm_struct, rss_stat, 0) /* embedded: its offset */  \
	X(mm_rss_stat, count, BPFKIT_OPTIONAL(0)) /* < 6.2 */ \
	X(percpu_counter, count, 8)
#define OOMKILL_SIZES(X) X(percpu_counter, sizeof, BPFKIT_STRUCT_SIZE)
#define OOMKILL_LAYOUT(X) OOMKILL_MEMBERS(X) OOMKILL_SIZES(X)

struct oomkill_layout {
	OOMKILL_LAYOUT(BPFKIT_LAYOUT_OFFSET)
};

/*
 * The fields of oom:mark_victim's record oomkill reads, X(field, size):
 * newer kernels' record has them all, 6.1's the pid alone. Their offsets,
 * from the tracepoint's format file, in struct oomkill_record (absent:
 * BPFKIT_ABSENT).
 */
#define OOMKILL_FIELDS(X)                                           \
	X(pid, 4)                                                   \
	X(comm, 4) /* __data_loc: the string's offset and length */ \
	X(uid, 4)                                                   \
	X(total_vm, sizeof(long))                                   \
	X(anon_rss, sizeof(long))                                   \
	X(file_rss, sizeof(long))                                   \
	X(shmem_rss, sizeof(long))                                  \
	X(oom_score_adj, 2)

struct oomkill_record {
	OOMKILL_FIELDS(BPFKIT_RECORD_OFFSET)
};

#endif /* OOMKILL_H */
