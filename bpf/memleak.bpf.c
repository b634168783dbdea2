// SPDX-License-Identifier: GPL-2.0
/*
 * memleak: the bytes allocated and not yet freed, by the stack that
 * allocated them. Each allocation is kept by its address with its size and
 * stacks, its bytes added to their count (bpfkit_stack_counts); its free
 * takes them off again. User space: uprobes on the C library's allocator
 * (or another's), the size from the call, the address from the return,
 * where the caller's user stack is taken. Kernel (-K): the kmem
 * tracepoints, with the kernel stack.
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "bpfkit/core_fixes.bpf.h"
#include "bpfkit/filter.bpf.h"
#include "bpfkit/pertask.bpf.h"
#include "bpfkit/stacks.bpf.h"
#include "memleak.h"

char LICENSE[] SEC("license") = "GPL";

/* vmlinux.h has no errno names. */
#define EEXIST 17

/* Allocations not tracked: their call or their map found no room. */
__u64 memleak_untracked;
__s64 memleak_untracked_err; /* the last one's -errno */

/* Allocations outstanding, by address (a page's: its pfn). */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, MEMLEAK_MAX_ALLOCS);
	__type(key, __u64);
	__type(value, struct memleak_alloc);
} memleak_allocs SEC(".maps");

/* Allocator calls in progress: the size asked. */
BPFKIT_STAGING(__u64);

/* Where an allocation is made before it is stored. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct memleak_alloc);
} memleak_scratch SEC(".maps");

/* ADDR is freed: its bytes come off its stacks' count. */
static __always_inline void untrack(__u64 addr)
{
	struct memleak_alloc *a;

	a = bpf_map_lookup_elem(&memleak_allocs, &addr);
	if (!a)
		return;
	bpfkit_stack_count(&a->key, -a->size);
	bpf_map_delete_elem(&memleak_allocs, &addr);
}

/* Count SIZE bytes at ADDR to the current task's stacks. */
static __always_inline void track(void *ctx, __u64 addr, __u64 size)
{
	struct memleak_alloc *a;
	__u32 zero = 0;
	long err;

	a = bpf_map_lookup_elem(&memleak_scratch, &zero);
	if (!a)
		return;
	a->size = size;
	bpfkit_stack_key_fill(ctx, &a->key);
	err = bpf_map_update_elem(&memleak_allocs, &addr, a, BPF_NOEXIST);
	/* Allocated again: freed unseen (kfree_bulk()), its bytes come off. */
	if (err == -EEXIST) {
		untrack(addr);
		err = bpf_map_update_elem(&memleak_allocs, &addr, a,
					  BPF_NOEXIST);
	}
	if (err) {
		memleak_untracked_err = err;
		__sync_fetch_and_add(&memleak_untracked, 1);
		return;
	}
	bpfkit_stack_count(&a->key, size);
}

/* The user allocators: the size at the call, kept for the return. */
static __always_inline int call(__u64 size)
{
	long err;

	if (!bpfkit_selected())
		return 0;
	err = bpfkit_stage_put(&bpfkit_staging, &size, sizeof(size));
	if (err) {
		memleak_untracked_err = err;
		__sync_fetch_and_add(&memleak_untracked, 1);
	}
	return 0;
}

static __always_inline int called(struct pt_regs *ctx, __u64 addr)
{
	__u64 *size;

	size = bpfkit_staged(&bpfkit_staging);
	if (!size)
		return 0;
	/* NULL: malloc failed; -1: mmap's MAP_FAILED. */
	if (addr && addr != (__u64)-1)
		track(ctx, addr, *size);
	bpfkit_unstage(&bpfkit_staging, size);
	return 0;
}

SEC("uprobe")
int BPF_KPROBE(malloc_call, size_t size)
{
	return call(size);
}

SEC("uretprobe")
int BPF_KRETPROBE(malloc_return, void *addr)
{
	return called(ctx, (__u64)addr);
}

