// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * storm: count the records the storm BPF program sends for every
 * getppid(2), through the event channel or, with --stock, through
 * libbpf's default perf buffer setup. --slow makes the reader slow on
 * purpose so that a small buffer overflows; --no-task-ids sends records
 * without the task's ids (what those cost, in `make bench`). Used by tests
 * and `make bench`.
 */
#include <errno.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/epoll.h>
#include "channel.h"
#include "cli.h"
#include "diag.h"
#include "run.h"
#include "setup.h"
#include "storm.h"
#include "storm.skel.h"

enum { OPT_SLOW = 0x2000, OPT_STOCK, OPT_NO_TASK_IDS };

static unsigned long slow_us;
static bool stock, no_task_ids;
static __u64 stock_delivered, stock_lost;

static const struct argp_option own_options[] = {
	{ "slow", OPT_SLOW, "USEC", 0, "Sleep USEC after each record", 0 },
	{ "stock", OPT_STOCK, NULL, 0, "Use perf_buffer__new() defaults", 0 },
	{ "no-task-ids", OPT_NO_TASK_IDS, NULL, 0,
	  "Leave the task's cgroup, namespaces and pid out of each record", 0 },
	{},
};

static error_t parse_own(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case OPT_SLOW:
		return bpfkit_parse_ulong("--slow", arg, 0, 1000000, &slow_us);
	case OPT_STOCK:
		stock = true;
		return 0;
	case OPT_NO_TASK_IDS:
		no_task_ids = true;
		return 0;
	}
	return ARGP_ERR_UNKNOWN;
}

static const struct bpfkit_tool tool = {
	.name = "storm",
	.doc = "Count one record per getppid(2) call.",
	.options = BPFKIT_OPT_EVENTS,
	.own_options = own_options,
	.own_parser = parse_own,
};

static enum bpfkit_verdict on_event(void *ctx, const void *data, size_t size)
{
	if (slow_us)
		usleep(slow_us);
	return BPFKIT_SHOWN;
}

static void on_stock_event(void *ctx, int cpu, void *data, __u32 size)
{
	stock_delivered++;
}

static void on_stock_lost(void *ctx, int cpu, __u64 cnt)
{
	stock_lost += cnt;
}

/*
 * The stock reader: whenever the perf buffers wake the run loop, libbpf
 * reads them all (a poll of its epoll set would find their wakeups taken
 * by the loop's).
 */
static int consume_stock(void *pb)
{
	int err = perf_buffer__consume(pb);

	return err < 0 ? err : 0;
}

/* The baseline: libbpf's stock perf buffer, as libbpf-tools set it up. */
static int run_stock(struct storm_bpf *skel)
{
	struct perf_buffer *pb;
	int err = 0;

	pb = perf_buffer__new(bpf_map__fd(skel->maps.stock_perf), 64,
			      on_stock_event, on_stock_lost, NULL, NULL);
	if (!pb)
		return -errno;
	err = bpfkit_run_watch(perf_buffer__epoll_fd(pb), EPOLLIN,
			       consume_stock, pb);
	if (!err)
		err = bpfkit_attach(skel->skeleton, NULL, NULL, NULL);
	if (!err)
		err = bpfkit_run(NULL, NULL);
	perf_buffer__consume(pb);
	fprintf(stderr, "storm: %llu events, %llu lost\n", stock_delivered,
		stock_lost);
	perf_buffer__free(pb);
	return err;
}

int main(int argc, char **argv)
{
	struct bpfkit_channel *ch = NULL;
	struct storm_bpf *skel = NULL;
	int err;

	/* Parse options; check privileges, tracefs and kernel BTF. */
	bpfkit_setup(&tool, argc, argv);

	skel = storm_bpf__open_opts(bpfkit_open_opts());
	if (!skel)
		return bpfkit_open_failed();
	skel->rodata->stock = stock;
	skel->rodata->no_task_ids = no_task_ids;
	err = bpfkit_load(skel->skeleton);
	if (err)
		goto cleanup;
	if (stock)
		err = run_stock(skel);
	else
		err = bpfkit_attach(skel->skeleton, on_event, NULL, &ch) ?:
			      bpfkit_run(ch, NULL);

cleanup:
	bpfkit_channel_free(ch);
	storm_bpf__destroy(skel);
	return bpfkit_exit_code(err);
}
