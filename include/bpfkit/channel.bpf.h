/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The BPF side of the event channel, included by every BPF object that
 * sends events (one that only filters includes bpfkit/filter.bpf.h alone).
 *
 * A tool calls bpfkit_emit() to send a record. Both transports are compiled
 * in; user space picks one at load time by setting bpfkit_channel_cfg.ringbuf
 * and retyping the unused maps, and the verifier prunes the branch not taken.
 */
#ifndef BPFKIT_CHANNEL_BPF_H
#define BPFKIT_CHANNEL_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include "bpfkit/channel.h"
#include "bpfkit/core_fixes.bpf.h"

const volatile struct bpfkit_channel_cfg bpfkit_channel_cfg = {
	.wakeup = 1,
};

struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} bpfkit_perf SEC(".maps");

/*
 * The perf transport's doorbells: one small perf buffer per CPU that wakes
 * the reader at every record. bpfkit_emit() rings it only when the reader
 * was last woken longer than wakeup_budget_ns ago.
 */
struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} bpfkit_doorbell SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 256 * 1024);
} bpfkit_ring SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct bpfkit_stats);
} bpfkit_stats SEC(".maps");

/* Overload control: bpfkit_admit(), which counts in bpfkit_stats. */
#include "bpfkit/overload.bpf.h"

/* When the reader was last woken through one buffer, and what is pending. */
struct bpfkit_wakeups {
	__u64 woken_ns; /* bpf_ktime_get_ns() of the last wakeup */
	__u64 pending; /* perf: records written since the kernel last woke */
	__u64 bytes; /* perf: bytes written since the reader was last woken */
};

/* Per CPU, as the perf buffers are. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct bpfkit_wakeups);
} bpfkit_wakeups SEC(".maps");

/* The ring buffer is one for all CPUs, and so is its last wakeup. */
__u64 bpfkit_ring_woken_ns;

static __always_inline long bpfkit_emit_ring(const void *data, __u64 size,
					     __u64 now)
{
	__u64 pending = bpf_ringbuf_query(&bpfkit_ring, BPF_RB_AVAIL_DATA);
	__u64 flags = BPF_RB_NO_WAKEUP;

	if (pending + size >= bpfkit_channel_cfg.wakeup * size ||
	    pending >= bpfkit_channel_cfg.wakeup_bytes ||
	    now - bpfkit_ring_woken_ns >= bpfkit_channel_cfg.wakeup_budget_ns) {
		flags = BPF_RB_FORCE_WAKEUP;
		bpfkit_ring_woken_ns = now;
	}
	return bpf_ringbuf_output(&bpfkit_ring, (void *)data, size, flags);
}

static __always_inline long bpfkit_emit_perf(void *ctx, const void *data,
					     __u64 size, __u64 now)
{
	struct bpfkit_wakeups *w;
	__u32 zero = 0;
	long err;

	err = bpf_perf_event_output(ctx, &bpfkit_perf, BPF_F_CURRENT_CPU,
				    (void *)data, size);
	w = bpf_map_lookup_elem(&bpfkit_wakeups, &zero);
	if (err || !w)
		return err;
	/*
	 * The kernel itself wakes the reader at every wakeup-th record; the
	 * doorbell does when half the buffer is pending first (big records)
	 * or when the reader was last woken long ago (a lone record).
	 */
	w->bytes += size;
	if (++w->pending >= bpfkit_channel_cfg.wakeup) {
		w->pending = 0;
		w->bytes = 0;
		w->woken_ns = now;
	} else if (w->bytes >= bpfkit_channel_cfg.wakeup_bytes ||
		   now - w->woken_ns >= bpfkit_channel_cfg.wakeup_budget_ns) {
		w->bytes = 0;
		w->woken_ns = now;
		bpf_perf_event_output(ctx, &bpfkit_doorbell, BPF_F_CURRENT_CPU,
				      &now, sizeof(now));
	}
	return 0;
}

/* The initial pid namespace's inode number (PROC_PID_INIT_INO, since 3.8). */
#define BPFKIT_PROC_PID_INIT_INO 0xEFFFFFFCU

/*
 * The process id of task T as its own pid namespace sees it (what getpid()
 * returns in T: its group leader's pid->numbers[pid->level]), and that
 * namespace's inode number in *NS; PID is the leader's struct pid.
 */
static __always_inline __u32 bpfkit_pid_nr(const struct pid *pid,
					   unsigned int level, __u32 *ns)
{
	struct upid upid = {};

	bpf_core_read(&upid, sizeof(upid), &pid->numbers[level & 31]);
	*ns = BPF_CORE_READ(upid.ns, ns.inum);
	return upid.nr;
}

/*
 * Stamp REC with task T's mount and pid namespaces and its process id in
 * its own pid namespace. BTF: T is a pointer the verifier trusts
 * (bpf_get_current_task_btf(), a tp_btf argument), read by plain loads, no
 * helper; else T is read by bpf_probe_read_kernel().
 */
