/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The scheduler's side of a task: the state a task leaves the CPU in
 * (bpfkit_task_state(), core_fixes.bpf.h) as the letter ps(1) shows.
 *
 *	state = bpfkit_task_state(prev);	at sched_switch
 *	if (preempt) state = BPFKIT_TASK_RUNNING;	still runnable
 *	letter = bpfkit_task_state_index(state);	as ps(1) shows it
 */
#ifndef BPFKIT_SCHED_BPF_H
#define BPFKIT_SCHED_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include "bpfkit/core_fixes.bpf.h"
#include "bpfkit/sched.h"

/*
 * The index of STATE's letter in BPFKIT_TASK_STATE_LETTERS, as the kernel's
 * task_state_index() picks it: TASK_IDLE is "I", otherwise the highest of
 * the reported bits (a killable sleep, TASK_UNINTERRUPTIBLE | TASK_WAKEKILL,
 * is "D").
 */
static __always_inline int bpfkit_task_state_index(unsigned int state)
{
	unsigned int report = state & BPFKIT_TASK_REPORT;
	int i;

	if ((state & BPFKIT_TASK_IDLE) == BPFKIT_TASK_IDLE)
		return BPFKIT_TASK_INDEX_IDLE;
#pragma unroll
	for (i = 7; i > 0; i--)
		if (report & (1U << (i - 1)))
			return i;
	return 0;
}

/*
 * The run queue of the CPU task T is on (or last ran on): the rq of its
 * CFS run queue (sched_entity.cfs_rq, its group's or the root's; every
 * one points to its CPU's rq). NULL on a kernel without group scheduling
 * (CONFIG_FAIR_GROUP_SCHED), whose tasks keep no cfs_rq (every Debian
 * kernel has it).
 */
static __always_inline struct rq *bpfkit_task_rq(struct task_struct *t)
{
	if (!bpf_core_field_exists(t->se.cfs_rq))
		return NULL;
	return BPF_CORE_READ(t, se.cfs_rq, rq);
}

#endif /* BPFKIT_SCHED_BPF_H */
