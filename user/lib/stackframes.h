/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Histogram tools whose keys hold a stack id of the stacks room's
 * bpfkit_stacks map (stacks.bpf.h's stack_id()) beside other things
 * (futexctn's lock, klockstat's), where the stack reader's counts by stack
 * do not fit: their run, with a symbolizer for the keys' stacks, and the
 * keys' stacks as frames in text and JSON.
 *
 *	err = bpfkit_stack_hist_run(skel->skeleton, skel->maps.MAP, &keys);
 *	and in keys' print_key / json_key:
 *	n = bpfkit_key_stack(pid, key->stack, true, frames);
 *	bpfkit_stack_print(f, frames, n, key->stack == BPFKIT_STACK_LOST);
 */
#ifndef BPFKIT_STACKFRAMES_H
#define BPFKIT_STACKFRAMES_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>
#include "bpfkit/stacks.h"
#include "histogram.h"
#include "output.h"
#include "symbols.h"

/*
 * bpfkit_hist_run() (setup.h), with a symbolizer for the keys' stacks
 * while it runs: S's object has the stacks room's maps.
 */
int bpfkit_stack_hist_run(struct bpf_object_skeleton *s, struct bpf_map *map,
			  const struct bpfkit_hist_keys *keys);

/*
 * During bpfkit_stack_hist_run(): stack ID (a user stack of process PID
 * with USER, else a kernel stack) symbolized into FRAMES (room for
 * BPFKIT_STACK_DEPTH), innermost first; a kernel stack without the
 * tracing frames it was taken in. Returns how many: 0 for no stack
 * (BPFKIT_STACK_NONE, BPFKIT_STACK_LOST, or gone from the map).
 */
int bpfkit_key_stack(pid_t pid, __u64 id, bool user,
		     const struct bpfkit_frame **frames);

/* During bpfkit_stack_hist_run(): kernel address ADDR symbolized. */
const struct bpfkit_frame *bpfkit_key_kernel_sym(__u64 addr);

/*
 * A key's stack in a histogram's header (print_key, histogram.h): each of
 * the N FRAMES on a line of its own, indented, after the header's line;
 * LOST (the stack map was full) says so instead.
 */
void bpfkit_stack_print(FILE *f, const struct bpfkit_frame **frames, int n,
			bool lost);

/* The same in JSON: "stack_lost" and "stack", an array of the labels. */
void bpfkit_stack_json(struct bpfkit_json *j,
		       const struct bpfkit_frame **frames, int n, bool lost);

/* An address for option NAME: non-zero hex, with or without 0x. */
int bpfkit_parse_addr(const char *name, const char *arg, __u64 *addr);

#endif /* BPFKIT_STACKFRAMES_H */
