/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel differences the BPF side meets, in one place, each read the
 * CO-RE way (type flavours, bpf_core_field_exists(), ...) and named with
 * the kernel version that changed it. libbpf resolves every check below at
 * load, against the running kernel's BTF: the branch not taken is dead
 * code the verifier never sees.
 */
#ifndef BPFKIT_CORE_FIXES_BPF_H
#define BPFKIT_CORE_FIXES_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_core_read.h>

/*
 * The syscall and snoop tools' differences.
 *
 * mm_struct's rss_stat: a struct mm_rss_stat of atomic_long_t counts
 * before Linux 6.2, an array of struct percpu_counter since (vmlinux.h's).
 */
struct mm_rss_stat___o {
	atomic_long_t count[NR_MM_COUNTERS];
} __attribute__((preserve_access_index));

struct mm_struct___o {
	struct mm_rss_stat___o rss_stat;
} __attribute__((preserve_access_index));

/*
 * The pages counter ITEM of mm_struct MM holds (MM_FILEPAGES,
 * MM_ANONPAGES, MM_SHMEMPAGES: the same numbers since Linux 4.5), as
 * get_mm_counter() reads it: a percpu_counter's shared count, not summed
 * over the CPUs. A macro: CO-RE relocates an array index only when it is
 * a constant.
 */
#define bpfkit_mm_counter(mm, item)                                       \
	({                                                                \
		long n_;                                                  \
                                                                          \
		if (bpf_core_type_exists(struct mm_rss_stat___o))         \
			n_ = BPF_CORE_READ((struct mm_struct___o *)(mm),  \
					   rss_stat.count[item].counter); \
		else                                                      \
			n_ = BPF_CORE_READ((struct mm_struct *)(mm),      \
					   rss_stat[item].count);         \
		n_ > 0 ? n_ : 0;                                          \
	})

/*
 * oom:mark_victim's record: the victim's pid alone before Linux 6.9,
 * which added its comm, uid, memory (total_vm and the rss counts) and
 * oom_score_adj, all at once (backported to stable kernels: 5.4, 5.15,
 * 6.1 and 6.6 have it in their later releases).
 */
static __always_inline bool bpfkit_mark_victim_full(void)
{
	return bpf_core_field_exists(struct trace_event_raw_mark_victim,
				     __data_loc_comm);
}

/*
 * A program on syscalls:sys_enter_NAME gets struct syscall_tp_t, not the
 * event's record: before Linux 6.6 it began with the registers' address
 * and the number as an unsigned long, where syscall_trace_enter (its
 * layout since) has the common header and an int. The arguments are at
 * the same offset in both, and so is the number where the common header
 * is 8 bytes; not on PREEMPT_RT kernels (Debian 12's 6.1-rt), whose
 * header is longer. The syscall's number, on either.
 */
struct syscall_tp_t___o {
	unsigned long long regs;
	unsigned long syscall_nr;
} __attribute__((preserve_access_index));

static __always_inline long
bpfkit_syscall_enter_nr(const struct syscall_trace_enter *ctx)
{
	if (bpf_core_field_exists(struct syscall_tp_t___o, regs))
		return ((const struct syscall_tp_t___o *)ctx)->syscall_nr;
	return ctx->nr;
}

/*
 * task_struct's state: "state", a long, before Linux 5.14, which renamed
 * it "__state" and made it an unsigned int.
 */
struct task_struct___o {
	volatile long state;
} __attribute__((preserve_access_index));

static __always_inline unsigned int bpfkit_task_state(const void *task)
{
	const struct task_struct *t = task;

	if (bpf_core_field_exists(t->__state))
		return BPF_CORE_READ(t, __state);
	return BPF_CORE_READ((const struct task_struct___o *)task, state);
}

#endif /* BPFKIT_CORE_FIXES_BPF_H */
