/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Syscalls traced at entry and exit: the entry stages the call's arguments
 * by thread id for a task the filters select, the exit looks them up, builds
 * the record (in a per-CPU scratch slot when too big for the stack) and
 * deletes them (bpfkit_unstage()).
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
 * Copy into ARGS (SIZE bytes) what bpfkit_stage() put in MAP for the
 * current thread, and delete it: false when nothing was staged (a call in
 * flight when the tool started, or one the filters left out). A plain hash,
 * never an LRU one: an LRU would forget the call in flight longest, the
 * slowest, without a word, where a full hash is counted.
 */
static __always_inline bool bpfkit_unstage(void *map, void *args, __u32 size)
{
	__u32 tid = bpf_get_current_pid_tgid();
	void *staged = bpf_map_lookup_elem(map, &tid);

	if (!staged)
		return false;
	__builtin_memcpy(args, staged, size);
	bpf_map_delete_elem(map, &tid);
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
