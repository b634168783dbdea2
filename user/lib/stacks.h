/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Stack tools (profile, offcputime, wakeuptime): the stack options (-U, -K,
 * -L, --top, --svg; -m, -M for blocks), the stack settings for the BPF
 * side (written at load, setup.h), and a reader that takes the counts by
 * stack from the maps of stacks.bpf.h, symbolizes them (the symbols room)
 * and prints them as folded stacks, the top functions, JSON Lines, or
 * writes a flame graph.
 *
 *	err = bpfkit_stacks_run(skel->skeleton, NULL, &unit);  (stackrun.h)
 *
 * which runs the reader:
 *
 *	err = bpfkit_stacks_open(&r, obj, &opts, &unit, stats);
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
	unsigned long min_block_us; /* -m: blocks counted from; default 1 */
	unsigned long max_block_us; /* -M: blocks counted up to; 0: any */
};

/* What a tool counts: samples, or nanoseconds blocked printed as "us". */
struct bpfkit_stacks_unit {
	const char *title; /* the flame graph's, e.g. "profile" */
	const char *events; /* what is counted: "samples", "blocks" */
	const char *name; /* a count's unit: "samples", "us" */
	__u64 divisor; /* counts are divided by this for printing */
	/*
	 * Counts that go down as well as up (memleak's bytes outstanding: a
	 * free adds minus its size): a report then shows what is counted at
	 * that moment, every INTERVAL_MS too (0: at the end only), each
	 * under a "[HH:MM:SS] TITLE" line in text; keys at 0 are left out.
	 */
	unsigned long interval_ms;
};

/*
 * Before load: which stacks the BPF side takes, and which blocks it
 * counts. Inline: every tool's load writes it (setup.h), and only the
 * stack tools link the reader and its symbolizer (libdw).
 */
static inline void bpfkit_stack_cfg_init(volatile struct bpfkit_stack_cfg *cfg,
					 const struct bpfkit_stacks_opts *opts)
{
	cfg->user = !opts->kernel_only;
	cfg->kernel = !opts->user_only;
	cfg->min_block_ns = opts->min_block_us * 1000;
	cfg->max_block_ns = opts->max_block_us ? opts->max_block_us * 1000 :
						 ~0ULL;
}

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
 * lost (stack map full)". 0, 1 once stdout's reader has gone, or -errno
 * when the output could not be written. Again: the counts as they are now.
 */
int bpfkit_stacks_report(struct bpfkit_stacks *r);

void bpfkit_stacks_free(struct bpfkit_stacks *r);

#endif /* BPFKIT_STACKS_REPORT_H */
