// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * vfsstat: count file calls (read, write, fsync, open, create) as they
 * enter the kernel, and print them per second every interval.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <bpf/bpf.h>
#include "cli.h"
#include "diag.h"
#include "metrics.h"
#include "output.h"
#include "run.h"
#include "setup.h"
#include "tracefs.h"
#include "vfsstat.h"
#include "vfsstat.skel.h"

/* Column width of each count. */
enum { COUNT_W = 9 };

static unsigned long interval = 1; /* -i, seconds */

static const struct argp_option options[] = {
	{ "interval", 'i', "SECONDS", 0,
	  "Print the counts every SECONDS (default 1)", 0 },
	{},
};

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	if (key == 'i')
		return bpfkit_parse_ulong("-i/--interval", arg, 1, 86400,
					  &interval);
	return ARGP_ERR_UNKNOWN;
}

static const struct bpfkit_tool tool = {
	.name = "vfsstat",
	.doc = "Count file calls per second: read, write, fsync, open, create.\n"
	       "\v"
	       "Calls are counted as they enter the kernel, failed ones too, from\n"
	       "the syscalls' tracepoints: I/O through mmap, io_uring, sendfile,\n"
	       "splice or the kernel's own threads is not seen.\n"
	       "\n"
	       "Examples:\n"
	       "  vfsstat               # the whole system, every second\n"
	       "  vfsstat -i 5 -p 181   # process 181, every 5 seconds\n"
	       "  vfsstat -c make -j    # make's calls, as JSON Lines\n",
	.options = BPFKIT_OPT_FILTERS | BPFKIT_OPT_JSON | BPFKIT_OPT_METRICS,
	.own_options = options,
	.own_parser = parse_arg,
};

/* The kinds' names: JSON keys and metrics labels, and their columns. */
static const char *const op_names[VFSSTAT_OPS] = {
	[VFSSTAT_READ] = "read",     [VFSSTAT_WRITE] = "write",
	[VFSSTAT_FSYNC] = "fsync",   [VFSSTAT_OPEN] = "open",
	[VFSSTAT_CREATE] = "create",
};

static const char *const op_columns[VFSSTAT_OPS] = {
	[VFSSTAT_READ] = "READ/s",     [VFSSTAT_WRITE] = "WRITE/s",
	[VFSSTAT_FSYNC] = "FSYNC/s",   [VFSSTAT_OPEN] = "OPEN/s",
	[VFSSTAT_CREATE] = "CREATE/s",
};

struct report {
	int map_fd;
	int ncpus;
	__u64 *percpu;
	__u64 last[VFSSTAT_OPS]; /* the totals at the last report */
	unsigned int intervals;
	struct timespec then;
};

/* The totals since attach, summed over CPUs, into TOTAL. */
static int read_totals(struct report *r, __u64 total[VFSSTAT_OPS])
{
	__u32 op;
	int i;

	for (op = 0; op < VFSSTAT_OPS; op++) {
		if (bpf_map_lookup_elem(r->map_fd, &op, r->percpu)) {
			bpfkit_fail("read the counts", -errno);
			return -errno;
		}
		total[op] = 0;
		for (i = 0; i < r->ncpus; i++)
			total[op] += r->percpu[i];
	}
	return 0;
}

/* Print the calls since the last report; the counts are never reset. */
static int report(void *ctx)
{
	struct report *r = ctx;
	__u64 total[VFSSTAT_OPS], n;
	struct bpfkit_json j;
	struct timespec now;
	char hms[16];
	double s;
	time_t t;
	int op, err;

	err = read_totals(r, total);
	if (err)
		return err;
	clock_gettime(CLOCK_MONOTONIC, &now);
	s = now.tv_sec - r->then.tv_sec + (now.tv_nsec - r->then.tv_nsec) / 1e9;
	r->then = now;
	r->intervals++;
	if (bpfkit_output_json()) {
		bpfkit_json_begin(&j, stdout, NULL);
		bpfkit_json_uint(&j, "interval", r->intervals);
		bpfkit_json_double(&j, "seconds", s);
	} else {
		t = time(NULL);
		strftime(hms, sizeof(hms), "%H:%M:%S", localtime(&t));
		printf("%-8s", hms);
	}
	for (op = 0; op < VFSSTAT_OPS; op++) {
		n = total[op] - r->last[op];
		if (bpfkit_output_json())
			bpfkit_json_uint(&j, op_names[op], n);
		else
			printf(" %*.0f", COUNT_W, s > 0 ? n / s : 0);
	}
	if (bpfkit_output_json())
		bpfkit_json_end(&j);
	else
		printf("\n");
	memcpy(r->last, total, sizeof(total));
	return 0;
}

