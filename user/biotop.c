// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * biotop: the processes doing the most block I/O, per disk and operation,
 * refreshed every interval like top.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include "blockio.h"
#include "cli.h"
#include "diag.h"
#include "metrics.h"
#include "output.h"
#include "setup.h"
#include "tally.h"
#include "biotop.h"
#include "biotop.skel.h"

/* Column widths, for the header and every row. */
enum {
	DISK_W = 9,
	OP_W = 7,
	IO_W = 7,
	KBYTES_W = 10,
	AVG_W = 9,
};

enum sort_key { BY_BYTES, BY_IO, BY_TIME, BY_AVG };

static const char *const sort_names[] = {
	[BY_BYTES] = "bytes",
	[BY_IO] = "io",
	[BY_TIME] = "time",
	[BY_AVG] = "avg",
};

static struct {
	unsigned long rows; /* -r */
	enum sort_key sort; /* -s */
	bool noclear; /* -C */
} env = { .rows = 20 };

static const struct argp_option own_options[] = {
	{ "rows", 'r', "ROWS", 0, "Print the top ROWS rows (default 20)", 0 },
	{ "sort", 's', "KEY", 0,
	  "Sort by KEY: bytes (default), io, time (in the device), avg", 0 },
	{ "noclear", 'C', NULL, 0, "Do not clear the screen between intervals",
	  0 },
	{},
};

static error_t parse_own(int key, char *arg, struct argp_state *state)
{
	size_t i;

	switch (key) {
	case 'r':
		return bpfkit_parse_ulong("-r/--rows", arg, 1, BIOTOP_MAX_KEYS,
					  &env.rows);
	case 's':
		for (i = 0; i < sizeof(sort_names) / sizeof(sort_names[0]); i++)
			if (!strcmp(arg, sort_names[i])) {
				env.sort = i;
				return 0;
			}
		return bpfkit_usage_error(
			"invalid -s/--sort '%s': expected bytes, io, time or avg",
			arg);
	case 'C':
		env.noclear = true;
		return 0;
	}
	return ARGP_ERR_UNKNOWN;
}

static const struct bpfkit_tool tool = {
	.name = "biotop",
	.doc = "Show the processes doing the most block I/O, like top.\n"
	       "\v"
	       "Every interval (default 1 second) the top rows by process, disk\n"
	       "and operation: requests, Kbytes and the average time in the\n"
	       "device. The process is the one that made the request (else\n"
	       "issued it), which may be a kernel thread (kworker, writeback).\n"
	       "\n"
	       "Examples:\n"
	       "  biotop                   # every second until Ctrl-C\n"
	       "  biotop 5 10              # every 5 seconds, 10 times\n"
	       "  biotop -r 5 -s io -C     # top 5 by requests, no clearing\n"
	       "  biotop --disk sda -j     # sda only, JSON Lines\n",
	.args_doc = "[INTERVAL [COUNT]]",
	.options = BPFKIT_OPT_FILTERS | BPFKIT_OPT_JSON | BPFKIT_OPT_INTERVAL |
		   BPFKIT_OPT_METRICS | BPFKIT_OPT_DISK,
	.own_options = own_options,
	.own_parser = parse_own,
};

/* A key's counts: of this interval, or (totals) since the start. */
struct row {
	struct biotop_key key;
	struct biotop_val val;
};

struct report {
	int map_fd;
	struct bpfkit_tally interval; /* rows taken since the last report */
	struct bpfkit_tally totals; /* rows since the start, for metrics */
	unsigned int intervals;
};

static int add_to(struct bpfkit_tally *t, const struct row *w)
{
	struct row *sum = bpfkit_tally_get(t, &w->key);

	if (!sum)
		return -ENOMEM;
	sum->val.io += w->val.io;
	sum->val.bytes += w->val.bytes;
	sum->val.service_ns += w->val.service_ns;
	memcpy(sum->val.comm, w->val.comm, sizeof(sum->val.comm));
	return 0;
}

