/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * One stack of the stacks room's bpfkit_stacks map (stacks.bpf.h), by its
 * id, as symbolized frames: for the tools that key their own maps by a
 * stack id beside other things (futexctn's lock, klockstat's), where the
 * stack reader's counts by stack do not fit.
 *
 *	n = bpfkit_stack_frames(stacks_fd, syms, pid, id, true, frames);
 */
#ifndef BPFKIT_STACKFRAMES_H
#define BPFKIT_STACKFRAMES_H

#include <stdbool.h>
#include <sys/types.h>
#include "bpfkit/stacks.h"
#include "symbols.h"

/* Whether F is the tracing's own (a BPF program, its tracepoint's call). */
bool bpfkit_tracing_frame(const struct bpfkit_frame *f);

/*
 * Stack ID (a user stack of process PID with USER, else a kernel stack)
 * from the map STACKS_FD, symbolized by SYMS into FRAMES (room for
 * BPFKIT_STACK_DEPTH), innermost first; a kernel stack without the
 * tracing frames it was taken in. Returns how many: 0 for no stack
 * (BPFKIT_STACK_NONE, BPFKIT_STACK_LOST, or gone from the map).
 */
int bpfkit_stack_frames(int stacks_fd, struct bpfkit_syms *syms, pid_t pid,
			__u64 id, bool user,
			const struct bpfkit_frame **frames);

#endif /* BPFKIT_STACKFRAMES_H */