static __always_inline void bpfkit_record_ns(struct bpfkit_record *rec,
					     const struct task_struct *task,
					     bool btf)
{
	struct pid *pid;

	rec->reserved = 0;
	if (btf) {
		rec->mntns = task->nsproxy->mnt_ns->ns.inum;
		/*
		 * A process's threads share its pid namespace, for good: in
		 * the initial one (level 0) its pid is the tgid and the
		 * namespace's inode a constant; no helper, two loads fewer.
		 */
		if (!task->thread_pid->level) {
			rec->pidns_pid = task->tgid;
			rec->pidns = BPFKIT_PROC_PID_INIT_INO;
			return;
		}
		pid = task->group_leader->thread_pid;
		rec->pidns_pid = bpfkit_pid_nr(pid, pid->level, &rec->pidns);
		return;
	}
	rec->mntns = BPF_CORE_READ(task, nsproxy, mnt_ns, ns.inum);
	pid = BPF_CORE_READ(task, group_leader, thread_pid);
	rec->pidns_pid =
		bpfkit_pid_nr(pid, BPF_CORE_READ(pid, level), &rec->pidns);
}

/*
 * Stamp REC with task T's ids, for a record about a task other than the
 * current one (the one a sched_switch runs): its cgroup v2 id, its
 * namespaces and its pid in its pid namespace; BTF as bpfkit_record_ns().
 * Send it with bpfkit_emit_stamped().
 */
static __always_inline void
bpfkit_record_task_of(struct bpfkit_record *rec, const struct task_struct *task,
		      bool btf)
{
	rec->cgroup_id = btf ? task->cgroups->dfl_cgrp->kn->id :
			       BPF_CORE_READ(task, cgroups, dfl_cgrp, kn, id);
	bpfkit_record_ns(rec, task, btf);
}

/*
 * Stamp REC with the current task's ids (for containers): bpfkit_emit()
 * does for every record; a tool that sends a record later, from another
 * task (a softirq), stamps it here while the task it is about runs, keeps
 * it, and sends it with bpfkit_emit_stamped().
 */
static __always_inline void bpfkit_record_task(struct bpfkit_record *rec)
{
	if (bpfkit_has_task_btf()) {
		bpfkit_record_task_of(rec, bpf_get_current_task_btf(), true);
		return;
	}
	/* One helper call for the cgroup, not four reads. */
	rec->cgroup_id = bpf_get_current_cgroup_id();
	bpfkit_record_ns(rec, (struct task_struct *)bpf_get_current_task(),
			 false);
}

/* bpfkit_emit(), which stamps REC's task ids when STAMP_TASK. */
static __always_inline long bpfkit_send(void *ctx, struct bpfkit_record *rec,
					__u64 size, bool stamp_task)
{
	struct bpfkit_stats *stats;
	__u32 zero = 0;
	long err;

	stats = bpf_map_lookup_elem(&bpfkit_stats, &zero);
	if (!stats)
		return -1;
	__sync_fetch_and_add(&stats->produced, 1);
	if (!bpfkit_admit(stats, false))
		return 0;

	rec->ktime_ns = bpf_ktime_get_ns();
	if (stamp_task)
		bpfkit_record_task(rec);
	if (bpfkit_channel_cfg.ringbuf)
		err = bpfkit_emit_ring(rec, size, rec->ktime_ns);
	else
		err = bpfkit_emit_perf(ctx, rec, size, rec->ktime_ns);
	if (err)
		__sync_fetch_and_add(&stats->dropped, 1);
	return err;
}

/*
 * Send one record to user space, stamped with the kernel's monotonic clock
 * (bpf_ktime_get_ns()) and the current task's ids (bpfkit_record_task())
 * in its header, REC: the first member of every record.
 * Every attempt is counted as produced and every failure as dropped, so user
 * space can account for each record. Wakeups are batched: the reader is
 * woken once bpfkit_channel_cfg.wakeup records are pending, or at once when
 * it was last woken longer than wakeup_budget_ns ago (so a lone record is
 * not kept waiting), and flushes whatever is left on its poll timeout.
 * An event bpfkit_admit() turns away (--sample, --rate-limit) is counted
 * produced and sampled or throttled, and returns 0 unsent.
 */
static __always_inline long bpfkit_emit(void *ctx, struct bpfkit_record *rec,
					__u64 size)
{
	return bpfkit_send(ctx, rec, size, true);
}

/*
 * bpfkit_emit() for a record about another task than the current one: REC
 * holds that task's ids already (bpfkit_record_task() while it ran, or
 * bpfkit_record_task_of()), all zero when it is not known (user space
 * shows such a task as unknown, not as the host's); only the time is
 * stamped.
 */
static __always_inline long
bpfkit_emit_stamped(void *ctx, struct bpfkit_record *rec, __u64 size)
{
	return bpfkit_send(ctx, rec, size, false);
}

/* Why an event was given up before it reached bpfkit_emit(). */
enum bpfkit_drop_reason {
	BPFKIT_STAGING_FULL, /* a map update failed: full, or no memory */
	BPFKIT_READ_FAILED, /* a lookup that should find its entry did not */
};

/*
 * Count an event the BPF side gives up on the way to the channel, say when
 * its staging map is full: it is produced and lost, so that user space
 * accounts for it like a record that found no room.
 */
static __always_inline void bpfkit_drop(enum bpfkit_drop_reason reason)
{
	struct bpfkit_stats *stats;
	__u32 zero = 0;

	stats = bpf_map_lookup_elem(&bpfkit_stats, &zero);
	if (!stats)
		return;
	__sync_fetch_and_add(&stats->produced, 1);
	if (reason == BPFKIT_STAGING_FULL)
		__sync_fetch_and_add(&stats->staging_full, 1);
	else
		__sync_fetch_and_add(&stats->read_failed, 1);
}

#endif /* BPFKIT_CHANNEL_BPF_H */
