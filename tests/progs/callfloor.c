// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * callfloor: load and attach the floor program (one per-CPU counter
 * increment per getppid(2)) until a signal or -d, as the baseline
 * tools/bench/run's throttle row compares a throttled event's cost with.
 */
#include <errno.h>
#include "cli.h"
#include "diag.h"
#include "run.h"
#include "setup.h"
#include "callfloor.skel.h"

static const struct bpfkit_tool tool = {
	.name = "callfloor",
	.doc = "Count getppid(2) calls per CPU, and nothing else.",
};

int main(int argc, char **argv)
{
	struct callfloor_bpf *skel = NULL;
	int err;

	bpfkit_setup(&tool, argc, argv);
	skel = callfloor_bpf__open_opts(bpfkit_open_opts());
	if (!skel)
		return bpfkit_open_failed();
	err = bpfkit_load(skel->skeleton) ?:
		      bpfkit_attach(skel->skeleton, NULL, NULL, NULL);
	if (!err)
		err = bpfkit_run(NULL, NULL);

	callfloor_bpf__destroy(skel);
	return bpfkit_exit_code(err);
}
