// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * cachestat: pages added to the page cache, deleted from it and dirtied,
 * every interval. Page cache hits are not counted: no tracepoint marks
 * them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include "cli.h"
#include "diag.h"
#include "metrics.h"
#include "output.h"
#include "run.h"
#include "setup.h"
#include "tracefs.h"
#include "cachestat.h"
#include "cachestat.skel.h"

enum { COL_W = 10 }; /* each count's column */

static struct {
	unsigned long interval; /* INTERVAL, seconds */
	unsigned long count; /* COUNT intervals; 0: until stopped */
	bool have_interval;
} env = { .interval = 1 };

static const struct argp_option options[] = {
	{ "time", 'T', NULL, 0, "Print the time before each interval", 0 },
	{},
};

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case 'T':
		bpfkit_opts.output.wall_time = true;
		return 0;
	case ARGP_KEY_ARG:
		if (!env.have_interval) {
			env.have_interval = true;
			return bpfkit_parse_ulong("INTERVAL", arg, 1, 86400,
						  &env.interval);
		}
		if (env.count)
			return bpfkit_usage_error(
				"unexpected argument '%s': expected at most [INTERVAL [COUNT]]; see 'cachestat --help'",
				arg);
		return bpfkit_parse_ulong("COUNT", arg, 1, 1000000000,
					  &env.count);
	}
	return ARGP_ERR_UNKNOWN;
}

static const struct bpfkit_tool tool = {
	.name = "cachestat",
	.doc = "Count pages added to the page cache, deleted from it and dirtied, every interval.\n"
	       "\v"
	       "It cannot count page cache hits (reads the cache served): no\n"
	       "tracepoint marks them (libbpf-tools' cachestat counts them by kprobes\n"
	       "on mark_page_accessed). Filters apply to the task each event runs in:\n"
	       "an addition in the reader's, a deletion in the truncating task's or\n"
	       "in reclaim's (kswapd), a dirtying in the writer's.\n"
	       "\n"
	       "Examples:\n"
	       "  cachestat              # every second until Ctrl-C\n"
	       "  cachestat 5 12 -T      # every 5 s, 12 times, with times\n"
	       "  cachestat -c postgres  # postgres's pages only\n"
	       "  cachestat -j 1 10      # JSON Lines, every second, 10 times\n",
	.args_doc = "[INTERVAL [COUNT]]",
	.options = BPFKIT_OPT_FILTERS | BPFKIT_OPT_JSON | BPFKIT_OPT_METRICS,
	.own_options = options,
	.own_parser = parse_arg,
	.tracepoints =
		(const struct bpfkit_tracepoint[]){
			{ "filemap", "mm_filemap_add_to_page_cache",
			  "Linux 3.10+" },
			{ "filemap", "mm_filemap_delete_from_page_cache",
			  "Linux 3.10+" },
			{} },
};

/* What the reports read: the map, the totals last reported. */
struct report {
	int map_fd;
	int ncpus;
	struct cachestat_counts *percpu; /* one slot a CPU */
	struct cachestat_counts last; /* the totals at the last report */
	unsigned int intervals;
};

/* The totals since the start, summed over the CPUs, into *SUM. */
static int totals(struct report *r, struct cachestat_counts *sum)
{
	__u32 zero = 0;
	int i, err;

	if (bpf_map_lookup_elem(r->map_fd, &zero, r->percpu)) {
		err = -errno;
		bpfkit_fail("read the counts", err);
		return err;
	}
	memset(sum, 0, sizeof(*sum));
	for (i = 0; i < r->ncpus; i++) {
		sum->added += r->percpu[i].added;
		sum->deleted += r->percpu[i].deleted;
		sum->dirtied += r->percpu[i].dirtied;
	}
	return 0;
}

