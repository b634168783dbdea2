// SPDX-License-Identifier: GPL-2.0
/*
 * cachestat: pages added to the page cache, deleted from it and dirtied,
 * counted per CPU, for the tasks the filters select.
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "bpfkit/core_fixes.bpf.h"
#include "bpfkit/filter.bpf.h"
#include "cachestat.h"

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct cachestat_counts);
} cachestat_counts SEC(".maps");

/*
 * This CPU's counts, if the current task is selected. No program runs
 * nested in itself on a CPU (the kernel skips such a run, and counts it
 * in the program's recursion misses) and each adds to a field of its own:
 * plain adds suffice.
 */
static __always_inline struct cachestat_counts *counts(void)
{
	__u32 zero = 0;

	if (!bpfkit_selected())
		return NULL;
	return bpf_map_lookup_elem(&cachestat_counts, &zero);
}

SEC("tracepoint/filemap/mm_filemap_add_to_page_cache")
int page_added(struct trace_event_raw_mm_filemap_op_page_cache *ctx)
{
	struct cachestat_counts *c = counts();

	if (c)
		c->added += bpfkit_filemap_pages(ctx);
	return 0;
}

SEC("tracepoint/filemap/mm_filemap_delete_from_page_cache")
int page_deleted(struct trace_event_raw_mm_filemap_op_page_cache *ctx)
{
	struct cachestat_counts *c = counts();

	if (c)
		c->deleted += bpfkit_filemap_pages(ctx);
	return 0;
}

/* Linux 5.16 on (user space keeps one of the two). */
SEC("raw_tp/writeback_dirty_folio")
int BPF_PROG(folio_dirtied, struct folio *folio)
{
	struct cachestat_counts *c = counts();

	if (c)
		c->dirtied += bpfkit_folio_pages(folio);
	return 0;
}

/* Before: one page an event. */
SEC("tracepoint/writeback/writeback_dirty_page")
int page_dirtied(void *ctx)
{
	struct cachestat_counts *c = counts();

	if (c)
		c->dirtied++;
	return 0;
}
