/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* What offcputime's two sides share: a blocked task's start, and the limits. */
#ifndef OFFCPUTIME_H
#define OFFCPUTIME_H

#include "bpfkit/stacks.h"

#define OFFCPUTIME_MAX_BLOCKED 10240 /* tasks off the CPU tracked at once */

/* When a task left the CPU, and its stacks then. */
struct offcputime_start {
	__u64 ts;
	struct bpfkit_stack_key key;
};

#endif /* OFFCPUTIME_H */
