/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* What klockstat's two sides share: the key of its histograms. */
#ifndef KLOCKSTAT_H
#define KLOCKSTAT_H

#include "bpfkit/histogram.h"
#include "bpfkit/stacks.h"

/* The kernel's contention flags (include/trace/events/lock.h, LCB_F_*). */
#define KLOCKSTAT_F_SPIN (1U << 0)
#define KLOCKSTAT_F_READ (1U << 1)
#define KLOCKSTAT_F_WRITE (1U << 2)
#define KLOCKSTAT_F_RT (1U << 3)
#define KLOCKSTAT_F_PERCPU (1U << 4)
#define KLOCKSTAT_F_MUTEX (1U << 5)

/* One histogram per lock and caller stack (--by-lock: per lock). */
struct klockstat_key {
	__u64 lock; /* the lock's kernel address */
	__u64 kernel_stack; /* an id in bpfkit_stacks; BPFKIT_STACK_NONE */
	__u32 flags; /* the first contention_begin's, KLOCKSTAT_F_* */
	__u32 pad; /* zero */
};

#endif /* KLOCKSTAT_H */
