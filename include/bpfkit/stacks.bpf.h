/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The BPF side of the stack tools: the stacks by id, the counts by
 * (pid, user stack, kernel stack, comm) and the pids user space has not
 * seen yet, so that it reads their memory maps while they still run.
 *
 *	struct bpfkit_stack_key key;
 *	bpfkit_stack_key_fill(ctx, &key);	on the task's own CPU
 *	bpfkit_stack_count(&key, 1);		a sample, or
 *	bpfkit_stack_count_block(&key, ns);	the time it was blocked
 */
#ifndef BPFKIT_STACKS_BPF_H
#define BPFKIT_STACKS_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include "bpfkit/stacks.h"

const volatile struct bpfkit_stack_cfg bpfkit_stack_cfg = { true, true, 0,
							    ~0ULL };
struct bpfkit_stack_stats bpfkit_stack_stats;

/*
 * Stacks by the hash of their frames: unlike a STACK_TRACE map, whose ids
 * are buckets that two stacks can collide in (the second one lost), only
 * a full map loses a stack. Preallocated: an element allocated as it
 * comes can fail in NMI and scheduler context (profile's perf events
 * on 6.1, offcputime's sched_switch).
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, BPFKIT_MAX_STACKS);
	__type(key, __u64);
	__type(value, struct bpfkit_stack);
} bpfkit_stacks SEC(".maps");

/* Where a stack is taken before it is stored (too big for the BPF stack). */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct bpfkit_stack);
} bpfkit_stack_scratch SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, BPFKIT_MAX_STACK_KEYS);
	__type(key, struct bpfkit_stack_key);
	__type(value, __u64);
} bpfkit_stack_counts SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, BPFKIT_MAX_STACK_PIDS);
	__type(key, __u32);
	__type(value, __u8);
} bpfkit_stack_pids SEC(".maps");

/*
 * The current stack's id (user or kernel, as FLAGS say): the FNV-1a hash
 * of its frames, stored in bpfkit_stacks; a full map is counted.
 */
static __always_inline __u64 stack_id(void *ctx, __u64 flags)
{
	__u64 id = 0xcbf29ce484222325ULL;
	struct bpfkit_stack *st;
	__u32 zero = 0;
	long len, err;
	int i;

	st = bpf_map_lookup_elem(&bpfkit_stack_scratch, &zero);
	if (!st)
		return BPFKIT_STACK_NONE;
	/*
	 * The kernel zeroes the buffer past the frames it copies (as it has
	 * since bpf_get_stack() came, in Linux 4.18): no earlier stack's
	 * frames are left there, and hashing all of it needs no branch per
	 * frame, which made the verifier walk 160000 instructions.
	 */
	len = bpf_get_stack(ctx, st->ips, sizeof(st->ips), flags);
	if (len <= 0)
		return BPFKIT_STACK_NONE;
	for (i = 0; i < BPFKIT_STACK_DEPTH; i++)
		id = (id ^ st->ips[i]) * 0x100000001b3ULL;
	if (id <= BPFKIT_STACK_LOST)
		id += 2;
	/* A stack seen before is looked up, not copied again. */
	if (bpf_map_lookup_elem(&bpfkit_stacks, &id))
		return id;
	err = bpf_map_update_elem(&bpfkit_stacks, &id, st, BPF_NOEXIST);
	if (err && !bpf_map_lookup_elem(&bpfkit_stacks, &id)) {
		bpfkit_stack_stats.last_stack_err = err;
		__sync_fetch_and_add(&bpfkit_stack_stats.stack_full, 1);
		return BPFKIT_STACK_LOST;
	}
	return id;
}

/*
 * The current task's key: its stacks as the settings say, its process
 * and name; its pid is offered to user space the first time.
 */
static __always_inline void bpfkit_stack_key_fill(void *ctx,
						  struct bpfkit_stack_key *key)
{
	__u8 seen = 1;

	key->pid = bpf_get_current_pid_tgid() >> 32;
	key->pad = 0;
	key->user_stack = bpfkit_stack_cfg.user ?
				  stack_id(ctx, BPF_F_USER_STACK) :
				  BPFKIT_STACK_NONE;
	key->kernel_stack = bpfkit_stack_cfg.kernel ? stack_id(ctx, 0) :
						      BPFKIT_STACK_NONE;
	bpf_get_current_comm(key->comm, sizeof(key->comm));
	__builtin_memset(key->target, 0, sizeof(key->target));
	bpf_map_update_elem(&bpfkit_stack_pids, &key->pid, &seen, BPF_NOEXIST);
}

/* Add VALUE (a sample, or nanoseconds) to KEY's count. */
static __always_inline void bpfkit_stack_count(struct bpfkit_stack_key *key,
					       __u64 value)
{
	__u64 zero = 0, *count;

	count = bpf_map_lookup_elem(&bpfkit_stack_counts, key);
	if (!count) {
		bpf_map_update_elem(&bpfkit_stack_counts, key, &zero,
				    BPF_NOEXIST);
		count = bpf_map_lookup_elem(&bpfkit_stack_counts, key);
		if (!count) {
			__sync_fetch_and_add(&bpfkit_stack_stats.keys_full, 1);
			return;
		}
	}
	__sync_fetch_and_add(count, value);
	__sync_fetch_and_add(&bpfkit_stack_stats.counted, 1);
}

/* Add a block of NS nanoseconds to KEY's count, if -m and -M keep it. */
static __always_inline void
bpfkit_stack_count_block(struct bpfkit_stack_key *key, __u64 ns)
{
	if (ns >= bpfkit_stack_cfg.min_block_ns &&
	    ns <= bpfkit_stack_cfg.max_block_ns)
		bpfkit_stack_count(key, ns);
}

#endif /* BPFKIT_STACKS_BPF_H */
