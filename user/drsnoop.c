// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * drsnoop: print every direct reclaim a task ran, the page allocator's or
 * its memory cgroup's, with how long it stalled and the pages reclaimed.
 */
#include <errno.h>
#include <stdio.h>
#include "channel.h"
#include "cli.h"
#include "diag.h"
#include "output.h"
#include "run.h"
#include "setup.h"
#include "tracefs.h"
#include "drsnoop.h"
#include "drsnoop.skel.h"

/* Column widths, for the header and every row. */
enum { TID_W = 7, LAT_W = 10, PAGES_W = 8, ORDER_W = 5 };

static const struct bpfkit_tool tool = {
	.name = "drsnoop",
	.doc = "Trace direct reclaim: each stall of a task reclaiming memory itself, global\n"
	       "or in its memory cgroup, with its latency and the pages reclaimed.\n"
	       "\v"
	       "KIND is global (the page allocator's) or memcg (a memory cgroup over its\n"
	       "limit: memory.high, memory.max or v1's memory.limit_in_bytes).\n"
	       "\n"
	       "Examples:\n"
	       "  drsnoop                   # every direct reclaim on the system\n"
	       "  drsnoop -p 181 -T         # process 181's, with times\n"
	       "  drsnoop --cgroup /sys/fs/cgroup/db -j  # a cgroup's, as JSON Lines\n",
	.options = BPFKIT_OPT_EVENTS,
	.tracepoints =
		(const struct bpfkit_tracepoint[]){
			{ "vmscan", "mm_vmscan_direct_reclaim_begin",
			  "Linux 2.6.36+" },
			{ "vmscan", "mm_vmscan_direct_reclaim_end",
			  "Linux 2.6.36+" },
			{},
		},
};

static const char *kind_name(__u32 kind)
{
	return kind == DRSNOOP_MEMCG ? "memcg" : "global";
}

static enum bpfkit_verdict print_event(void *ctx, const void *data, size_t size)
{
	const struct drsnoop_event *e = data;
	struct bpfkit_json j;

	if (size < sizeof(*e))
		return BPFKIT_UNREADABLE;
	if (bpfkit_output_json()) {
		bpfkit_json_begin(&j, stdout, &e->rec);
		bpfkit_json_task(&j, e->pid, e->tid, e->uid, e->comm);
		bpfkit_json_str(&j, "kind", kind_name(e->kind), 8);
		bpfkit_json_uint(&j, "latency_ns", e->latency_ns);
		bpfkit_json_uint(&j, "pages", e->nr_reclaimed);
		bpfkit_json_int(&j, "order", e->order);
		bpfkit_json_uint(&j, "gfp_flags", e->gfp_flags);
		bpfkit_json_end(&j);
		return BPFKIT_SHOWN;
	}
	bpfkit_print_time(&e->rec);
	bpfkit_print_task(e->pid, e->comm);
	printf("%-*u %*.3f %*llu %*d %s\n", TID_W, e->tid, LAT_W,
	       e->latency_ns / 1e6, PAGES_W,
	       (unsigned long long)e->nr_reclaimed, ORDER_W, e->order,
	       kind_name(e->kind));
	return BPFKIT_SHOWN;
}

int main(int argc, char **argv)
{
	struct drsnoop_bpf *skel = NULL;
	struct bpfkit_channel *ch = NULL;
	bool memcg;
	int err;

	/* Parse options; check privileges, tracefs and the reclaim tracepoints. */
	bpfkit_setup(&tool, argc, argv);

	/* Open the BPF object. */
	skel = drsnoop_bpf__open_opts(bpfkit_open_opts());
	if (!skel)
		return bpfkit_open_failed();

	/* A kernel without memory cgroups (CONFIG_MEMCG) has no memcg reclaim. */
	memcg = bpfkit_tracepoint_exists("vmscan",
					 "mm_vmscan_memcg_reclaim_begin") &&
		bpfkit_tracepoint_exists("vmscan",
					 "mm_vmscan_memcg_reclaim_end");
	bpf_program__set_autoload(skel->progs.memcg_begin, memcg);
	bpf_program__set_autoload(skel->progs.memcg_end, memcg);

	/* Load and verify. */
	err = bpfkit_load(skel->skeleton);
	if (err)
		goto cleanup;

	/* Open the event channel, then attach to the reclaim tracepoints. */
	err = bpfkit_attach(skel->skeleton, print_event, NULL, &ch);
	if (err)
		goto cleanup;

	/* Print the header, then events until a signal or --duration. */
	bpfkit_print_header("%-*s %-*s %-*s %*s %*s %*s %s\n", BPFKIT_PID_W,
			    "PID", BPFKIT_COMM_W, "COMM", TID_W, "TID", LAT_W,
			    "LAT(ms)", PAGES_W, "PAGES", ORDER_W, "ORDER",
			    "KIND");
	err = bpfkit_run(ch, NULL);

cleanup:
	bpfkit_channel_free(ch);
	drsnoop_bpf__destroy(skel);
	return bpfkit_exit_code(err);
}
