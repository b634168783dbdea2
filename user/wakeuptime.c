// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * wakeuptime: the time tasks spend blocked, by who woke them: the waker's
 * name and the stacks it woke them from, symbolized, as folded stacks, top
 * functions, JSON Lines or a flame graph.
 */
#include <errno.h>
#include <stdio.h>
#include "cli.h"
#include "diag.h"
#include "run.h"
#include "setup.h"
#include "stackrun.h"
#include "wakeuptime.h"
#include "wakeuptime.skel.h"

static const struct bpfkit_tool tool = {
	.name = "wakeuptime",
	.doc = "Sum the time tasks spend blocked by who woke them, and from which stacks.\n"
	       "\v"
	       "Prints folded stacks (target;frame;...;frame;waker microseconds): the\n"
	       "task woken, its waker's frames outermost first, the waker's name; the\n"
	       "input of flamegraph.pl, speedscope and inferno. The filters select the\n"
	       "task woken.\n"
	       "\n"
	       "Examples:\n"
	       "  wakeuptime -d 10            # every task, for 10 s\n"
	       "  wakeuptime -p 185 -m 1000   # process 185, blocks of 1 ms or more\n"
	       "  wakeuptime -d 5 --svg wake.svg  # a wakeup flame graph too\n"
	       "  wakeuptime -K --top 10      # the 10 kernel functions waking most\n",
	.options = BPFKIT_OPT_FILTERS | BPFKIT_OPT_JSON | BPFKIT_OPT_STACKS |
		   BPFKIT_OPT_BLOCK_TIME,
};

static const struct bpfkit_stacks_unit unit = {
	.title = "wakeuptime",
	.events = "blocks",
	.name = "us",
	.divisor = 1000,
};

int main(int argc, char **argv)
{
	struct wakeuptime_bpf *skel = NULL;
	int err;

	/* Parse options; check privileges, tracefs and kernel BTF. */
	bpfkit_setup(&tool, argc, argv);

	/* Open the BPF object. */
	skel = wakeuptime_bpf__open_opts(bpfkit_open_opts());
	if (!skel)
		return bpfkit_open_failed();

	/* Load and verify. */
	err = bpfkit_load(skel->skeleton);
	if (err)
		goto cleanup;

	/* Attach to sched_switch and sched_waking until -d or a signal. */
	err = bpfkit_stacks_run(skel->skeleton, NULL, &unit);
	if (skel->bss->wakeuptime_untimed)
		bpfkit_error(
			"%llu blocks not timed: more than %d tasks blocked or woken at once",
			(unsigned long long)skel->bss->wakeuptime_untimed,
			WAKEUPTIME_MAX_BLOCKED);

cleanup:
	wakeuptime_bpf__destroy(skel);
	return bpfkit_exit_code(err);
}
