/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Syscalls and waits traced at their start and end: the start stages what
 * the end needs for a task the filters select, the end finds it, builds
 * the record (in a per-CPU scratch slot when too big for the stack) and
 * unstages it, in the map bpfkit/pertask.bpf.h keeps per thread:
 *
 *	BPFKIT_STAGING(struct my_args);
 *	...start:	bpfkit_stage(&bpfkit_staging, &a, sizeof(a));
 *	...end:		a = bpfkit_staged(&bpfkit_staging);
 *			if (!a) return 0;
 *			...
 *			bpfkit_unstage(&bpfkit_staging, a);
 */
#ifndef BPFKIT_STAGING_BPF_H
#define BPFKIT_STAGING_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include "bpfkit/channel.bpf.h"
#include "bpfkit/filter.bpf.h"
#include "bpfkit/pertask.bpf.h"

/*
 * Stage ARGS (SIZE bytes) in MAP for the current thread, if it is selected
 * and not sampled out or throttled already (bpfkit_admit_entry()); a call
 * that finds no room is counted lost.
 */
static __always_inline void bpfkit_stage(void *map, const void *args,
					 __u32 size)
{
	if (!bpfkit_selected())
		return;
	if (!bpfkit_admit_entry())
		return;
	if (bpfkit_stage_put(map, args, size))
		bpfkit_drop(BPFKIT_STAGING_FULL);
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