SEC("uprobe")
int BPF_KPROBE(calloc_call, size_t n, size_t size)
{
	return call((__u64)n * size);
}

SEC("uretprobe")
int BPF_KRETPROBE(calloc_return, void *addr)
{
	return called(ctx, (__u64)addr);
}

/* realloc: the old block is freed (when it moves, or shrinks, alike). */
SEC("uprobe")
int BPF_KPROBE(realloc_call, void *old, size_t size)
{
	untrack((__u64)old);
	return call(size);
}

SEC("uretprobe")
int BPF_KRETPROBE(realloc_return, void *addr)
{
	return called(ctx, (__u64)addr);
}

SEC("uprobe")
int BPF_KPROBE(mmap_call, void *addr, size_t len)
{
	return call(len);
}

SEC("uretprobe")
int BPF_KRETPROBE(mmap_return, void *addr)
{
	return called(ctx, (__u64)addr);
}

SEC("uprobe")
int BPF_KPROBE(free_call, void *addr)
{
	untrack((__u64)addr);
	return 0;
}

SEC("uprobe")
int BPF_KPROBE(munmap_call, void *addr)
{
	untrack((__u64)addr);
	return 0;
}

/* The kernel's allocators (-K), in the allocating task's context. */
static __always_inline int kernel_alloc(void *ctx, const void *ptr, __u64 size)
{
	if (ptr && bpfkit_selected())
		track(ctx, (__u64)ptr, size);
	return 0;
}

SEC("tracepoint/kmem/kmalloc")
int kmalloc(void *ctx)
{
	struct bpfkit_kmem_alloc a = bpfkit_kmem_alloc_of(ctx, false);

	return kernel_alloc(ctx, a.ptr, a.bytes);
}

SEC("tracepoint/kmem/kmem_cache_alloc")
int kmem_cache_alloc(void *ctx)
{
	struct bpfkit_kmem_alloc a = bpfkit_kmem_alloc_of(ctx, true);

	return kernel_alloc(ctx, a.ptr, a.bytes);
}

/* Before Linux 6.1 only: user space loads them where they exist. */
SEC("tracepoint/kmem/kmalloc_node")
int kmalloc_node(void *ctx)
{
	struct bpfkit_kmem_alloc a = bpfkit_kmem_alloc_of(ctx, false);

	return kernel_alloc(ctx, a.ptr, a.bytes);
}

SEC("tracepoint/kmem/kmem_cache_alloc_node")
int kmem_cache_alloc_node(void *ctx)
{
	struct bpfkit_kmem_alloc a = bpfkit_kmem_alloc_of(ctx, true);

	return kernel_alloc(ctx, a.ptr, a.bytes);
}

SEC("tracepoint/kmem/kfree")
int kfree(void *ctx)
{
	untrack((__u64)bpfkit_kmem_freed(ctx, false));
	return 0;
}

SEC("tracepoint/kmem/kmem_cache_free")
int kmem_cache_free(void *ctx)
{
	untrack((__u64)bpfkit_kmem_freed(ctx, true));
	return 0;
}

/* Pages, by pfn: PAGE_SIZE << order bytes (4 KiB pages on x86). */
SEC("tracepoint/kmem/mm_page_alloc")
int mm_page_alloc(struct trace_event_raw_mm_page_alloc *ctx)
{
	__u64 pfn = ctx->pfn;

	/* A failed allocation has pfn -1 (page NULL). */
	if (pfn != (__u64)-1 && bpfkit_selected())
		track(ctx, pfn, 4096ULL << ctx->order);
	return 0;
}

SEC("tracepoint/kmem/mm_page_free")
int mm_page_free(struct trace_event_raw_mm_page_free *ctx)
{
	untrack(ctx->pfn);
	return 0;
}

/* Pages freed a batch at a time (free_unref_folios()). */
SEC("tracepoint/kmem/mm_page_free_batched")
int mm_page_free_batched(struct trace_event_raw_mm_page_free_batched *ctx)
{
	untrack(ctx->pfn);
	return 0;
}