/* A scrape: the calls since attach, by kind. */
static int fill_metrics(struct bpfkit_metrics *m, void *ctx)
{
	__u64 total[VFSSTAT_OPS];
	const char *labels[3] = { "op", NULL, NULL };
	int op, err;

	err = read_totals(ctx, total);
	if (!err)
		err = bpfkit_metrics_family(m, "bpfkit_vfsstat_calls_total",
					    BPFKIT_COUNTER,
					    "File calls entered, by kind");
	for (op = 0; op < VFSSTAT_OPS && !err; op++) {
		labels[1] = op_names[op];
		err = bpfkit_metrics_add(m, labels, total[op]);
	}
	return err;
}

/* The syscalls counted, each on its entry only. */
enum { NR_CALLS = 16 };

static void file_calls(struct vfsstat_bpf *skel,
		       struct bpfkit_syscall_tp calls[NR_CALLS])
{
	const struct bpfkit_syscall_tp c[NR_CALLS] = {
		{ skel->progs.read_enter, NULL, "read" },
		{ skel->progs.readv_enter, NULL, "readv" },
		{ skel->progs.pread64_enter, NULL, "pread64" },
		{ skel->progs.preadv_enter, NULL, "preadv" },
		{ skel->progs.preadv2_enter, NULL, "preadv2" },
		{ skel->progs.write_enter, NULL, "write" },
		{ skel->progs.writev_enter, NULL, "writev" },
		{ skel->progs.pwrite64_enter, NULL, "pwrite64" },
		{ skel->progs.pwritev_enter, NULL, "pwritev" },
		{ skel->progs.pwritev2_enter, NULL, "pwritev2" },
		{ skel->progs.fsync_enter, NULL, "fsync" },
		{ skel->progs.fdatasync_enter, NULL, "fdatasync" },
		{ skel->progs.open_enter, NULL, "open" },
		{ skel->progs.openat_enter, NULL, "openat" },
		{ skel->progs.openat2_enter, NULL, "openat2" },
		{ skel->progs.creat_enter, NULL, "creat" },
	};

	memcpy(calls, c, sizeof(c));
}

int main(int argc, char **argv)
{
	struct report r = { .ncpus = libbpf_num_possible_cpus() };
	struct bpfkit_tick tick = { .fn = report, .ctx = &r };
	struct bpfkit_syscall_tp calls[NR_CALLS];
	struct vfsstat_bpf *skel = NULL;
	int err, op;

	/* Parse options; check privileges, tracefs and kernel BTF. */
	bpfkit_setup(&tool, argc, argv);

	/* Open the BPF object. */
	skel = vfsstat_bpf__open_opts(bpfkit_open_opts());
	if (!skel)
		return bpfkit_open_failed();

	/* Keep the programs of the syscalls this kernel has. */
	file_calls(skel, calls);
	err = bpfkit_syscall_tps_autoload(
		calls, NR_CALLS,
		"sys_enter_read and the other file calls' tracepoints");
	if (err)
		goto cleanup;

	/* Write the common filters to .rodata; load and verify. */
	err = bpfkit_load(skel->skeleton);
	if (err)
		goto cleanup;

	r.map_fd = bpf_map__fd(skel->maps.vfsstat_counts);
	r.percpu = calloc(r.ncpus, sizeof(*r.percpu));
	if (!r.percpu) {
		err = -ENOMEM;
		bpfkit_fail("allocate the report", err);
		goto cleanup;
	}

	/* Attach to the syscalls' entries. */
	err = bpfkit_attach(skel->skeleton, NULL, NULL, NULL);
	if (err)
		goto cleanup;

	/* Count until a signal or -d, reporting every interval. */
	if (!bpfkit_output_json()) {
		printf("%-8s", "TIME");
		for (op = 0; op < VFSSTAT_OPS; op++)
			printf(" %*s", COUNT_W, op_columns[op]);
		printf("\n");
	}
	clock_gettime(CLOCK_MONOTONIC, &r.then);
	tick.interval_ms = interval * 1000;
	bpfkit_metrics_source(fill_metrics, &r);
	err = bpfkit_run(NULL, &tick);

	/* Report the calls since the last interval. */
	if (!err)
		err = report(&r);

cleanup:
	free(r.percpu);
	vfsstat_bpf__destroy(skel);
	return bpfkit_exit_code(err);
}
