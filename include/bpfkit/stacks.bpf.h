/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The BPF side of the stack tools: the stack map, the counts by
 * (pid, user stack, kernel stack, comm) and the pids user space has not
 * seen yet, so that it reads their memory maps while they still run.
 *
 *	struct bpfkit_stack_key key;
 *	bpfkit_stack_key_fill(ctx, &key);	on the task's own CPU
 *	bpfkit_stack_count(&key, 1);		or the time it was blocked
 */
#ifndef BPFKIT_STACKS_BPF_H
#define BPFKIT_STACKS_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include "bpfkit/stacks.h"

#define BPFKIT_EEXIST 17
#define BPFKIT_ENOMEM 12

const volatile struct bpfkit_stack_cfg bpfkit_stack_cfg = { true, true };
struct bpfkit_stack_stats bpfkit_stack_stats;

struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, BPFKIT_MAX_STACKS);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, BPFKIT_STACK_DEPTH * sizeof(__u64));
} bpfkit_stacks SEC(".maps");

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

/* A stack's id, or -errno; a full stack map is counted, not silent. */
static __always_inline __s32 stack_id(void *ctx, __u64 flags)
{
	long id = bpf_get_stackid(ctx, &bpfkit_stacks, flags);

	if (id == -BPFKIT_EEXIST || id == -BPFKIT_ENOMEM)
		__sync_fetch_and_add(&bpfkit_stack_stats.stack_full, 1);
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
	key->user_stack =
		bpfkit_stack_cfg.user ? stack_id(ctx, BPF_F_USER_STACK) : -1;
	key->kernel_stack = bpfkit_stack_cfg.kernel ? stack_id(ctx, 0) : -1;
	bpf_get_current_comm(key->comm, sizeof(key->comm));
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

#endif /* BPFKIT_STACKS_BPF_H */