/* Take every key's counts out of the map into the interval and totals. */
static int take(struct report *r)
{
	struct biotop_key *prev = NULL, keys[BIOTOP_MAX_KEYS];
	int n = 0, i, err = 0;
	struct row w;

	while (n < BIOTOP_MAX_KEYS &&
	       !bpf_map_get_next_key(r->map_fd, prev, &keys[n]))
		prev = &keys[n++];
	for (i = 0; i < n && !err; i++) {
		w.key = keys[i];
		if (bpf_map_lookup_and_delete_elem(r->map_fd, &w.key, &w.val)) {
			/* Hash maps before Linux 5.14 cannot do both at once. */
			if (bpf_map_lookup_elem(r->map_fd, &w.key, &w.val))
				continue;
			bpf_map_delete_elem(r->map_fd, &w.key);
		}
		err = add_to(&r->interval, &w);
		if (!err && bpfkit_metrics_enabled())
			err = add_to(&r->totals, &w);
	}
	if (err)
		bpfkit_fail("keep the counts", err);
	return err;
}

static __u64 sort_value(const struct row *w)
{
	switch (env.sort) {
	case BY_IO:
		return w->val.io;
	case BY_TIME:
		return w->val.service_ns;
	case BY_AVG:
		return w->val.service_ns / w->val.io;
	default:
		return w->val.bytes;
	}
}

/* Largest first; ties by pid, disk and operation, so output is stable. */
static int by_sort_key(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	__u64 vx = sort_value(x), vy = sort_value(y);

	if (vx != vy)
		return vx < vy ? 1 : -1;
	return memcmp(&x->key, &y->key, sizeof(x->key));
}

static void print_json(const struct report *r, const struct row *w,
		       const char *disk, const char *op)
{
	struct bpfkit_json j;

	bpfkit_json_begin(&j, stdout, NULL);
	bpfkit_json_uint(&j, "interval", r->intervals);
	bpfkit_json_uint(&j, "pid", w->key.pid);
	bpfkit_json_str(&j, "comm", w->val.comm, sizeof(w->val.comm));
	bpfkit_json_str(&j, "disk", disk, strlen(disk));
	bpfkit_json_str(&j, "op", op, strlen(op));
	bpfkit_json_uint(&j, "io", w->val.io);
	bpfkit_json_uint(&j, "bytes", w->val.bytes);
	bpfkit_json_double(&j, "avg_ms", w->val.service_ns / 1e6 / w->val.io);
	bpfkit_json_end(&j);
}

/* The screen's head: the time and the load average, as top's. */
static void print_head(const struct report *r)
{
	char stamp[16], load[128] = "";
	time_t t = time(NULL);
	FILE *f;

	if (!env.noclear && isatty(STDOUT_FILENO))
		printf("\033[H\033[2J");
	else if (r->intervals > 1)
		printf("\n");
	strftime(stamp, sizeof(stamp), "%H:%M:%S", localtime(&t));
	f = fopen("/proc/loadavg", "re");
	if (f) {
		if (!fgets(load, sizeof(load), f))
			load[0] = '\0';
		fclose(f);
	}
	printf("%s loadavg: %s", stamp, load[0] ? load : "-\n");
	printf("%-*s %-*s %-*s %-*s %*s %*s %*s\n", BPFKIT_PID_W, "PID",
	       BPFKIT_COMM_W, "COMM", DISK_W, "DISK", OP_W, "OP", IO_W, "I/O",
	       KBYTES_W, "Kbytes", AVG_W, "AVGms");
}

