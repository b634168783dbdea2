/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The run-queue wait, from a task's wakeup (or its preemption) to the
 * switch that runs it: the sched tracepoints' programs of runqlat (which
 * makes histograms of it) and runqslower (which reports each one above a
 * threshold), on tp_btf where the kernel has it, raw_tp elsewhere (BTF, a
 * constant in every caller, says which: each program keeps one path).
 *
 *	SEC("tp_btf/sched_wakeup") ... lost = bpfkit_runq_woken(p, true);
 *	SEC("tp_btf/sched_switch") ...
 *		if (bpfkit_runq_switched(prev, next, true, &wait, &lost))
 *			the wait of NEXT, in ns, is in WAIT
 *
 * LOST: a thread's queueing time was overwritten, its wait is lost: the
 * tool counts it as its room does (bpfkit_hist_miss(), bpfkit_drop()).
 */
#ifndef BPFKIT_RUNQ_BPF_H
#define BPFKIT_RUNQ_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "bpfkit/core_fixes.bpf.h"
#include "bpfkit/filter.bpf.h"
#include "bpfkit/runq.h"
#include "bpfkit/sched.h"

/*
 * When each queued thread was queued: one 8-byte word per slot, found by
 * the low bits of the thread's id, holding its other bits (plus one: 0 is
 * an empty slot) above the low 48 bits of the clock. A plain array lookup
 * the verifier inlines, on both program kinds: no helper call per event.
 * Two threads queued at once in one slot (ids BPFKIT_RUNQ_SLOTS apart) are
 * possible only where pid_max exceeds BPFKIT_RUNQ_SLOTS; the one
 * overwritten is lost.
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, BPFKIT_RUNQ_SLOTS);
	__type(key, __u32);
	__type(value, __u64);
} bpfkit_runq_queued SEC(".maps");

#define BPFKIT_RUNQ_CLOCK_BITS 48
#define BPFKIT_RUNQ_CLOCK_MASK ((1ULL << BPFKIT_RUNQ_CLOCK_BITS) - 1)

/* The tag a slot holds for thread TID: its id's high bits, plus one. */
static __always_inline __u64 bpfkit_runq_tag(__u32 tid)
{
	return ((__u64)(tid / BPFKIT_RUNQ_SLOTS) + 1) << BPFKIT_RUNQ_CLOCK_BITS;
}

/* Thread TID's slot; never NULL (the index is in range). */
static __always_inline __u64 *bpfkit_runq_slot(__u32 tid)
{
	__u32 i = tid % BPFKIT_RUNQ_SLOTS;

	return bpf_map_lookup_elem(&bpfkit_runq_queued, &i);
}

/*
 * A field of task T: a plain load where the verifier trusts T (tp_btf), a
 * bpf_probe_read_kernel() call where it does not (raw_tp).
 */
#define bpfkit_runq_field(btf, t, field) \
	((btf) ? (t)->field : BPF_CORE_READ(t, field))

/* Task T's state (__state, or state before Linux 5.14), the same two ways. */
static __always_inline unsigned long bpfkit_runq_state(struct task_struct *t,
						       bool btf)
{
	return btf ? bpfkit_btf_task_state(t) : bpfkit_task_state(t);
}

/*
 * The time now for task P, which is on a run queue or about to be: on the
 * tp_btf path, the clock of P's run queue, which the scheduler has just
 * updated under that queue's lock at each of these tracepoints (two loads;
 * bpf_ktime_get_ns() costs more than the rest of the wakeup program here);
 * on the raw_tp path, which may not follow task pointers by loads, or
 * where tasks have no group run queue, the ktime clock.
 */
static __always_inline __u64 bpfkit_runq_now(struct task_struct *p, bool btf)
{
	if (btf && bpf_core_field_exists(p->se.cfs_rq))
		return p->se.cfs_rq->rq->clock;
	return bpf_ktime_get_ns();
}

/*
 * Keep NOW as the time thread TID was queued. True when the slot held
 * another thread's time: that thread's wait is lost.
 */
static __always_inline bool bpfkit_runq_queue(__u32 tid, __u64 now)
{
	__u64 *slot = bpfkit_runq_slot(tid), tag = bpfkit_runq_tag(tid);
	bool lost;

	if (!slot)
		return false;
	lost = *slot && (*slot & ~BPFKIT_RUNQ_CLOCK_MASK) != tag;
	*slot = tag | (now & BPFKIT_RUNQ_CLOCK_MASK);
	return lost;
}

/* Whether task P, of thread id TID, is one to time (the idle task never is). */
static __always_inline bool bpfkit_runq_timed(struct task_struct *p, __u32 tid)
{
	return tid && bpfkit_task_selected(p);
}

/*
 * Task P is woken (sched_wakeup, sched_wakeup_new): it waits from now on.
 * True when another thread's wait was lost for it.
 */
