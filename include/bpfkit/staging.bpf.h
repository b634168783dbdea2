/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Syscalls traced at entry and exit: the entry stages the call's arguments
 * by thread id for a task the filters select, the exit looks them up, builds
 * the record (in a per-CPU scratch slot when too big for the stack) and
 * deletes them; or, for calls made on every read or write, the thread
 * keeps its entry and the exit only takes what it holds (bpfkit_stage_kept).
 */
#ifndef BPFKIT_STAGING_BPF_H
#define BPFKIT_STAGING_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include "bpfkit/channel.bpf.h"
#include "bpfkit/filter.bpf.h"

/*
 * Stage ARGS in hash MAP under the current thread id, if it is selected
 * and not sampled out or throttled already (bpfkit_admit_entry()).
 */
static __always_inline void bpfkit_stage(void *map, const void *args)
{
	__u32 tid = bpf_get_current_pid_tgid();

	if (!bpfkit_selected())
		return;
	if (!bpfkit_admit_entry())
		return;
	if (bpf_map_update_elem(map, &tid, args, BPF_ANY))
		bpfkit_drop(BPFKIT_STAGING_FULL);
}

/*
 * Staging for the syscalls a tool times on every call, in an LRU hash MAP
 * keyed by thread id whose entry a thread keeps from call to call: the
 * entry writes ARGS (SIZE bytes, their first 8 not zero) over it in place,
 * the exit takes them, bpfkit_take_kept(), zeroing those 8: two lookups a
 * call rather than an insertion, a lookup and a deletion. The least
 * recently used threads' entries make room for new threads.
 */
static __always_inline void bpfkit_stage_kept(void *map, const void *args,
					      __u32 size)
{
	__u32 tid = bpf_get_current_pid_tgid();
	void *kept;

	if (!bpfkit_selected())
		return;
	if (!bpfkit_admit_entry())
		return;
	kept = bpf_map_lookup_elem(map, &tid);
	if (kept)
		__builtin_memcpy(kept, args, size);
	else if (bpf_map_update_elem(map, &tid, args, BPF_ANY))
		bpfkit_drop(BPFKIT_STAGING_FULL);
}

/*
 * Copy into ARGS (SIZE bytes) what the current thread staged in MAP by
 * bpfkit_stage_kept(), and take it: false when nothing was staged.
 */
static __always_inline bool bpfkit_take_kept(void *map, void *args, __u32 size)
{
	__u32 tid = bpf_get_current_pid_tgid();
	__u64 *kept = bpf_map_lookup_elem(map, &tid);

	if (!kept || !*kept)
		return false;
	__builtin_memcpy(args, kept, size);
	*kept = 0;
	return true;
}

/* The record slot of one-entry per-CPU array MAP; NULL counts a loss. */
static __always_inline void *bpfkit_scratch(void *map)
{
	__u32 zero = 0;
	void *e = bpf_map_lookup_elem(map, &zero);

	if (!e)
		bpfkit_drop(BPFKIT_READ_FAILED);
	return e;
}

/*
 * Read the user string at ADDR into DST of SIZE bytes, empty when
 * unreadable; its length with the NUL, from 1 to SIZE.
 */
static __always_inline long bpfkit_read_user_str(char *dst, __u32 size,
						 __u64 addr)
{
	long len = bpf_probe_read_user_str(dst, size, (const void *)addr);

	if (len <= 0) {
		dst[0] = '\0';
		len = 1;
	}
	if (len > size)
		len = size;
	return len;
}

#endif /* BPFKIT_STAGING_BPF_H */
