// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * fsslower: print every read, write, open and fsync of a regular file
 * slower than a threshold, with its file, file system type and latency.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "channel.h"
#include "cli.h"
#include "diag.h"
#include "fsops.h"
#include "output.h"
#include "setup.h"
#include "fsslower.h"
#include "fsslower.skel.h"

/* Column widths, for the header and every row. */
enum { COMM_W = 15, PID_W = 7, BYTES_W = 7, OFF_W = 8, LAT_W = 9, FS_W = 8 };

static struct {
	unsigned long min_ms; /* -m */
	struct bpfkit_fs_types types; /* -t */
} env = { .min_ms = 10 };

static const struct argp_option options[] = {
	{ "min", 'm', "MS", 0,
	  "Show calls of MS milliseconds or longer only (default 10; 0: all)",
	  0 },
	BPFKIT_FS_TYPES_OPTION,
	{ "time", 'T', NULL, 0, "Include a wall-clock time column", 0 },
	{},
};

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case 'm':
		return bpfkit_parse_ulong("-m/--min", arg, 0, 86400000,
					  &env.min_ms);
	case 't':
		return bpfkit_fs_parse_types(arg, &env.types);
	case 'T':
		bpfkit_opts.output.wall_time = true;
		return 0;
	}
	return ARGP_ERR_UNKNOWN;
}

static const struct bpfkit_tool tool = {
	.name = "fsslower",
	.doc = "Trace file system reads, writes, opens and fsyncs slower than a threshold.\n"
	       "\v"
	       "Calls are timed from syscall entry to exit (read, write, pread64,\n"
	       "pwrite64, open, openat, openat2, fsync, fdatasync) on regular files\n"
	       "only; I/O by mmap, io_uring, readv/writev, sendfile and the kernel's\n"
	       "own writeback is not seen, nor opens that fail.\n"
	       "\n"
	       "Examples:\n"
	       "  fsslower                 # calls of 10 ms or longer\n"
	       "  fsslower -m 1 -t ext4,xfs  # 1 ms or longer, on ext4 and xfs\n"
	       "  fsslower -m 0 -p 181     # every call of process 181\n"
	       "  fsslower -c postgres -j  # postgres's slow calls, JSON Lines\n",
	.options = BPFKIT_OPT_FILTERS | BPFKIT_OPT_JSON | BPFKIT_OPT_CHANNEL |
		   BPFKIT_OPT_METRICS,
	.own_options = options,
	.own_parser = parse_arg,
};

static const char op_letters[BPFKIT_FS_OPS] = {
	[BPFKIT_FS_READ] = 'R',
	[BPFKIT_FS_WRITE] = 'W',
	[BPFKIT_FS_OPEN] = 'O',
	[BPFKIT_FS_FSYNC] = 'F',
};

static void print_json(const struct fsslower_event *e, size_t name_len)
{
	struct bpfkit_json j;

	bpfkit_json_begin(&j, stdout, &e->rec);
	bpfkit_json_task(&j, e->pid, e->tid, e->uid, e->comm);
	bpfkit_json_str(&j, "op", bpfkit_fs_op_name(e->op), 8);
	bpfkit_json_int(&j, "ret", e->ret);
	/* A syscall's error is -4095..-1; a record's other values are not. */
	if (e->ret < 0)
		bpfkit_json_str(&j, "error",
				e->ret >= -4095 ?
					strerrorname_np((int)-e->ret) ?: "?" :
					"?",
				32);
	if (e->offset >= 0)
		bpfkit_json_int(&j, "offset", e->offset);
	bpfkit_json_double(&j, "latency_ms", e->ns / 1e6);
	bpfkit_json_str(&j, "fstype", e->fstype, sizeof(e->fstype));
	bpfkit_json_str(&j, "file", e->file, name_len);
	bpfkit_json_end(&j);
}

static enum bpfkit_verdict print_event(void *ctx, const void *data, size_t size)
{
	const size_t head = offsetof(struct fsslower_event, file);
	const struct fsslower_event *e = data;
	size_t name_len;

	/* Accept a header and any part of the name; perf may pad the end. */
	if (size <= head || e->op >= BPFKIT_FS_OPS)
		return BPFKIT_UNREADABLE;
	name_len = strnlen(e->file, size - head < BPFKIT_FS_NAME_LEN ?
					    size - head :
					    BPFKIT_FS_NAME_LEN);
	if (bpfkit_output_json()) {
		print_json(e, name_len);
		return BPFKIT_SHOWN;
	}
	bpfkit_print_time(&e->rec);
	bpfkit_print_str(e->comm, sizeof(e->comm), COMM_W);
	printf("%-*u %c ", PID_W, e->pid, op_letters[e->op]);
	/* Bytes and offset for reads and writes; an error for any. */
	if (e->offset >= 0 || e->ret < 0)
		printf("%-*lld ", BYTES_W, (long long)e->ret);
	else
		printf("%-*s ", BYTES_W, "-");
	if (e->offset >= 0)
		printf("%-*lld ", OFF_W, (long long)e->offset / 1024);
	else
		printf("%-*s ", OFF_W, "-");
	printf("%*.2f ", LAT_W, e->ns / 1e6);
	bpfkit_print_str(e->fstype, sizeof(e->fstype), FS_W);
	bpfkit_col_escape(stdout, e->file, name_len, false);
	putchar('\n');
	return BPFKIT_SHOWN;
}

int main(int argc, char **argv)
{
	struct bpfkit_channel *ch = NULL;
	struct fsslower_bpf *skel = NULL;
	int err;

	/* Parse options; check privileges, tracefs and kernel BTF. */
	bpfkit_setup(&tool, argc, argv);

	/* Open the BPF object. */
	skel = fsslower_bpf__open_opts(bpfkit_open_opts());
	if (!skel)
		return bpfkit_open_failed();

	/* Our threshold and -t; the syscalls this kernel has. */
	skel->rodata->min_ns = env.min_ms * 1000000ULL;
	err = bpfkit_fs_prepare(skel->skeleton, &env.types);
	if (err)
		goto cleanup;

	/* Load and verify. */
	err = bpfkit_load(skel->skeleton);
	if (err)
		goto cleanup;

	/* Open the event channel, then attach to the syscalls. */
	err = bpfkit_attach(skel->skeleton, print_event, NULL, &ch);
	if (err)
		goto cleanup;

	bpfkit_print_header("%-*s %-*s T %-*s %-*s %*s %-*s FILENAME\n", COMM_W,
			    "COMM", PID_W, "PID", BYTES_W, "BYTES", OFF_W,
			    "OFF_KB", LAT_W, "LAT(ms)", FS_W, "FSTYPE");
	err = bpfkit_run(ch, NULL);

cleanup:
	bpfkit_channel_free(ch);
	fsslower_bpf__destroy(skel);
	return bpfkit_exit_code(err);
}
