// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * switchfloor: load and attach the floor programs (one per-CPU counter
 * increment on each of runqlat's tracepoints) until a signal or -d, as the
 * baseline tools/bench/run compares runqlat with.
 */
#include <errno.h>
#include "cli.h"
#include "diag.h"
#include "run.h"
#include "setup.h"
#include "switchfloor.skel.h"

static const struct bpfkit_tool tool = {
	.name = "switchfloor",
	.doc = "Count sched_wakeup/_new and sched_switch per CPU, and nothing else.",
};

int main(int argc, char **argv)
{
	struct switchfloor_bpf *skel = NULL;
	int err;

	bpfkit_setup(&tool, argc, argv);
	skel = switchfloor_bpf__open_opts(bpfkit_open_opts());
	if (!skel)
		return bpfkit_open_failed();
	err = bpfkit_load(skel->skeleton) ?:
		      bpfkit_attach(skel->skeleton, NULL, NULL, NULL);
	if (!err)
		err = bpfkit_run(NULL, NULL);

	switchfloor_bpf__destroy(skel);
	return bpfkit_exit_code(err);
}
