/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Stack tools (profile, offcputime, wakeuptime): the stack options (-U, -K, -L,
 * --top, --svg), the stack settings for the BPF side, and a reader that
 * takes the counts by stack from the maps of stacks.bpf.h, symbolizes
 * them (the symbols room) and prints them as folded stacks, the top
 * functions, JSON Lines, or writes a flame graph.
 *
 *	bpfkit_stack_cfg_init(&skel->rodata->bpfkit_stack_cfg, &o);  before load
 *	err = bpfkit_stacks_open(&r, skel->obj, &o, &unit, &skel->bss->...);
 *	tick = bpfkit_stacks_tick(r);	reads new pids' maps while they run
 *	err = bpfkit_stacks_report(r);	at exit
 */
#ifndef BPFKIT_STACKS_REPORT_H
#define BPFKIT_STACKS_REPORT_H

#include <stdbool.h>
#include <bpf/libbpf.h>
#include "bpfkit/stacks.h"
#include "run.h"

/* What the stack options say. */
struct bpfkit_stacks_opts {
	bool user_only; /* -U */
	bool kernel_only; /* -K */
	bool lines; /* -L: source file:line of user frames */
	unsigned long top; /* --top N: the N functions most seen; 0: stacks */
	const char *svg; /* --svg FILE: a flame graph there too */
	bool verbose; /* -v: the symbolizer's time in the summary */
};

/* What a tool counts: samples, or nanoseconds blocked printed as "us". */
struct bpfkit_stacks_unit {
	const char *title; /* the flame graph's, e.g. "profile" */
	const char *events; /* what is counted: "samples", "blocks" */
	const char *name; /* a count's unit: "samples", "us" */
	__u64 divisor; /* counts are divided by this for printing */
};

/* Before load: which stacks the BPF side takes. */
void bpfkit_stack_cfg_init(volatile struct bpfkit_stack_cfg *cfg,
			   const struct bpfkit_stacks_opts *opts);

struct bpfkit_stacks;

/*
 * A reader of OBJ's bpfkit_stacks, bpfkit_stack_counts and
 * bpfkit_stack_pids maps, with STATS its bpfkit_stack_stats (.bss).
 */
int bpfkit_stacks_open(struct bpfkit_stacks **out, struct bpf_object *obj,
		       const struct bpfkit_stacks_opts *opts,
		       const struct bpfkit_stacks_unit *unit,
		       const struct bpfkit_stack_stats *stats);

/* A run loop tick that reads the memory maps of the processes new since. */
struct bpfkit_tick bpfkit_stacks_tick(struct bpfkit_stacks *r);

/*
 * Print every stack counted, as the options say (and write the SVG), then
 * the summary on stderr: "N samples, M lost (M counts map full), S stacks
 * lost (stack map full)". 0, or -errno when the output could not be written.
 */
int bpfkit_stacks_report(struct bpfkit_stacks *r);

void bpfkit_stacks_free(struct bpfkit_stacks *r);

#endif /* BPFKIT_STACKS_REPORT_H */
