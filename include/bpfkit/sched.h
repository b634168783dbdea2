/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Task states as the kernel reports them (include/linux/sched.h), shared
 * by a tool's two sides: the bits, and the letters ps(1) shows for them,
 * in the order of the kernel's task_state_index().
 */
#ifndef BPFKIT_SCHED_H
#define BPFKIT_SCHED_H

#define BPFKIT_TASK_RUNNING 0x0000
#define BPFKIT_TASK_REPORT 0x007f /* the bits task_state_index() reports */
#define BPFKIT_TASK_IDLE 0x0402 /* TASK_UNINTERRUPTIBLE | TASK_NOLOAD */

/* R running, S sleeping, D uninterruptible, T stopped, t traced, X dead,
 * Z zombie, P parked, I idle. */
#define BPFKIT_TASK_STATE_LETTERS "RSDTtXZPI"
#define BPFKIT_TASK_INDEX_IDLE 8

#endif /* BPFKIT_SCHED_H */
