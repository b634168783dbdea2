// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * fsdist: file system read, write, open and fsync latency as histograms,
 * one per file system type and operation.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "diag.h"
#include "fsops.h"
#include "histogram.h"
#include "kernel.h"
#include "output.h"
#include "setup.h"
#include "fsdist.h"
#include "fsdist.skel.h"

static struct bpfkit_fs_types types; /* -t */

static const struct argp_option own_options[] = {
	BPFKIT_FS_TYPES_OPTION,
	{},
};

static error_t parse_own(int key, char *arg, struct argp_state *state)
{
	if (key == 't')
		return bpfkit_fs_parse_types(arg, &types);
	return ARGP_ERR_UNKNOWN;
}

static const struct bpfkit_tool tool = {
	.name = "fsdist",
	.doc = "Summarize file system read, write, open and fsync latency as histograms.\n"
	       "\v"
	       "One histogram per file system type and operation, timed from syscall\n"
	       "entry to exit (read, write, pread64, pwrite64, open, openat, openat2,\n"
	       "fsync, fdatasync) on regular files only; I/O by mmap, io_uring,\n"
	       "readv/writev, sendfile and the kernel's own writeback is not seen, nor\n"
	       "opens that fail.\n"
	       "\n"
	       "Examples:\n"
	       "  fsdist                 # histograms until Ctrl-C\n"
	       "  fsdist -t ext4 1 10    # ext4 only, every second, 10 times\n"
	       "  fsdist -m -T 5         # milliseconds, with times, every 5 s\n"
	       "  fsdist -c postgres -j  # postgres's calls, JSON Lines\n",
	.args_doc = "[INTERVAL [COUNT]]",
	.options = BPFKIT_OPT_FILTERS | BPFKIT_OPT_JSON | BPFKIT_OPT_HIST,
	.own_options = own_options,
	.own_parser = parse_own,
};

static void print_key(FILE *f, const void *key, const struct bpfkit_hist *h)
{
	const struct fsdist_key *k = key;

	fprintf(f, "fstype = %.*s, operation = %s", BPFKIT_FS_TYPE_LEN,
		k->fstype, bpfkit_fs_op_name(k->op));
}

static void json_key(struct bpfkit_json *j, const void *key,
		     const struct bpfkit_hist *h)
{
	const struct fsdist_key *k = key;

	bpfkit_json_str(j, "fstype", k->fstype, sizeof(k->fstype));
	bpfkit_json_str(j, "op", bpfkit_fs_op_name(k->op), 8);
}

/* By type, then by operation. */
static int by_type_op(const void *a, const void *b)
{
	const struct fsdist_key *x = a, *y = b;
	int c = strncmp(x->fstype, y->fstype, sizeof(x->fstype));

	if (c)
		return c;
	return x->op < y->op ? -1 : x->op > y->op;
}

static void metric_key(const void *key, const struct bpfkit_hist *h,
		       const char **labels, char *buf, size_t size)
{
	const struct fsdist_key *k = key;

	snprintf(buf, size, "%.*s", BPFKIT_FS_TYPE_LEN, k->fstype);
	labels[0] = "fstype";
	labels[1] = buf;
	labels[2] = "op";
	labels[3] = bpfkit_fs_op_name(k->op);
	labels[4] = NULL;
}

static const struct bpfkit_hist_keys keys = {
	.key_size = sizeof(struct fsdist_key),
	.print_key = print_key,
	.json_key = json_key,
	.compare = by_type_op,
	.metric = "bpfkit_fsdist_operation_seconds",
	.metric_help = "File system operation latency, syscall entry to exit",
	.metric_key = metric_key,
};

int main(int argc, char **argv)
{
	struct fsdist_bpf *skel = NULL;
	int err;

	/* Parse options; check privileges, tracefs and kernel BTF. */
	bpfkit_setup(&tool, argc, argv);

	/* Open the BPF object. */
	skel = fsdist_bpf__open_opts(bpfkit_open_opts());
	if (!skel)
		return bpfkit_open_failed();

	/* -t; the syscalls this kernel has; a map that grows with its keys. */
	err = bpfkit_fs_prepare(skel->skeleton, &types);
	if (err)
		goto cleanup;
	bpfkit_sparse_map(skel->maps.fsdist_hists);

	/* Load and verify. */
	err = bpfkit_load(skel->skeleton);
	if (err)
		goto cleanup;

	/* Attach to the syscalls; report every interval until COUNT. */
	err = bpfkit_hist_run(skel->skeleton, skel->maps.fsdist_hists, &keys);

cleanup:
	fsdist_bpf__destroy(skel);
	return bpfkit_exit_code(err);
}