/* Print what the interval since the last report counted. */
static int report(void *ctx)
{
	struct report *r = ctx;
	struct cachestat_counts now, d;
	struct bpfkit_json j;
	int err = totals(r, &now);

	if (err)
		return err;
	d.added = now.added - r->last.added;
	d.deleted = now.deleted - r->last.deleted;
	d.dirtied = now.dirtied - r->last.dirtied;
	r->last = now;
	r->intervals++;
	if (bpfkit_output_json()) {
		bpfkit_json_begin(&j, stdout, NULL);
		bpfkit_json_uint(&j, "interval", r->intervals);
		bpfkit_json_uint(&j, "added", d.added);
		bpfkit_json_uint(&j, "deleted", d.deleted);
		bpfkit_json_uint(&j, "dirtied", d.dirtied);
		bpfkit_json_end(&j);
	} else {
		bpfkit_print_time(NULL);
		printf("%*llu %*llu %*llu\n", COL_W,
		       (unsigned long long)d.added, COL_W,
		       (unsigned long long)d.deleted, COL_W,
		       (unsigned long long)d.dirtied);
	}
	return env.count && r->intervals >= env.count;
}

/* A scrape: the totals since the start, per event. */
static int fill_metrics(struct bpfkit_metrics *m, void *ctx)
{
	struct report *r = ctx;
	struct cachestat_counts now;
	const char *labels[3] = { "event", NULL, NULL };
	int err =
		totals(r, &now) ?:
				  bpfkit_metrics_family(
					  m, "bpfkit_cachestat_pages_total",
					  BPFKIT_COUNTER,
					  "Pages added to the page cache, deleted from it, dirtied");

	if (err)
		return err;
	labels[1] = "added";
	err = bpfkit_metrics_add(m, labels, now.added);
	labels[1] = "deleted";
	err = err ?: bpfkit_metrics_add(m, labels, now.deleted);
	labels[1] = "dirtied";
	return err ?: bpfkit_metrics_add(m, labels, now.dirtied);
}

/*
 * Keep the dirtying program this kernel's tracepoint takes: the folio's
 * (Linux 5.16 on) or the page's; neither: say so.
 */
static int pick_dirtied(struct cachestat_bpf *skel)
{
	bool folio =
		bpfkit_tracepoint_exists("writeback", "writeback_dirty_folio");

	if (!folio &&
	    !bpfkit_tracepoint_exists("writeback", "writeback_dirty_page")) {
		bpfkit_error(
			"this kernel has no writeback:writeback_dirty_folio tracepoint (Linux 5.16+) nor writeback_dirty_page (before); dirtied pages cannot be counted");
		return -ENOENT;
	}
	bpf_program__set_autoload(skel->progs.folio_dirtied, folio);
	bpf_program__set_autoload(skel->progs.page_dirtied, !folio);
	return 0;
}

int main(int argc, char **argv)
{
	struct report r = { .ncpus = libbpf_num_possible_cpus() };
	struct bpfkit_tick tick = { .fn = report, .ctx = &r };
	struct cachestat_bpf *skel = NULL;
	int err;

	/* Parse options; check privileges, tracefs, BTF, the filemap events. */
	bpfkit_setup(&tool, argc, argv);

	/* Open the BPF object. */
	skel = cachestat_bpf__open_opts(bpfkit_open_opts());
	if (!skel)
		return bpfkit_open_failed();

	/* The dirtying tracepoint this kernel has. */
	err = pick_dirtied(skel);
	if (err)
		goto cleanup;

	/* Load and verify. */
	err = bpfkit_load(skel->skeleton);
	if (err)
		goto cleanup;

	r.map_fd = bpf_map__fd(skel->maps.cachestat_counts);
	r.percpu = calloc(r.ncpus, sizeof(*r.percpu));
	if (!r.percpu) {
		err = -ENOMEM;
		bpfkit_fail("allocate the counts", err);
		goto cleanup;
	}

	/* Attach to the page cache's tracepoints. */
	err = bpfkit_attach(skel->skeleton, NULL, NULL, NULL);
	if (err)
		goto cleanup;

	/* A report every interval, until COUNT, -d or a signal. */
	bpfkit_print_header("%*s %*s %*s\n", COL_W, "ADDED", COL_W, "DELETED",
			    COL_W, "DIRTIED");
	tick.interval_ms = env.interval * 1000;
	bpfkit_metrics_source(fill_metrics, &r);
	err = bpfkit_run(NULL, &tick);

	/* The last, partial interval, unless COUNT ended the run. */
	if (!err && (!env.count || r.intervals < env.count)) {
		err = report(&r);
		err = err < 0 ? err : 0;
	}

cleanup:
	free(r.percpu);
	cachestat_bpf__destroy(skel);
	return bpfkit_exit_code(err);
}
