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

static struct {
	enum bpfkit_hist_by key_by; /* -P, -L */
} env;

static const struct argp_option own_options[] = {
	{ "pids", 'P', NULL, 0, "A histogram per process", 0 },
	{ "tids", 'L', NULL, 0, "A histogram per thread", 0 },
	{},
};

static error_t parse_own(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case 'P':
	case 'L':
		if (env.key_by != BPFKIT_HIST_ALL)
			return bpfkit_usage_error(
				"-P and -L are exclusive; give one of them");
		env.key_by = key == 'P' ? BPFKIT_HIST_PROCESS :
					  BPFKIT_HIST_THREAD;
		return 0;
	}
	return ARGP_ERR_UNKNOWN;
}

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
	.options = BPFKIT_OPT_FILTERS | BPFKIT_OPT_JSON | BPFKIT_OPT_HIST,
	.own_options = own_options,
	.own_parser = parse_own,
};

int main(int argc, char **argv)
{
	struct bpfkit_hist_keys keys = { .key_size = sizeof(__u32) };
	struct bpfkit_hist_reader *hists = NULL;
	struct runqlat_bpf *skel = NULL;
	int err;

	/* Parse options; check privileges, tracefs and kernel BTF. */
	bpfkit_setup(&tool, argc, argv);

	/* Open the BPF object. */
	skel = runqlat_bpf__open_opts(bpfkit_open_opts());
	if (!skel) {
		err = -errno;
		bpfkit_fail("open BPF object", err);
		goto cleanup;
	}

	/* Our options and the buckets into .rodata; tp_btf if it loads. */
	skel->rodata->key_by = env.key_by;
	bpfkit_hist_cfg_init(&skel->rodata->bpfkit_hist_cfg);
	bpfkit_hist_task_map(skel->maps.runqlat_hists, env.key_by);
	bpfkit_tp_btf_autoload(
		(struct bpf_program *const[]){ skel->progs.wakeup_btf,
					       skel->progs.wakeup_new_btf,
					       skel->progs.switch_btf },
		(struct bpf_program *const[]){ skel->progs.wakeup_raw,
					       skel->progs.wakeup_new_raw,
					       skel->progs.switch_raw },
		3, bpfkit_opts.btf_path, "sched_switch");

	/* Load and verify. */
	err = bpfkit_load(skel->skeleton, &skel->rodata->bpfkit_filter, NULL);
	if (err)
		goto cleanup;

	bpfkit_hist_task_keys(&keys, env.key_by);
	keys.metric = "bpfkit_runqlat_run_queue_latency_seconds";
	keys.metric_help = "Time tasks waited on a run queue";
	err = bpfkit_hist_open(&hists, bpf_map__fd(skel->maps.runqlat_hists),
			       &keys, &skel->bss->bpfkit_hist_missed);
	if (err)
		goto cleanup;

	/* Attach to sched_wakeup, sched_wakeup_new and sched_switch. */
	err = bpfkit_attach(skel->skeleton, NULL, NULL, NULL);
	if (err)
		goto cleanup;

	/* Report every interval until COUNT, -d or a signal. */
	err = bpfkit_hist_run(hists);

cleanup:
	bpfkit_hist_free(hists);
	runqlat_bpf__destroy(skel);
	return bpfkit_exit_code(err);
}
