// SPDX-License-Identifier: GPL-2.0
/*
 * oomkill: send every OOM kill from oom:mark_victim. Newer kernels' event
 * carries the victim's comm, uid, memory and oom_score_adj; older ones'
 * (such as 6.1) the pid alone, so what the event lacks (its format file
 * tells) is read from the victim's task: the one the OOM
 * killer has just sent SIGKILL (signal:signal_generate, just before
 * mark_victim in __oom_kill_process), or the current task when it is the
 * victim itself. The common filters (-p, -u, -c, --cgroup) select by the
 * task that ran the OOM killer.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "bpfkit/channel.bpf.h"
#include "bpfkit/filter.bpf.h"
#include "bpfkit/layout.bpf.h"
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

/* Where the victim's task and mm hold what the record may lack. */
const volatile struct oomkill_layout layout;
/* Where this kernel's record holds each field; BPFKIT_ABSENT: not there. */
const volatile struct oomkill_record record;

/* The victim's page counter ITEM (MM_ANONPAGES...), in pages. */
static __always_inline __u64 rss_pages(const void *mm, int item)
{
	const void *stat = mm + layout.mm_struct_rss_stat;
	__s64 pages;

	if (layout.mm_rss_stat_count != BPFKIT_ABSENT)
		pages = bpfkit_read_u64(stat,
					layout.mm_rss_stat_count + item * 8);
	else
		pages = bpfkit_read_u64(stat,
					item * layout.percpu_counter_sizeof +
						layout.percpu_counter_count);
	return pages > 0 ? pages : 0;
}

/* Fill what E does not know yet from the victim's TASK. */
static __always_inline void fill_from_task(struct oomkill_event *e,
					   const void *task)
{
	const void *mm = bpfkit_read_ptr(task, layout.task_struct_mm);
	const void *cred, *signal;

	e->known |= OOMKILL_FROM_TASK;
	if (!(e->known & OOMKILL_COMM)) {
		bpf_probe_read_kernel_str(e->comm, sizeof(e->comm),
					  task + layout.task_struct_comm);
		e->known |= OOMKILL_COMM;
	}
	if (!(e->known & OOMKILL_UID)) {
		cred = bpfkit_read_ptr(task, layout.task_struct_cred);
		e->uid = bpfkit_read_s32(cred, layout.cred_uid);
		e->known |= OOMKILL_UID;
	}
	if (!(e->known & OOMKILL_ADJ)) {
		signal = bpfkit_read_ptr(task, layout.task_struct_signal);
		e->oom_score_adj = (__s16)bpfkit_read_u16(
			signal, layout.signal_struct_oom_score_adj);
		e->known |= OOMKILL_ADJ;
	}
	if (!(e->known & OOMKILL_MEM) && mm) {
		e->total_vm_kb = bpfkit_read_u64(mm, layout.mm_struct_total_vm)
				 << page_kb_shift;
		e->anon_rss_kb = rss_pages(mm, MM_ANONPAGES) << page_kb_shift;
		e->file_rss_kb = rss_pages(mm, MM_FILEPAGES) << page_kb_shift;
		e->shmem_rss_kb = rss_pages(mm, MM_SHMEMPAGES) << page_kb_shift;
		e->known |= OOMKILL_MEM;
	}
}

/* The victim's task, if this thread just killed it or is it; else NULL. */
static __always_inline const void *victim_task(__u32 pid)
{
	const void *task = (void *)bpf_get_current_task(), *killed;
	__u32 tid = bpf_get_current_pid_tgid(), zero = 0;
	struct killed *k;

	k = bpf_map_lookup_elem(&oomkill_killed, &zero);
	killed = k && k->tid == tid ? k->task : NULL;
	if (killed && bpfkit_read_s32(killed, layout.task_struct_pid) == pid)
		task = killed;
	return bpfkit_read_s32(task, layout.task_struct_pid) == pid ? task :
								      NULL;
}

SEC("tracepoint/oom/mark_victim")
int mark_victim(void *ctx)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	struct oomkill_event e = {};
	const void *task;
	__u32 loc;

	if (!bpfkit_selected())
		return 0;
	e.pid = bpfkit_read_s32(ctx, record.pid);
	e.trigger_pid = pid_tgid >> 32;
	e.trigger_tid = pid_tgid;
	bpf_get_current_comm(e.trigger_comm, sizeof(e.trigger_comm));

	/* What this kernel's record carries. */
	if (record.comm != BPFKIT_ABSENT) {
		loc = bpfkit_read_s32(ctx, record.comm);
		bpf_probe_read_kernel_str(e.comm, sizeof(e.comm),
					  ctx + (loc & 0xffff));
		e.known |= OOMKILL_COMM;
	}
	if (record.uid != BPFKIT_ABSENT) {
		e.uid = bpfkit_read_s32(ctx, record.uid);
		e.known |= OOMKILL_UID;
	}
	if (record.total_vm != BPFKIT_ABSENT) {
		e.total_vm_kb = bpfkit_read_u64(ctx, record.total_vm);
		e.anon_rss_kb = bpfkit_read_u64(ctx, record.anon_rss);
		e.file_rss_kb = bpfkit_read_u64(ctx, record.file_rss);
		e.shmem_rss_kb = bpfkit_read_u64(ctx, record.shmem_rss);
		e.known |= OOMKILL_MEM;
	}
	if (record.oom_score_adj != BPFKIT_ABSENT) {
		e.oom_score_adj =
			(__s16)bpfkit_read_u16(ctx, record.oom_score_adj);
		e.known |= OOMKILL_ADJ;
	}

	/* The rest from the victim's task, when we know which it is. */
	if (e.known != OOMKILL_ALL) {
		task = victim_task(e.pid);
		if (task)
			fill_from_task(&e, task);
	}
	bpfkit_emit(ctx, &e.rec, sizeof(e));
	return 0;
}
