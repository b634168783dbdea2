// SPDX-License-Identifier: GPL-2.0
/*
 * oomkill: send every OOM kill from oom:mark_victim. Newer kernels' event
 * carries the victim's comm, uid, memory and oom_score_adj; older ones'
 * the pid alone (bpfkit_mark_victim_full()), so there the rest is read
 * from the victim's task: the one the OOM killer has just sent SIGKILL
 * (signal:signal_generate, just before mark_victim in
 * __oom_kill_process), or the current task when it is the victim itself.
 * The common filters (-p, -u, -c, --cgroup) select by the task that ran
 * the OOM killer.
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "bpfkit/channel.bpf.h"
#include "bpfkit/core_fixes.bpf.h"
#include "bpfkit/filter.bpf.h"
#include "oomkill.h"

char LICENSE[] SEC("license") = "GPL";

#define SIGKILL 9
/* The kernel's SEND_SIG_PRIV: a signal the kernel itself sends. */
#define SEND_SIG_PRIV ((struct kernel_siginfo *)1)

/* log2(page size / 1 KiB), set by user space: pages to kB. */
const volatile __u32 page_kb_shift = 2;

/*
 * The last kernel SIGKILL sent on each CPU: by which thread, to which task.
 * A per-CPU slot takes no lock, as a program on signal_generate must not:
 * it runs under the target's siglock, from any context.
 */
struct killed {
	__u32 tid;
	struct task_struct *task;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct killed);
} oomkill_killed SEC(".maps");

SEC("raw_tp/signal_generate")
int BPF_PROG(signal_generate, int sig, struct kernel_siginfo *info,
	     struct task_struct *task)
{
	struct killed *k;
	__u32 zero = 0;

	if (sig != SIGKILL || info != SEND_SIG_PRIV)
		return 0;
	k = bpf_map_lookup_elem(&oomkill_killed, &zero);
	if (k) {
		k->tid = bpf_get_current_pid_tgid();
		k->task = task;
	}
	return 0;
}

/* Fill E with the victim's fields, read from its TASK. */
static __always_inline void fill_from_task(struct oomkill_event *e,
					   struct task_struct *task)
{
	struct mm_struct *mm = BPF_CORE_READ(task, mm);

	e->known |= OOMKILL_FROM_TASK;
	BPF_CORE_READ_STR_INTO(&e->comm, task, comm);
	e->uid = BPF_CORE_READ(task, cred, uid.val);
	e->oom_score_adj = BPF_CORE_READ(task, signal, oom_score_adj);
	e->known |= OOMKILL_COMM | OOMKILL_UID | OOMKILL_ADJ;
	if (!mm)
		return;
	e->total_vm_kb = BPF_CORE_READ(mm, total_vm) << page_kb_shift;
	e->anon_rss_kb = bpfkit_mm_counter(mm, MM_ANONPAGES) << page_kb_shift;
	e->file_rss_kb = bpfkit_mm_counter(mm, MM_FILEPAGES) << page_kb_shift;
	e->shmem_rss_kb = bpfkit_mm_counter(mm, MM_SHMEMPAGES) << page_kb_shift;
	e->known |= OOMKILL_MEM;
}

/* The victim's task, if this thread just killed it or is it; else NULL. */
static __always_inline struct task_struct *victim_task(__u32 pid)
{
	struct task_struct *task = (void *)bpf_get_current_task(), *killed;
	__u32 tid = bpf_get_current_pid_tgid(), zero = 0;
	struct killed *k;

	k = bpf_map_lookup_elem(&oomkill_killed, &zero);
	killed = k && k->tid == tid ? k->task : NULL;
	if (killed && BPF_CORE_READ(killed, pid) == pid)
		task = killed;
	return BPF_CORE_READ(task, pid) == pid ? task : NULL;
}

/* The record: vmlinux.h's type, each field's offset relocated by CO-RE. */
SEC("tracepoint/oom/mark_victim")
int mark_victim(struct trace_event_raw_mark_victim *ctx)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	struct oomkill_event e = {};
	struct task_struct *task;
	__u32 loc;

	if (!bpfkit_selected())
		return 0;
	e.pid = ctx->pid;
	e.trigger_pid = pid_tgid >> 32;
	e.trigger_tid = pid_tgid;
	bpf_get_current_comm(e.trigger_comm, sizeof(e.trigger_comm));

	if (bpfkit_mark_victim_full()) {
		/* comm is a __data_loc: its length << 16 | its offset. */
		loc = ctx->__data_loc_comm;
		bpf_probe_read_kernel_str(e.comm, sizeof(e.comm),
					  (void *)ctx + (loc & 0xffff));
		e.uid = ctx->uid;
		e.total_vm_kb = ctx->total_vm;
		e.anon_rss_kb = ctx->anon_rss;
		e.file_rss_kb = ctx->file_rss;
		e.shmem_rss_kb = ctx->shmem_rss;
		e.oom_score_adj = ctx->oom_score_adj;
		e.known = OOMKILL_ALL;
	} else {
		/* The rest from the victim's task, when we know which. */
		task = victim_task(e.pid);
		if (task)
			fill_from_task(&e, task);
	}
	bpfkit_emit(ctx, &e.rec, sizeof(e));
	return 0;
}
