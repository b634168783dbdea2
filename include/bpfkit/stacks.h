/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * What the two sides of a stack tool share (profile, offcputime,
 * wakeuptime): the
 * key its counts are kept by, the stack settings user space writes before
 * load, and the counters of what could not be counted.
 */
#ifndef BPFKIT_STACKS_H
#define BPFKIT_STACKS_H

#include "bpfkit/types.h"

#define BPFKIT_STACK_DEPTH 127 /* frames kept per stack (the kernel's most) */
#define BPFKIT_MAX_STACKS 16384 /* unique stacks kept (16 MiB) */
#define BPFKIT_MAX_STACK_KEYS 32768 /* (pid, stacks, comm) counted */
#define BPFKIT_MAX_STACK_PIDS 4096 /* new pids waiting for user space */

/* A stack's id: a hash of its frames, or one of these. */
#define BPFKIT_STACK_NONE \
	0 /* not taken, or none (a kernel thread's user stack) */
#define BPFKIT_STACK_LOST 1 /* the stack map had no room for it */

/* A stack's frames, innermost first, then zeros. */
struct bpfkit_stack {
	__u64 ips[BPFKIT_STACK_DEPTH];
};

/*
 * A count's key: the process, its two stacks' ids, its name, and the name
 * of the task it woke (wakeuptime; empty otherwise).
 */
struct bpfkit_stack_key {
	__u32 pid;
	__u32 pad; /* zero */
	__u64 user_stack;
	__u64 kernel_stack;
	char comm[BPFKIT_COMM_LEN];
	char target[BPFKIT_COMM_LEN];
};

/*
 * Which stacks to take (-U: user only, -K: kernel only), and which blocks
 * a tool of blocked time counts (-m, -M).
 */
struct bpfkit_stack_cfg {
	bool user;
	bool kernel;
	__u64 min_block_ns;
	__u64 max_block_ns;
};

/* What was counted, and what could not be (in the object's .bss). */
struct bpfkit_stack_stats {
	__u64 counted; /* samples (profile) or blocks (offcputime) counted */
	__u64 stack_full; /* a stack the stack map had no room for */
	__u64 keys_full; /* a count the counts map had no room for */
	__s64 last_stack_err; /* why the last stack lost was: -errno */
};

#endif /* BPFKIT_STACKS_H */
