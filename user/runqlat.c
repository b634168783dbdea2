// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * runqlat: how long tasks wait on a run queue before they run, as a
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
#include "tracefs.h"
#include "runqlat.h"
#include "runqlat.skel.h"

static const struct bpfkit_tool tool = {
	.name = "runqlat",
	.doc = "Summarize run queue latency (wakeup or preemption to running) as a histogram.\n"
	       "\v"
	       "Filters apply to the task that waits.\n"
	       "\n"
	       "Examples:\n"
	       "  runqlat              # one histogram until Ctrl-C\n"
	       "  runqlat 1 10         # every second, 10 times\n"
	       "  runqlat -m -T 5      # milliseconds, with times, every 5 s\n"
	       "  runqlat -P -p 185    # process 185 only, its own histogram\n"
	       "  runqlat -L -j -i 1   # per thread, JSON Lines every second\n",
	.args_doc = "[INTERVAL [COUNT]]",
	.options = BPFKIT_OPT_FILTERS | BPFKIT_OPT_JSON | BPFKIT_OPT_HIST |
		   BPFKIT_OPT_TASK_HISTS,
};

/* One histogram, or one per task (-P, -L). */
static const struct bpfkit_hist_keys keys = {
	.key_size = sizeof(__u32),
	.tasks = true,
	.metric = "bpfkit_runqlat_run_queue_latency_seconds",
	.metric_help = "Time tasks waited on a run queue",
};

int main(int argc, char **argv)
{
	struct runqlat_bpf *skel = NULL;
	int err;

	/* Parse options; check privileges, tracefs and kernel BTF. */
	bpfkit_setup(&tool, argc, argv);

	/* Open the BPF object. */
	skel = runqlat_bpf__open_opts(bpfkit_open_opts());
	if (!skel)
		return bpfkit_open_failed();

	/* The map shaped for -P and -L; tp_btf programs if they load. */
	bpfkit_hist_task_map(skel->maps.runqlat_hists);
	bpfkit_tp_btf_autoload(
		(struct bpf_program *const[]){ skel->progs.wakeup_btf,
					       skel->progs.wakeup_new_btf,
					       skel->progs.switch_btf },
		(struct bpf_program *const[]){ skel->progs.wakeup_raw,
					       skel->progs.wakeup_new_raw,
					       skel->progs.switch_raw },
		3, bpfkit_opts.btf_path, "sched_switch");

	/* Load and verify. */
	err = bpfkit_load(skel->skeleton);
	if (err)
		goto cleanup;

	/* Attach to the sched tracepoints; report every interval until COUNT. */
	err = bpfkit_hist_run(skel->skeleton, skel->maps.runqlat_hists, &keys);

cleanup:
	runqlat_bpf__destroy(skel);
	return bpfkit_exit_code(err);
}
