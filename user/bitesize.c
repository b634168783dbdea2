// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * bitesize: the sizes of block I/O requests as a histogram per process,
 * in Kbytes.
 */
#include <stdio.h>
#include "cli.h"
#include "diag.h"
#include "histogram.h"
#include "kernel.h"
#include "output.h"
#include "setup.h"
#include "tracefs.h"
#include "bitesize.h"
#include "bitesize.skel.h"

static const struct bpfkit_tool tool = {
	.name = "bitesize",
	.doc = "Summarize block I/O sizes as a histogram per process.\n"
	       "\v"
	       "Each request counts as it is issued to the device, for the\n"
	       "process that issued it: the one that made it, or a kernel thread\n"
	       "(kworker, writeback, a loop device's worker) that issued it later.\n"
	       "\n"
	       "Examples:\n"
	       "  bitesize                 # histograms until Ctrl-C\n"
	       "  bitesize 1 10            # every second, 10 times\n"
	       "  bitesize -c dd -T 5      # dd's requests, with times, every 5 s\n"
	       "  bitesize --disk sda -j   # sda only, JSON Lines\n",
	.args_doc = "[INTERVAL [COUNT]]",
	.options = BPFKIT_OPT_FILTERS | BPFKIT_OPT_JSON | BPFKIT_OPT_HIST |
		   BPFKIT_OPT_DISK,
};

int main(int argc, char **argv)
{
	struct bpfkit_hist_keys keys = {
		.key_size = sizeof(bitesize_key),
		.tasks = true,
		.metric = "bpfkit_bitesize_request_bytes",
		.metric_help = "Block I/O request sizes",
	};
	struct bitesize_bpf *skel = NULL;
	int err;

	/* Parse options; check privileges, tracefs and kernel BTF. */
	bpfkit_setup(&tool, argc, argv);
	/* Bytes in Kbyte buckets, a histogram per process. */
	bpfkit_hist_io_sizes();

	/* Open the BPF object. */
	skel = bitesize_bpf__open_opts(bpfkit_open_opts());
	if (!skel)
		return bpfkit_open_failed();

	/* Histograms take memory as processes come, where the kernel can. */
	bpfkit_sparse_map(skel->maps.bitesize_hists);
	/* tp_btf where it loads: the request's size without a helper call. */
	bpfkit_tp_btf_autoload(
		(struct bpf_program *const[]){ skel->progs.rq_issue_btf },
		(struct bpf_program *const[]){ skel->progs.rq_issue }, 1,
		bpfkit_opts.btf_path, "block_rq_issue");

	/* Load and verify. */
	err = bpfkit_load(skel->skeleton);
	if (err)
		goto cleanup;

	/* Attach to the block tracepoints; report every interval until COUNT. */
	err = bpfkit_hist_run(skel->skeleton, skel->maps.bitesize_hists, &keys);

cleanup:
	bitesize_bpf__destroy(skel);
	return bpfkit_exit_code(err);
}
