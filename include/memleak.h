/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* What memleak's two sides share: an allocation outstanding, the limits. */
#ifndef MEMLEAK_H
#define MEMLEAK_H

#include "bpfkit/stacks.h"

#define MEMLEAK_MAX_ALLOCS (1 << 20) /* allocations outstanding tracked */

/* An allocation outstanding: its size and the key its bytes are counted by. */
struct memleak_alloc {
	__u64 size;
	struct bpfkit_stack_key key;
};

#endif /* MEMLEAK_H */
