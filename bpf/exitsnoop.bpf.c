// SPDX-License-Identifier: GPL-2.0
/*
 * exitsnoop: on every task exit, send its exit status and lifetime; by
 * default only when the last thread of a process exits.
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include "bpfkit/channel.bpf.h"
#include "bpfkit/filter.bpf.h"
#include "exitsnoop.h"

char LICENSE[] SEC("license") = "GPL";

const volatile bool threads = false;
const volatile bool failed_only = false;

/* vmlinux.h has no errno names. */
#define EEXIST 17

/* SIGNAL_GROUP_EXIT in signal_struct.flags: exit_group() or a fatal signal. */
#define GROUP_EXIT 0x4

/* A process: its pid and its first thread's start time (pids are reused). */
struct process_key {
	__u64 pid; /* no padding: the whole key is hashed */
	__u64 start;
};

/*
 * Processes already reported. Threads that exit together can all find
 * signal->live at zero: the first of them reports the process, the others
 * find it here. Old entries need no removal: the LRU map drops them.
 */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 4096);
	__type(key, struct process_key);
	__type(value, __u8);
} exitsnoop_reported SEC(".maps");

/*
 * True the first time this is asked for the process pid started at start.
 * When the map refuses the entry (not for being there already), the
 * process cannot be reported once only: it is counted lost.
 */
static __always_inline bool first_report(__u32 pid, __u64 start)
{
	struct process_key key = { .pid = pid, .start = start };
	__u8 one = 1;
	long err;

	err = bpf_map_update_elem(&exitsnoop_reported, &key, &one, BPF_NOEXIST);
	if (err && err != -EEXIST)
		bpfkit_drop(BPFKIT_STAGING_FULL);
	return !err;
}

SEC("tracepoint/sched/sched_process_exit")
int process_exit(void *ctx)
{
	struct task_struct *task = (struct task_struct *)bpf_get_current_task();
	struct signal_struct *signal = BPF_CORE_READ(task, signal);
	__u64 id = bpf_get_current_pid_tgid();
	struct exitsnoop_event e = {};
	__u64 start;
	int live;

	/* The exiting thread has already left signal->live. */
	live = BPF_CORE_READ(signal, live.counter);
	if (!threads && live > 0)
		return 0;
	/* A group exit's status is the process's, whichever thread this is. */
	if (!threads && (BPF_CORE_READ(signal, flags) & GROUP_EXIT))
		e.exit_code = BPF_CORE_READ(signal, group_exit_code);
	else
		e.exit_code = BPF_CORE_READ(task, exit_code);
	if (failed_only && !e.exit_code)
		return 0;
	if (!bpfkit_selected())
		return 0;

	/* A process lives as long as its first thread; a thread, its own. */
	start = threads ? BPF_CORE_READ(task, start_time) :
			  BPF_CORE_READ(task, group_leader, start_time);
	if (!threads && !first_report(id >> 32, start))
		return 0;
	e.age_ns = bpf_ktime_get_ns() - start;
	e.pid = id >> 32;
	e.tid = (__u32)id;
	e.ppid = BPF_CORE_READ(task, real_parent, tgid);
	e.uid = (__u32)bpf_get_current_uid_gid();
	e.threads_left = live;
	bpf_get_current_comm(e.comm, sizeof(e.comm));

	bpfkit_emit(ctx, &e.rec, sizeof(e));
	return 0;
}
