// SPDX-License-Identifier: GPL-2.0
/*
 * runqlat: the time tasks wait on a run queue, from their wakeup (or their
 * preemption) to the switch that runs them, in a histogram.
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "bpfkit/core_fixes.bpf.h"
#include "bpfkit/filter.bpf.h"
#include "bpfkit/histogram.bpf.h"
#include "runqlat.h"

char LICENSE[] SEC("license") = "GPL";

#define TASK_RUNNING 0

/*
 * When each queued thread was queued: one 8-byte word per slot, found by
 * the low bits of the thread's id, holding its other bits (plus one: 0 is
 * an empty slot) above the low 48 bits of the clock. A plain array lookup
 * the verifier inlines, on both program kinds: no helper call per event.
 * Two threads queued at once in one slot (ids RUNQLAT_SLOTS apart) are
 * possible only where pid_max exceeds RUNQLAT_SLOTS; the one overwritten
 * is counted as missed.
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, RUNQLAT_SLOTS);
	__type(key, __u32);
	__type(value, __u64);
} runqlat_queued SEC(".maps");

#define CLOCK_BITS 48
#define CLOCK_MASK ((1ULL << CLOCK_BITS) - 1)

/* The tag a slot holds for thread TID: its id's high bits, plus one. */
static __always_inline __u64 tid_tag(__u32 tid)
{
	return ((__u64)(tid / RUNQLAT_SLOTS) + 1) << CLOCK_BITS;
}

/* Thread TID's slot; never NULL (the index is in range). */
static __always_inline __u64 *slot_of(__u32 tid)
{
	__u32 i = tid % RUNQLAT_SLOTS;

	return bpf_map_lookup_elem(&runqlat_queued, &i);
}

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, BPFKIT_HIST_MAX_KEYS);
	__type(key, __u32);
	__type(value, struct bpfkit_hist);
} runqlat_hists SEC(".maps");

/*
 * A field of task T: a plain load where the verifier trusts T (tp_btf), a
 * bpf_probe_read_kernel() call where it does not (raw_tp). BTF is a
 * constant in every caller, so each program keeps one of the two.
 */
#define task_field(btf, t, field) ((btf) ? (t)->field : BPF_CORE_READ(t, field))

/* Task T's state (__state, or state before Linux 5.14), the same two ways. */
static __always_inline unsigned long task_state(struct task_struct *t, bool btf)
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
static __always_inline __u64 now_for(struct task_struct *p, bool btf)
{
	if (btf && bpf_core_field_exists(p->se.cfs_rq))
		return p->se.cfs_rq->rq->clock;
	return bpf_ktime_get_ns();
}

/*
 * Keep NOW as the time thread TID was queued. A slot holding another
 * thread's time loses it: that thread's wait is counted as missed.
 */
static __always_inline void queued(__u32 tid, __u64 now)
{
	__u64 *slot = slot_of(tid), tag = tid_tag(tid);

	if (!slot)
		return;
	if (*slot && (*slot & ~CLOCK_MASK) != tag)
		bpfkit_hist_miss();
	*slot = tag | (now & CLOCK_MASK);
}

/* Whether task P, of thread id TID, is one to time (the idle task never is). */
static __always_inline bool timed(struct task_struct *p, __u32 tid)
{
	return tid && bpfkit_task_selected(p);
}

/* Task P is woken: it waits from now on. */
static __always_inline void woken(struct task_struct *p, bool btf)
{
	__u32 tid = task_field(btf, p, pid);

	if (timed(p, tid))
		queued(tid, now_for(p, btf));
}

/* The slot holding thread TID's queueing time; NULL: not queued while traced. */
static __always_inline __u64 *queued_at(__u32 tid)
{
	__u64 *slot;

	if (!tid)
		return NULL;
	slot = slot_of(tid);
	return slot && *slot && (*slot & ~CLOCK_MASK) == tid_tag(tid) ? slot :
									NULL;
}

/*
 * PREV leaves the CPU to NEXT: NEXT's wait ends, and PREV's begins if it
 * is still runnable (preempted). One clock read serves both, and none is
 * taken when neither is timed (a sleeping PREV leaving the CPU to the idle
 * task or to a task not queued while we traced).
 */
static __always_inline void switched(struct task_struct *prev,
				     struct task_struct *next, bool btf)
{
	/*
	 * The run queue's clock is two loads, read first: on one path, as
	 * the verifier's checks of them cost milliseconds per path.
	 */
	__u64 now = btf ? now_for(next, btf) : 0, *start, delta;
	__u32 next_tid = task_field(btf, next, pid), prev_tid = 0;
	bool requeued = false;

	start = queued_at(next_tid);
	if (task_state(prev, btf) == TASK_RUNNING) {
		prev_tid = task_field(btf, prev, pid);
		requeued = timed(prev, prev_tid);
	}
	if (!requeued && !start)
		return;
	if (!btf)
		now = now_for(next, btf);
	if (requeued)
		queued(prev_tid, now);
	if (!start)
		return;
	/*
	 * The wait, modulo 2^48 ns (three days); a task may move between run
	 * queues, whose clocks may differ: a "negative" wait counts as 0.
	 */
	delta = (now - *start) & CLOCK_MASK;
	if (delta > CLOCK_MASK / 2)
		delta = 0;
	*start = 0;
	bpfkit_hist_add_task(&runqlat_hists, next, delta);
}

/* tp_btf programs, where the kernel has them (user space chooses). */
SEC("tp_btf/sched_wakeup")
int BPF_PROG(wakeup_btf, struct task_struct *p)
{
	woken(p, true);
	return 0;
}

SEC("tp_btf/sched_wakeup_new")
int BPF_PROG(wakeup_new_btf, struct task_struct *p)
{
	woken(p, true);
	return 0;
}

SEC("tp_btf/sched_switch")
int BPF_PROG(switch_btf, bool preempt, struct task_struct *prev,
	     struct task_struct *next)
{
	switched(prev, next, true);
	return 0;
}

/* The same on raw tracepoints. */
SEC("raw_tp/sched_wakeup")
int BPF_PROG(wakeup_raw, struct task_struct *p)
{
	woken(p, false);
	return 0;
}

SEC("raw_tp/sched_wakeup_new")
int BPF_PROG(wakeup_new_raw, struct task_struct *p)
{
	woken(p, false);
	return 0;
}

SEC("raw_tp/sched_switch")
int BPF_PROG(switch_raw, bool preempt, struct task_struct *prev,
	     struct task_struct *next)
{
	switched(prev, next, false);
	return 0;
}
