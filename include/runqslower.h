/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The record runqslower sends for every run-queue wait above its
 * threshold: the task that waited and the task it took the CPU from.
 */
#ifndef RUNQSLOWER_H
#define RUNQSLOWER_H

#include "bpfkit/channel.h"
#include "bpfkit/runq.h"

struct runqslower_event {
	struct bpfkit_record rec; /* first: the time it was sent */
	__u64 wait_ns; /* from wakeup or preemption to running */
	__u32 pid; /* the task that waited: its process */
	__u32 tid;
	__u32 prev_pid; /* the task it took the CPU from */
	__u32 prev_tid;
	__u32 cpu; /* where it runs now */
	__u32 pad;
	char comm[BPFKIT_COMM_LEN];
	char prev_comm[BPFKIT_COMM_LEN];
};

#endif /* RUNQSLOWER_H */
