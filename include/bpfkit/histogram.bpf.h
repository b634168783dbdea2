/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The BPF side of the shared histogram, included by every histogram tool's
 * BPF object. The tool defines its map (its own key, struct bpfkit_hist
 * values, BPFKIT_HIST_MAX_KEYS entries), finds a key's histogram with
 * bpfkit_hist_get() and adds a value in nanoseconds with bpfkit_hist_add(),
 * or adds a task's value with bpfkit_hist_add_task(), or the time of what
 * ran on a CPU with bpfkit_hist_cpu_exit().
 * bpfkit_hist_add()'s adds are atomic, so CPUs adding to one key at once
 * lose nothing.
 */
#ifndef BPFKIT_HISTOGRAM_BPF_H
#define BPFKIT_HISTOGRAM_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include "bpfkit/histogram.h"

const volatile struct bpfkit_hist_cfg bpfkit_hist_cfg =
	BPFKIT_HIST_CFG_DEFAULTS;

/*
 * Values not counted because their key found the map full, or because the
 * start of what they time found no room (bpfkit_hist_miss()).
 */
__u64 bpfkit_hist_missed;

/* Count a value that will not be counted: its start could not be kept. */
static __always_inline void bpfkit_hist_miss(void)
{
	__sync_fetch_and_add(&bpfkit_hist_missed, 1);
}

/*
 * KEY's histogram in MAP, created empty on first use; NULL (the value
 * counted in bpfkit_hist_missed) when the map is full.
 */
static __always_inline struct bpfkit_hist *bpfkit_hist_get(void *map,
							   const void *key)
{
	static const struct bpfkit_hist zero;
	struct bpfkit_hist *h;

	h = bpf_map_lookup_elem(map, key);
	if (h)
		return h;
	bpf_map_update_elem(map, key, &zero, BPF_NOEXIST);
	h = bpf_map_lookup_elem(map, key);
	if (!h)
		bpfkit_hist_miss();
	return h;
}

/* The bucket of a value of NS nanoseconds. */
static __always_inline __u32 bpfkit_hist_slot_of(__u64 ns)
{
	return bpfkit_hist_slot_ns(&bpfkit_hist_cfg, ns);
}

/* Add one value of NS nanoseconds to H. */
static __always_inline void bpfkit_hist_add(struct bpfkit_hist *h, __u64 ns)
{
	__u32 slot = bpfkit_hist_slot_of(ns);

	/*
	 * Bound the register the index is taken from: else clang checks a
	 * zero-extended copy of it, which Linux 6.1's verifier does not tie
	 * back to it ("unbounded memory access").
	 */
	barrier_var(slot);
	if (slot >= BPFKIT_HIST_SLOTS)
		return;
	__sync_fetch_and_add(&h->slots[slot], 1);
	__sync_fetch_and_add(&h->count, 1);
	__sync_fetch_and_add(&h->sum_ns, ns);
}

/*
 * Add one value of NS nanoseconds to H, this CPU's own copy of a per-CPU
 * histogram, from the only program adding to it, which nothing on this CPU
 * can interrupt (sched_switch's: the scheduler runs it with interrupts
 * off): plain adds, without the atomic instructions' cost.
 */
static __always_inline void bpfkit_hist_add_local(struct bpfkit_hist *h,
						  __u64 ns)
{
	__u32 slot = bpfkit_hist_slot_of(ns);

	barrier_var(slot); /* as in bpfkit_hist_add() */
	if (slot >= BPFKIT_HIST_SLOTS)
		return;
	h->slots[slot]++;
	h->count++;
	h->sum_ns += ns;
}

/*
 * Timing what runs on a CPU without nesting there (an IRQ handler, a
 * softirq): MAP, a one-entry per-CPU array of __u64, holds its start time.
 * At its entry: bpfkit_hist_cpu_enter(); at its exit: bpfkit_hist_cpu_exit().
 */
static __always_inline void bpfkit_hist_cpu_enter(void *map)
{
	__u32 zero = 0;
	__u64 *start = bpf_map_lookup_elem(map, &zero);

	if (start)
		*start = bpf_ktime_get_ns();
}

/*
 * At its exit: add the time since this CPU's start in START_MAP (none: it
 * began before tracing) to KEY's histogram in MAP, and clear the start.
 */
static __always_inline void bpfkit_hist_cpu_exit(void *start_map, void *map,
						 const void *key)
{
	__u32 zero = 0;
	__u64 *start = bpf_map_lookup_elem(start_map, &zero);
	struct bpfkit_hist *h;

	if (!start || !*start)
		return;
	h = bpfkit_hist_get(map, key);
	if (h)
		bpfkit_hist_add(h, bpf_ktime_get_ns() - *start);
	*start = 0;
}

/* The CPU of a key: this one with -C, else BPFKIT_HIST_ANY_CPU. */
static __always_inline __u32 bpfkit_hist_cpu(void)
{
	return bpfkit_hist_cfg.per_cpu ? bpf_get_smp_processor_id() :
					 BPFKIT_HIST_ANY_CPU;
}

/*
 * Add NS nanoseconds to task T's histogram in MAP, whose __u32 keys are as
 * -P, -L and --per-container say; a process or thread histogram is named by
 * T's comm.
 * Called from sched_switch only: one histogram (BPFKIT_HIST_ALL) is a
 * per-CPU array (bpfkit_hist_task_map()), added to by
 * bpfkit_hist_add_local().
 */
static __always_inline void
bpfkit_hist_add_task(void *map, struct task_struct *t, __u64 ns)
{
	enum bpfkit_hist_by by = bpfkit_hist_cfg.by;
	struct bpfkit_hist *h;
	__u32 key = 0;

	if (by == BPFKIT_HIST_PROCESS)
		key = BPF_CORE_READ(t, tgid);
	else if (by == BPFKIT_HIST_THREAD)
		key = BPF_CORE_READ(t, pid);
	else if (by == BPFKIT_HIST_CONTAINER)
		key = BPF_CORE_READ(t, nsproxy, mnt_ns, ns.inum);
	h = bpfkit_hist_get(map, &key);
	if (!h)
		return;
	if (by == BPFKIT_HIST_ALL) {
		bpfkit_hist_add_local(h, ns);
		return;
	}
	if (!h->name[0] && by != BPFKIT_HIST_CONTAINER)
		BPF_CORE_READ_STR_INTO(&h->name, t, comm);
	bpfkit_hist_add(h, ns);
}

#endif /* BPFKIT_HISTOGRAM_BPF_H */
