// SPDX-License-Identifier: GPL-2.0
/*
 * syscount: count syscalls at their exit, per syscall number or per
 * process, and with -L the time between entry and exit.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include "bpfkit/filter.bpf.h"
#include "syscount.h"

char LICENSE[] SEC("license") = "GPL";

const volatile bool per_process; /* -P: key by pid, not syscall */
const volatile bool latency; /* -L: sys_enter records start times */
const volatile bool failed_only; /* -x: ret < 0 only */
const volatile int only_errno; /* -e: ret == -only_errno only; 0: any */
const volatile long only_nr = -1; /* -s: this syscall only; -1: all */
/* SYSCOUNT_NO_RETURN and SYSCOUNT_FORK, by syscall number. */
const volatile __u8 syscount_kind[SYSCOUNT_MAX_NR];

/* Counts that found the map full. */
__u64 syscount_missed;
/* With -L, selected syscalls that returned without a start time. */
__u64 syscount_untimed;

/*
 * Start times by thread. A thread that execs from a non-leader changes its
 * id, leaving its entry behind: least recently used entries make room.
 */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 65536);
	__type(key, __u32);
	__type(value, __u64);
} syscount_start SEC(".maps");

/*
 * Counts per key and CPU; allocated as keys come where the kernel allows
 * it (user space decides: bpfkit_sparse_map()), as preallocating its
 * SYSCOUNT_MAX_KEYS per-CPU slots took most of the start-up's CPU time.
 */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, SYSCOUNT_MAX_KEYS);
	__type(key, __u32);
	__type(value, struct syscount_val);
} syscount_counts SEC(".maps");

static __always_inline __u8 kind(long nr)
{
	return nr >= 0 && nr < SYSCOUNT_MAX_NR ? syscount_kind[nr] : 0;
}

/*
 * raw_syscalls' records are vmlinux.h's trace_event_raw_sys_enter and
 * _exit (a long id), not the syscalls:* tracepoints' syscall_trace_enter
 * (an int nr): each read relocated by CO-RE.
 */
SEC("tracepoint/raw_syscalls/sys_enter")
int sys_enter(struct trace_event_raw_sys_enter *ctx)
{
	__u32 tid = bpf_get_current_pid_tgid();
	long id = ctx->id;
	__u64 ts;

	if ((only_nr >= 0 && id != only_nr) ||
	    (kind(id) & SYSCOUNT_NO_RETURN) || !bpfkit_selected())
		return 0;
	ts = bpf_ktime_get_ns();
	bpf_map_update_elem(&syscount_start, &tid, &ts, BPF_ANY);
	return 0;
}

SEC("tracepoint/raw_syscalls/sys_exit")
int sys_exit(struct trace_event_raw_sys_exit *ctx)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	struct syscount_val *v, zero = {};
	long id = ctx->id, ret = ctx->ret;
	__u32 tid = pid_tgid, key;
	__u64 *start, delta = 0;
	bool untimed = false;

	if (id < 0 || (only_nr >= 0 && id != only_nr))
		return 0;
	/*
	 * With -L, the entry was selected; time calls seen entering. Others
	 * (entered before we attached, or evicted) are counted as untimed,
	 * except a new task's return from fork, which is no call of its own.
	 */
	if (latency) {
		start = bpf_map_lookup_elem(&syscount_start, &tid);
		if (start) {
			delta = bpf_ktime_get_ns() - *start;
			bpf_map_delete_elem(&syscount_start, &tid);
		} else if ((!ret && (kind(id) & SYSCOUNT_FORK)) ||
			   !bpfkit_selected()) {
			return 0;
		} else {
			untimed = true;
		}
	} else if (!bpfkit_selected()) {
		return 0;
	}
	if ((failed_only && ret >= 0) || (only_errno && ret != -only_errno))
		return 0;
	if (untimed) {
		__sync_fetch_and_add(&syscount_untimed, 1);
		return 0;
	}

	/* Add to this CPU's slot, creating it on first use. */
	key = per_process ? pid_tgid >> 32 : id;
	v = bpf_map_lookup_elem(&syscount_counts, &key);
	if (!v) {
		if (per_process)
			bpf_get_current_comm(zero.comm, sizeof(zero.comm));
		bpf_map_update_elem(&syscount_counts, &key, &zero, BPF_NOEXIST);
		v = bpf_map_lookup_elem(&syscount_counts, &key);
		if (!v) {
			__sync_fetch_and_add(&syscount_missed, 1);
			return 0;
		}
	}
	v->count++;
	v->total_ns += delta;
	return 0;
}
