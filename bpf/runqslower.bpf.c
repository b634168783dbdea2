// SPDX-License-Identifier: GPL-2.0
/*
 * runqslower: send a record for each run-queue wait, from a task's wakeup
 * (or its preemption) to the switch that runs it, at or above a
 * threshold, naming the task and the one it took the CPU from; the
 * record's header has the waiting task's ids (containers), not those of the
 * task it is sent from. The waits are runqlat's (bpfkit/runq.bpf.h).
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "bpfkit/channel.bpf.h"
#include "bpfkit/runq.bpf.h"
#include "runqslower.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u64 min_ns; /* the threshold: report waits this long or longer */

/* Task P is woken: it waits from now on. */
static __always_inline void woken(struct task_struct *p, bool btf)
{
	if (bpfkit_runq_woken(p, btf))
		bpfkit_drop(BPFKIT_STAGING_FULL);
}

/* PREV leaves the CPU to NEXT: report NEXT's wait if long enough. */
static __always_inline void switched(void *ctx, struct task_struct *prev,
				     struct task_struct *next, bool btf)
{
	struct runqslower_event e = {};
	bool ended, lost;

	ended = bpfkit_runq_switched(prev, next, btf, &e.wait_ns, &lost);
	if (lost)
		bpfkit_drop(BPFKIT_STAGING_FULL);
	if (!ended || e.wait_ns < min_ns)
		return;
	bpfkit_record_task_of(&e.rec, next, btf);
	e.pid = bpfkit_runq_field(btf, next, tgid);
	e.tid = bpfkit_runq_field(btf, next, pid);
	e.prev_pid = bpfkit_runq_field(btf, prev, tgid);
	e.prev_tid = bpfkit_runq_field(btf, prev, pid);
	e.cpu = bpf_get_smp_processor_id();
	BPF_CORE_READ_STR_INTO(&e.comm, next, comm);
	BPF_CORE_READ_STR_INTO(&e.prev_comm, prev, comm);
	bpfkit_emit_stamped(ctx, &e.rec, sizeof(e));
}

/* The sched tracepoints' programs, on tp_btf and on raw_tp. */
BPFKIT_RUNQ_PROGRAMS()
