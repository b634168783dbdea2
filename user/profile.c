// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * profile: sample the stacks running on every CPU at a fixed rate and
 * print them symbolized, as folded stacks, top functions, JSON Lines or
 * a flame graph.
 */
#include <errno.h>
#include <stdio.h>
#include "cli.h"
#include "diag.h"
#include "run.h"
#include "setup.h"
#include "stackrun.h"
#include "profile.h"
#include "profile.skel.h"

static struct {
	unsigned long hz; /* -F */
} env = { .hz = PROFILE_DEFAULT_HZ };

static const struct argp_option own_options[] = {
	{ "frequency", 'F', "HZ", 0,
	  "Sample HZ times a second on every CPU (default 49)", 0 },
	{},
};

static error_t parse_own(int key, char *arg, struct argp_state *state)
{
	if (key == 'F')
		return bpfkit_parse_ulong("-F/--frequency", arg, 1, 100000,
					  &env.hz);
	return ARGP_ERR_UNKNOWN;
}

static const struct bpfkit_tool tool = {
	.name = "profile",
	.doc = "Sample the stacks running on every CPU and count them, symbolized.\n"
	       "\v"
	       "Prints folded stacks (comm;frame;...;frame count), the input of\n"
	       "flamegraph.pl, speedscope and inferno, outermost frame first.\n"
	       "\n"
	       "Examples:\n"
	       "  profile -d 10             # every process, for 10 s\n"
	       "  profile -p 185 -F 99      # process 185, 99 samples a second\n"
	       "  profile -d 5 --svg cpu.svg  # a flame graph too\n"
	       "  profile -K --top 10       # the 10 kernel functions most seen\n"
	       "  profile -j -L -d 5        # JSON Lines with source lines\n",
	.options = BPFKIT_OPT_FILTERS | BPFKIT_OPT_JSON | BPFKIT_OPT_STACKS,
	.own_options = own_options,
	.own_parser = parse_own,
};

static const struct bpfkit_stacks_unit unit = {
	.title = "profile",
	.events = "samples",
	.name = "samples",
	.divisor = 1,
};

int main(int argc, char **argv)
{
	struct bpfkit_sampling sampling = {};
	struct profile_bpf *skel = NULL;
	int err;

	/* Parse options; check privileges, tracefs and kernel BTF. */
	bpfkit_setup(&tool, argc, argv);

	/* Open the BPF object. */
	skel = profile_bpf__open_opts(bpfkit_open_opts());
	if (!skel)
		return bpfkit_open_failed();

	/* Load and verify. */
	err = bpfkit_load(skel->skeleton);
	if (err)
		goto cleanup;

	/* A perf event on every CPU runs the sampling program. */
	err = bpfkit_attach_sampling(skel->progs.sample, env.hz, &sampling);
	if (err)
		goto cleanup;

	/* Sample until -d or a signal, then print the stacks counted. */
	err = bpfkit_stacks_run(skel->skeleton, &sampling, &unit);

cleanup:
	bpfkit_detach_sampling(&sampling);
	profile_bpf__destroy(skel);
	return bpfkit_exit_code(err);
}
