/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a thread keeps from a call's start to its end, in the map
 * bpfkit_staging the tool declares with BPFKIT_STAGING(staged_type): the
 * task's own storage (BPF_MAP_TYPE_TASK_STORAGE, Linux 5.11 on) where the
 * kernel lets tracing programs use it, a lookup by task with no hashing,
 * no update or delete per call, freed with the task; elsewhere user space
 * (user/lib/staging.c) keeps it the hash by thread id declared here, and
 * a full hash fails the call's bpfkit_stage_put() (never an LRU one: it
 * would forget the call in flight longest, the slowest, without a word).
 * A tool that sends events stages with bpfkit_stage()
 * (bpfkit/staging.bpf.h), which filters and counts what finds no room.
 */
#ifndef BPFKIT_PERTASK_BPF_H
#define BPFKIT_PERTASK_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#define BPFKIT_ENOMEM 12 /* errno's ENOMEM */

/* The hash's entries; the largest staged type. */
#define BPFKIT_STAGING_ENTRIES 10240
#define BPFKIT_STAGED_MAX 64

/* Set by user space: bpfkit_staging is the task's storage. */
const volatile bool bpfkit_task_storage;

/*
 * The map bpfkit_staging: per thread, a word saying whether a call is
 * staged, then the call's STAGED_TYPE.
 */
#define BPFKIT_STAGING(staged_type)                                  \
	_Static_assert(sizeof(staged_type) <= BPFKIT_STAGED_MAX,     \
		       "staged type larger than BPFKIT_STAGED_MAX"); \
	struct bpfkit_staged {                                       \
		__u64 live;                                          \
		staged_type args;                                    \
	};                                                           \
	struct {                                                     \
		__uint(type, BPF_MAP_TYPE_HASH);                     \
		__uint(max_entries, BPFKIT_STAGING_ENTRIES);         \
		__type(key, int);                                    \
		__type(value, struct bpfkit_staged);                 \
	} bpfkit_staging SEC(".maps")

/*
 * Put ARGS (SIZE bytes) in MAP for the current thread: 0, or a negative
 * errno when it finds no room (a full hash, or no memory).
 */
static __always_inline long bpfkit_stage_put(void *map, const void *args,
					     __u32 size)
{
	__u64 staged[1 + BPFKIT_STAGED_MAX / 8], *slot = staged;
	int tid;

	if (bpfkit_task_storage) {
		slot = bpf_task_storage_get(map, bpf_get_current_task_btf(),
					    NULL,
					    BPF_LOCAL_STORAGE_GET_F_CREATE);
		if (!slot)
			return -BPFKIT_ENOMEM;
	} else {
		/* The hash copies the value's padding too. */
		__builtin_memset(staged, 0, sizeof(staged));
	}
	__builtin_memcpy(slot + 1, args, size);
	slot[0] = 1;
	if (bpfkit_task_storage)
		return 0;
	tid = bpf_get_current_pid_tgid();
	return bpf_map_update_elem(map, &tid, staged, BPF_ANY);
}

/*
 * What bpfkit_stage() or bpfkit_stage_put() put in MAP for the current
 * thread; NULL when nothing is staged (a call in flight when the tool
 * started, or one the filters left out).
 */
static __always_inline void *bpfkit_staged(void *map)
{
	__u64 *slot;
	int tid;

	if (bpfkit_task_storage) {
		slot = bpf_task_storage_get(map, bpf_get_current_task_btf(),
					    NULL, 0);
	} else {
		tid = bpf_get_current_pid_tgid();
		slot = bpf_map_lookup_elem(map, &tid);
	}
	if (!slot || !slot[0])
		return NULL;
	return slot + 1;
}

/*
 * The call ended: forget ARGS, what bpfkit_staged() found in MAP (after
 * this, a hash may hand its memory to another thread's call).
 */
static __always_inline void bpfkit_unstage(void *map, void *args)
{
	int tid;

	if (bpfkit_task_storage) {
		((__u64 *)args)[-1] = 0;
		return;
	}
	tid = bpf_get_current_pid_tgid();
	bpf_map_delete_elem(map, &tid);
}

#endif /* BPFKIT_PERTASK_BPF_H */
