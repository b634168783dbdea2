/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* What futexctn's two sides share: the key of its histograms. */
#ifndef FUTEXCTN_H
#define FUTEXCTN_H

#include "bpfkit/histogram.h"
#include "bpfkit/stacks.h"

/* One histogram per process, lock (the futex's user address) and stack. */
struct futexctn_key {
	__u32 pid;
	__u32 pad; /* zero */
	__u64 lock;
	__u64 user_stack; /* an id in bpfkit_stacks, or BPFKIT_STACK_* */
};

#endif /* FUTEXCTN_H */
