// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * biolatency: block I/O latency as a histogram, for all disks, per disk
 * or per operation, from issue or from queueing to completion.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "blockio.h"
#include "cli.h"
#include "diag.h"
#include "histogram.h"
#include "kernel.h"
#include "output.h"
#include "setup.h"
#include "biolatency.h"
#include "biolatency.skel.h"

static struct {
	bool queued; /* -Q */
	bool per_disk; /* -D */
	bool per_op; /* -F */
} env;

static const struct argp_option own_options[] = {
	{ "queued", 'Q', NULL, 0,
	  "Include the time queued in the kernel (from queueing, not issue)",
	  0 },
	{ "disks", 'D', NULL, 0, "A histogram per disk", 0 },
	{ "flag", 'F', NULL, 0, "A histogram per operation and its flags", 0 },
	{},
};

static error_t parse_own(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case 'Q':
		env.queued = true;
		return 0;
	case 'D':
		env.per_disk = true;
		return 0;
	case 'F':
		env.per_op = true;
		return 0;
	}
	return ARGP_ERR_UNKNOWN;
}

static const struct bpfkit_tool tool = {
	.name = "biolatency",
	.doc = "Summarize block I/O latency as a histogram.\n"
	       "\v"
	       "Latency runs from issue to the device (or, with -Q, from the\n"
	       "request's queueing) to completion.\n"
	       "\n"
	       "Examples:\n"
	       "  biolatency               # one histogram until Ctrl-C\n"
	       "  biolatency 1 10          # every second, 10 times\n"
	       "  biolatency -m -T 5       # milliseconds, with times, every 5 s\n"
	       "  biolatency -D -Q         # per disk, queued time included\n"
	       "  biolatency -F --disk sda -j  # per operation on sda, JSON Lines\n",
	.args_doc = "[INTERVAL [COUNT]]",
	.options = BPFKIT_OPT_JSON | BPFKIT_OPT_HIST | BPFKIT_OPT_DISK,
	.own_options = own_options,
	.own_parser = parse_own,
};

static void print_key(FILE *f, const void *key, const struct bpfkit_hist *h)
{
	const struct biolatency_key *k = key;
	char buf[64];

	if (env.per_disk) {
		bpfkit_disk_name(k->dev, buf, sizeof(buf));
		fprintf(f, "disk = %s%s", buf, env.per_op ? " " : "");
	}
	if (env.per_op) {
		bpfkit_rq_op_name(k->op, buf, sizeof(buf));
		fprintf(f, "flags = %s", buf);
	}
}

static void json_key(struct bpfkit_json *j, const void *key,
		     const struct bpfkit_hist *h)
{
	const struct biolatency_key *k = key;
	char buf[64];

	if (env.per_disk) {
		bpfkit_disk_name(k->dev, buf, sizeof(buf));
		bpfkit_json_str(j, "disk", buf, sizeof(buf));
	}
	if (env.per_op) {
		bpfkit_rq_op_name(k->op, buf, sizeof(buf));
		bpfkit_json_str(j, "flags", buf, sizeof(buf));
	}
}

static int by_disk_op(const void *a, const void *b)
{
	const struct biolatency_key *x = a, *y = b;

	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	return x->op < y->op ? -1 : x->op > y->op;
}

static void metric_key(const void *key, const struct bpfkit_hist *h,
		       const char **labels, char *buf, size_t size)
{
	const struct biolatency_key *k = key;
	int n = 0;

	if (env.per_disk) {
		bpfkit_disk_name(k->dev, buf, size / 2);
		labels[n++] = "disk";
		labels[n++] = buf;
	}
	if (env.per_op) {
		bpfkit_rq_op_name(k->op, buf + size / 2, size / 2);
		labels[n++] = "flags";
		labels[n++] = buf + size / 2;
	}
	labels[n] = NULL;
}

int main(int argc, char **argv)
{
	struct bpfkit_hist_keys keys = {
		.key_size = sizeof(struct biolatency_key),
		.metric = "bpfkit_biolatency_request_seconds",
		.metric_help = "Block I/O request latency",
	};
	struct biolatency_bpf *skel = NULL;
	int err;

	/* Parse options; check privileges, tracefs and kernel BTF. */
	bpfkit_setup(&tool, argc, argv);

	/* Open the BPF object. */
	skel = biolatency_bpf__open_opts(bpfkit_open_opts());
	if (!skel)
		return bpfkit_open_failed();

	/* Our options into .rodata; the queue program for -Q. */
	skel->rodata->queued = env.queued;
	skel->rodata->per_disk = env.per_disk;
	skel->rodata->per_op = env.per_op;
	bpfkit_sparse_map(skel->maps.biolatency_hists);
	bpfkit_blockio_prepare(skel->progs.io_start, skel->progs.rq_insert,
			       env.queued);

	/* Load and verify. */
	err = bpfkit_load(skel->skeleton);
	if (err)
		goto cleanup;

	/* Histograms keyed as -D, -F say. */
	if (env.per_disk || env.per_op) {
		keys.print_key = print_key;
		keys.json_key = json_key;
		keys.compare = by_disk_op;
		keys.metric_key = metric_key;
	}

	/* Attach to the block tracepoints; report every interval until COUNT. */
	err = bpfkit_hist_run(skel->skeleton, skel->maps.biolatency_hists,
			      &keys);

cleanup:
	biolatency_bpf__destroy(skel);
	return bpfkit_exit_code(err);
}
