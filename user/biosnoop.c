// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * biosnoop: print every block I/O as it completes: who started it, the
 * disk, operation, sector, size, and its queue and service latency.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "blockio.h"
#include "channel.h"
#include "cli.h"
#include "diag.h"
#include "output.h"
#include "run.h"
#include "setup.h"
#include "biosnoop.h"
#include "biosnoop.skel.h"

/* Column widths, for the header and every row. */
enum {
	TIME_W = 11,
	COMM_W = 16,
	PID_W = 7,
	DISK_W = 9,
	OP_W = 14,
	SECTOR_W = 12,
	BYTES_W = 8,
	LAT_W = 8,
};

static struct {
	bool queued; /* -Q */
	__u64 start_ns; /* CLOCK_MONOTONIC when tracing began */
} env;

static const struct argp_option own_options[] = {
	{ "queued", 'Q', NULL, 0,
	  "Also show the time queued in the kernel before issue", 0 },
	{},
};

static error_t parse_own(int key, char *arg, struct argp_state *state)
{
	if (key != 'Q')
		return ARGP_ERR_UNKNOWN;
	env.queued = true;
	return 0;
}

static const struct bpfkit_tool tool = {
	.name = "biosnoop",
	.doc = "Print every block I/O as it completes, with its latency.\n"
	       "\v"
	       "The PID and COMM are the task that queued the I/O, which may be\n"
	       "a kernel thread (kworker, writeback).\n"
	       "\n"
	       "Examples:\n"
	       "  biosnoop                # every block I/O until Ctrl-C\n"
	       "  biosnoop -Q             # with the time queued before issue\n"
	       "  biosnoop --disk sda -j  # sda only, JSON Lines\n",
	.options = BPFKIT_OPT_JSON | BPFKIT_OPT_TIME | BPFKIT_OPT_CHANNEL |
		   BPFKIT_OPT_DISK,
	.own_options = own_options,
	.own_parser = parse_own,
};

static void print_json(const void *event)
{
	const struct biosnoop_event *e = event;
	char disk[64], op[64];
	struct bpfkit_json j;

	bpfkit_disk_name(e->dev, disk, sizeof(disk));
	bpfkit_rq_op_name(e->op, op, sizeof(op));

	bpfkit_json_begin(&j, stdout, &e->rec);
	bpfkit_json_double(&j, "time_s",
			   (e->rec.ktime_ns - env.start_ns) / 1e9);
	bpfkit_json_str(&j, "comm", e->comm, sizeof(e->comm));
	bpfkit_json_uint(&j, "pid", e->pid);
	bpfkit_json_str(&j, "disk", disk, strlen(disk));
	bpfkit_json_str(&j, "op", op, strlen(op));
	bpfkit_json_uint(&j, "sector", e->sector);
	bpfkit_json_uint(&j, "bytes", e->bytes);
	if (env.queued)
		bpfkit_json_uint(&j, "queue_ns", e->queue_ns);
	bpfkit_json_uint(&j, "service_ns", e->service_ns);
	bpfkit_json_end(&j);
}

static void print_row(const void *event)
{
	const struct biosnoop_event *e = event;
	char disk[64], op[64];

	bpfkit_disk_name(e->dev, disk, sizeof(disk));
	bpfkit_rq_op_name(e->op, op, sizeof(op));
	bpfkit_print_time(&e->rec);
	printf("%-*.6f ", TIME_W, (e->rec.ktime_ns - env.start_ns) / 1e9);
	bpfkit_print_str(e->comm, sizeof(e->comm), COMM_W);
	printf("%-*u %-*s %-*s %-*llu %-*u ", PID_W, e->pid, DISK_W, disk, OP_W,
	       op, SECTOR_W, (unsigned long long)e->sector, BYTES_W, e->bytes);
	if (env.queued)
		printf("%*.3f ", LAT_W, e->queue_ns / 1e6);
	printf("%*.3f\n", LAT_W, e->service_ns / 1e6);
}

static struct bpfkit_printer printer = {
	.size = sizeof(struct biosnoop_event),
	.text = print_row,
	.json = print_json,
};

int main(int argc, char **argv)
{
	struct bpfkit_channel *ch = NULL;
	struct biosnoop_bpf *skel = NULL;
	struct timespec ts;
	int err;

	/* Parse options; check privileges, tracefs and kernel BTF. */
	bpfkit_setup(&tool, argc, argv);

	/* Open the BPF object. */
	skel = biosnoop_bpf__open_opts(bpfkit_open_opts());
	if (!skel)
		return bpfkit_open_failed();

	/* The queue program too: a request's task is best known there. */
	bpfkit_blockio_prepare(skel->progs.io_start, skel->progs.rq_insert,
			       true);

	/* Load and verify. */
	err = bpfkit_load(skel->skeleton);
	if (err)
		goto cleanup;

	/* Open the event channel, then attach to the block tracepoints. */
	err = bpfkit_attach(skel->skeleton, bpfkit_print_event, &printer, &ch);
	if (err)
		goto cleanup;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	env.start_ns = ts.tv_sec * 1000000000ULL + ts.tv_nsec;

	bpfkit_print_header("%-*s %-*s %-*s %-*s %-*s %-*s %-*s %s%*s\n",
			    TIME_W, "TIME(s)", COMM_W, "COMM", PID_W, "PID",
			    DISK_W, "DISK", OP_W, "OP", SECTOR_W, "SECTOR",
			    BYTES_W, "BYTES", env.queued ? "QUE(ms)  " : "",
			    LAT_W, "LAT(ms)");
	err = bpfkit_run(ch, NULL);

cleanup:
	bpfkit_channel_free(ch);
	biosnoop_bpf__destroy(skel);
	return bpfkit_exit_code(err);
}