/* This interval's top rows, then a new interval. */
static int report(void *ctx)
{
	struct report *r = ctx;
	char disk[64], op[64];
	struct row *w;
	size_t i;
	int err = take(r);

	if (err)
		return err;
	bpfkit_tally_sort(&r->interval, by_sort_key);
	r->intervals++;
	if (!bpfkit_output_json())
		print_head(r);
	for (i = 0; i < r->interval.n && i < env.rows; i++) {
		w = bpfkit_tally_at(&r->interval, i);
		bpfkit_disk_name(w->key.dev, disk, sizeof(disk));
		bpfkit_rq_op_name(w->key.op, op, sizeof(op));
		if (bpfkit_output_json()) {
			print_json(r, w, disk, op);
			continue;
		}
		printf("%-*u ", BPFKIT_PID_W, w->key.pid);
		bpfkit_print_str(w->val.comm, sizeof(w->val.comm),
				 BPFKIT_COMM_W);
		printf("%-*s %-*s %*llu %*llu %*.3f\n", DISK_W, disk, OP_W, op,
		       IO_W, (unsigned long long)w->val.io, KBYTES_W,
		       (unsigned long long)w->val.bytes / 1024, AVG_W,
		       w->val.service_ns / 1e6 / w->val.io);
	}
	bpfkit_tally_free(&r->interval);
	return 0;
}

/*
 * A scrape: requests, bytes and device time per disk and operation since
 * the start, labelled by pid and comm as --metrics-labels asks.
 */
static int fill_metrics(struct bpfkit_metrics *m, void *ctx)
{
	static const struct {
		const char *name, *help;
	} families[] = {
		{ "bpfkit_biotop_requests_total",
		  "Block I/O requests completed" },
		{ "bpfkit_biotop_bytes_total", "Bytes of the requests" },
		{ "bpfkit_biotop_device_seconds_total",
		  "Their time from issue to completion" },
	};
	struct report *r = ctx;
	char disk[64], op[64], pid[16];
	const char *labels[9];
	int err = take(r), k;
	size_t f, i;

	for (f = 0; f < 3 && !err; f++) {
		err = bpfkit_metrics_family(m, families[f].name, BPFKIT_COUNTER,
					    families[f].help);
		for (i = 0; i < r->totals.n && !err; i++) {
			const struct row *w = bpfkit_tally_at(&r->totals, i);

			bpfkit_disk_name(w->key.dev, disk, sizeof(disk));
			bpfkit_rq_op_name(w->key.op, op, sizeof(op));
			k = 0;
			labels[k++] = "disk";
			labels[k++] = disk;
			labels[k++] = "op";
			labels[k++] = op;
			bpfkit_metrics_task_labels(labels, k, "pid", w->key.pid,
						   w->val.comm, pid,
						   sizeof(pid));
			err = bpfkit_metrics_add(m, labels,
						 f == 0 ? w->val.io :
						 f == 1 ? w->val.bytes :
							  w->val.service_ns /
								  1e9);
		}
	}
	return err;
}

int main(int argc, char **argv)
{
	struct report r = {
		.interval = BPFKIT_TALLY_INIT(sizeof(struct row),
					      sizeof(struct biotop_key)),
		.totals = BPFKIT_TALLY_INIT(sizeof(struct row),
					    sizeof(struct biotop_key)),
	};
	struct biotop_bpf *skel = NULL;
	int err;

	/* Parse options; check privileges, tracefs and kernel BTF. */
	bpfkit_setup(&tool, argc, argv);

	/* Open the BPF object. */
	skel = biotop_bpf__open_opts(bpfkit_open_opts());
	if (!skel)
		return bpfkit_open_failed();

	/* The queue program too: a request's maker is best known there. */
	bpfkit_blockio_prepare(skel->progs.io_start, skel->progs.rq_insert,
			       true);

	/* Write the filters and the disk to .rodata; load and verify. */
	err = bpfkit_load(skel->skeleton);
	if (err)
		goto cleanup;

	/* Attach; report every interval (1 s by default) and at the end. */
	r.map_fd = bpf_map__fd(skel->maps.biotop_counts);
	bpfkit_metrics_source(fill_metrics, &r);
	err = bpfkit_interval_run(skel->skeleton, report, &r, 1);
	if (skel->bss->biotop_missed)
		bpfkit_error(
			"%llu requests not counted: more than %d keys, or too many requests in flight",
			(unsigned long long)skel->bss->biotop_missed,
			BIOTOP_MAX_KEYS);

cleanup:
	bpfkit_tally_free(&r.interval);
	bpfkit_tally_free(&r.totals);
	biotop_bpf__destroy(skel);
	return bpfkit_exit_code(err);
}
