// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * offcputime: the time tasks spend off the CPU (blocked, sleeping or
 * waiting to run again), by the stacks they left it with, symbolized, as
 * folded stacks, top functions, JSON Lines or a flame graph.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "bpfkit/sched.h"
#include "cli.h"
#include "diag.h"
#include "run.h"
#include "setup.h"
#include "stackrun.h"
#include "offcputime.h"
#include "offcputime.skel.h"

enum {
	OPT_STATE = 0x2000,
};

static struct {
	__u32 state_letters; /* --state LETTERS: their indexes' bits */
	long long state_bits; /* --state NUMBER; -1: none */
} env = { .state_bits = -1 };

static const struct argp_option own_options[] = {
	{ "state", OPT_STATE, "STATE", 0,
	  "Count only tasks leaving the CPU in STATE: letters of R (preempted), S (sleep), D (uninterruptible), T, t, I, or bcc's number (any of its task state bits; 0: preempted)",
	  0 },
	{},
};

/* --state: letters as ps(1) shows states, or a number of state bits. */
static error_t parse_state(const char *arg)
{
	const char *letters = BPFKIT_TASK_STATE_LETTERS, *at;
	unsigned long bits;
	size_t i;
	int err;

	if (*arg >= '0' && *arg <= '9') {
		err = bpfkit_parse_ulong("--state", arg, 0, 0xffffffffUL,
					 &bits);
		env.state_bits = bits;
		return err;
	}
	for (i = 0; arg[i]; i++) {
		at = strchr(letters, arg[i]);
		/* X, Z and P: a task leaves the CPU dying or parked once. */
		if (!at || strchr("XZP", arg[i]))
			return bpfkit_usage_error(
				"--state '%s': '%c' is not a state; give letters of R, S, D, T, t, I (e.g. --state D) or a number of state bits (e.g. --state 2)",
				arg, arg[i]);
		env.state_letters |= 1U << (at - letters);
	}
	if (!i)
		return bpfkit_usage_error(
			"--state needs a state; give letters of R, S, D, T, t, I or a number");
	return 0;
}

static error_t parse_own(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case OPT_STATE:
		return parse_state(arg);
	}
	return ARGP_ERR_UNKNOWN;
}

static const struct bpfkit_tool tool = {
	.name = "offcputime",
	.doc = "Sum the time tasks spend off the CPU by the stacks they left it with.\n"
	       "\v"
	       "Prints folded stacks (comm;frame;...;frame microseconds), outermost\n"
	       "frame first, the input of flamegraph.pl, speedscope and inferno.\n"
	       "\n"
	       "Examples:\n"
	       "  offcputime -d 10            # every task, for 10 s\n"
	       "  offcputime -p 185 -m 1000   # process 185, blocks of 1 ms or more\n"
	       "  offcputime -d 5 --svg off.svg  # an off-CPU flame graph too\n"
	       "  offcputime -K --top 10      # the 10 kernel functions blocked in most\n"
	       "  offcputime --state D -d 5   # uninterruptible waits only (disk, locks)\n",
	.options = BPFKIT_OPT_FILTERS | BPFKIT_OPT_JSON | BPFKIT_OPT_STACKS |
		   BPFKIT_OPT_BLOCK_TIME,
	.own_options = own_options,
	.own_parser = parse_own,
};

static const struct bpfkit_stacks_unit unit = {
	.title = "offcputime",
	.events = "blocks",
	.name = "us",
	.divisor = 1000,
};

int main(int argc, char **argv)
{
	struct offcputime_bpf *skel = NULL;
	int err;

	/* Parse options; check privileges, tracefs and kernel BTF. */
	bpfkit_setup(&tool, argc, argv);

	/* Open the BPF object. */
	skel = offcputime_bpf__open_opts(bpfkit_open_opts());
	if (!skel)
		return bpfkit_open_failed();

	/* --state into .rodata. */
	skel->rodata->state_letters = env.state_letters;
	skel->rodata->state_bits = env.state_bits;

	/* Load and verify. */
	err = bpfkit_load(skel->skeleton);
	if (err)
		goto cleanup;

	/* Attach to sched_switch until -d or a signal; print the stacks. */
	err = bpfkit_stacks_run(skel->skeleton, NULL, &unit);
	if (skel->bss->offcputime_untimed)
		bpfkit_error(
			"%llu blocks not timed: more than %d tasks off the CPU at once",
			(unsigned long long)skel->bss->offcputime_untimed,
			OFFCPUTIME_MAX_BLOCKED);

cleanup:
	offcputime_bpf__destroy(skel);
	return bpfkit_exit_code(err);
}
