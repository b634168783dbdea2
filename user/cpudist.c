// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * cpudist: how long tasks run on a CPU each time (or stay off it), as a
 * histogram, for the whole machine, per process or per thread.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "diag.h"
#include "histogram.h"
#include "output.h"
#include "setup.h"
#include "cpudist.h"
#include "cpudist.skel.h"

static struct {
	bool off_cpu; /* -O */
} env;

static const struct argp_option own_options[] = {
	{ "offcpu", 'O', NULL, 0, "Time off the CPU instead of on it", 0 },
	{},
};

static error_t parse_own(int key, char *arg, struct argp_state *state)
{
	if (key != 'O')
		return ARGP_ERR_UNKNOWN;
	env.off_cpu = true;
	return 0;
}

static const struct bpfkit_tool tool = {
	.name = "cpudist",
	.doc = "Summarize the time tasks run on a CPU each time (or, with -O, stay off it).\n"
	       "\v"
	       "Filters apply to the task being timed.\n"
	       "\n"
	       "Examples:\n"
	       "  cpudist              # one histogram until Ctrl-C\n"
	       "  cpudist 1 10         # every second, 10 times\n"
	       "  cpudist -m -p 185    # process 185, in milliseconds\n"
	       "  cpudist -O -P        # off-CPU time per process\n"
	       "  cpudist -L -j -i 1   # per thread, JSON Lines every second\n",
	.args_doc = "[INTERVAL [COUNT]]",
	.options = BPFKIT_OPT_FILTERS | BPFKIT_OPT_JSON | BPFKIT_OPT_HIST |
		   BPFKIT_OPT_TASK_HISTS,
	.own_options = own_options,
	.own_parser = parse_own,
};

int main(int argc, char **argv)
{
	struct bpfkit_hist_keys keys = { .key_size = sizeof(__u32),
					 .tasks = true };
	struct cpudist_bpf *skel = NULL;
	int err;

	/* Parse options; check privileges, tracefs and kernel BTF. */
	bpfkit_setup(&tool, argc, argv);

	/* Open the BPF object. */
	skel = cpudist_bpf__open_opts(bpfkit_open_opts());
	if (!skel)
		return bpfkit_open_failed();

	/* -O into .rodata; the map shaped for -P and -L. */
	skel->rodata->off_cpu = env.off_cpu;
	bpfkit_hist_task_map(skel->maps.cpudist_hists);

	/* Load and verify. */
	err = bpfkit_load(skel->skeleton);
	if (err)
		goto cleanup;

	/* The metric of what -O times. */
	keys.metric = env.off_cpu ? "bpfkit_cpudist_off_cpu_seconds" :
				    "bpfkit_cpudist_on_cpu_seconds";
	keys.metric_help = env.off_cpu ?
				   "Time tasks spent off a CPU each time" :
				   "Time tasks ran on a CPU each time";

	/* Attach to sched_switch; report every interval until COUNT. */
	err = bpfkit_hist_run(skel->skeleton, skel->maps.cpudist_hists, &keys);

cleanup:
	cpudist_bpf__destroy(skel);
	return bpfkit_exit_code(err);
}