static __always_inline bool bpfkit_runq_woken(struct task_struct *p, bool btf)
{
	__u32 tid = bpfkit_runq_field(btf, p, pid);

	return bpfkit_runq_timed(p, tid) &&
	       bpfkit_runq_queue(tid, bpfkit_runq_now(p, btf));
}

/* The slot holding thread TID's queueing time; NULL: not queued while traced. */
static __always_inline __u64 *bpfkit_runq_queued_at(__u32 tid)
{
	__u64 *slot;

	if (!tid)
		return NULL;
	slot = bpfkit_runq_slot(tid);
	return slot && *slot &&
			       (*slot & ~BPFKIT_RUNQ_CLOCK_MASK) ==
				       bpfkit_runq_tag(tid) ?
		       slot :
		       NULL;
}

/*
 * PREV leaves the CPU to NEXT (sched_switch): NEXT's wait ends, and PREV's
 * begins if it is still runnable (preempted). One clock read serves both,
 * and none is taken when neither is timed (a sleeping PREV leaving the CPU
 * to the idle task or to a task not queued while we traced). True when
 * NEXT's wait, in ns, is in *WAIT; *LOST is set when another thread's wait
 * was lost for PREV's.
 */
static __always_inline bool bpfkit_runq_switched(struct task_struct *prev,
						 struct task_struct *next,
						 bool btf, __u64 *wait,
						 bool *lost)
{
	/*
	 * The run queue's clock is two loads, read first: on one path, as
	 * the verifier's checks of them cost milliseconds per path.
	 */
	__u64 now = btf ? bpfkit_runq_now(next, btf) : 0, *start, delta;
	__u32 next_tid = bpfkit_runq_field(btf, next, pid), prev_tid = 0;
	bool requeued = false;

	*lost = false;
	start = bpfkit_runq_queued_at(next_tid);
	if (bpfkit_runq_state(prev, btf) == BPFKIT_TASK_RUNNING) {
		prev_tid = bpfkit_runq_field(btf, prev, pid);
		requeued = bpfkit_runq_timed(prev, prev_tid);
	}
	if (!requeued && !start)
		return false;
	if (!btf)
		now = bpfkit_runq_now(next, btf);
	if (requeued)
		*lost = bpfkit_runq_queue(prev_tid, now);
	if (!start)
		return false;
	/*
	 * The wait, modulo 2^48 ns (three days); a task may move between run
	 * queues, whose clocks may differ: a "negative" wait counts as 0.
	 */
	delta = (now - *start) & BPFKIT_RUNQ_CLOCK_MASK;
	if (delta > BPFKIT_RUNQ_CLOCK_MASK / 2)
		delta = 0;
	*start = 0;
	*wait = delta;
	return true;
}

/*
 * The six programs of a run-queue wait tool: sched_wakeup, sched_wakeup_new
 * and sched_switch, on tp_btf (wakeup_btf, wakeup_new_btf, switch_btf) and
 * on raw_tp (wakeup_raw, ...); user space keeps one kind
 * (bpfkit_tp_btf_autoload()). They call the tool's
 *
 *	static void woken(struct task_struct *p, bool btf);
 *	static void switched(void *ctx, struct task_struct *prev,
 *			     struct task_struct *next, bool btf);
 */
#define BPFKIT_RUNQ_PROGRAMS()                                           \
	SEC("tp_btf/sched_wakeup")                                       \
	int BPF_PROG(wakeup_btf, struct task_struct *p)                  \
	{                                                                \
		woken(p, true);                                          \
		return 0;                                                \
	}                                                                \
	SEC("tp_btf/sched_wakeup_new")                                   \
	int BPF_PROG(wakeup_new_btf, struct task_struct *p)              \
	{                                                                \
		woken(p, true);                                          \
		return 0;                                                \
	}                                                                \
	SEC("tp_btf/sched_switch")                                       \
	int BPF_PROG(switch_btf, bool preempt, struct task_struct *prev, \
		     struct task_struct *next)                           \
	{                                                                \
		switched(ctx, prev, next, true);                         \
		return 0;                                                \
	}                                                                \
	SEC("raw_tp/sched_wakeup")                                       \
	int BPF_PROG(wakeup_raw, struct task_struct *p)                  \
	{                                                                \
		woken(p, false);                                         \
		return 0;                                                \
	}                                                                \
	SEC("raw_tp/sched_wakeup_new")                                   \
	int BPF_PROG(wakeup_new_raw, struct task_struct *p)              \
	{                                                                \
		woken(p, false);                                         \
		return 0;                                                \
	}                                                                \
	SEC("raw_tp/sched_switch")                                       \
	int BPF_PROG(switch_raw, bool preempt, struct task_struct *prev, \
		     struct task_struct *next)                           \
	{                                                                \
		switched(ctx, prev, next, false);                        \
		return 0;                                                \
	}

#endif /* BPFKIT_RUNQ_BPF_H */
