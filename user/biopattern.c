// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * biopattern: per disk, the share of block I/O requests that are random
 * and sequential, every interval.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <bpf/bpf.h>
#include "blockio.h"
#include "cli.h"
#include "diag.h"
#include "kernel.h"
#include "metrics.h"
#include "output.h"
#include "setup.h"
#include "tally.h"
#include "biopattern.h"
#include "biopattern.skel.h"

/* Column widths, for the header and every row. */
enum {
	TIME_W = 8,
	DISK_W = 9,
	PCT_W = 5,
	COUNT_W = 8,
	KBYTES_W = 10,
};

static const struct bpfkit_tool tool = {
	.name = "biopattern",
	.doc = "Show the share of random and sequential block I/O per disk.\n"
	       "\v"
	       "A request is sequential when it begins where the disk's request\n"
	       "before it (of the traced tasks) ended, else random; the first\n"
	       "one seen on a disk is neither. Filters pick the tasks that made\n"
	       "the requests.\n"
	       "\n"
	       "Examples:\n"
	       "  biopattern               # one report at Ctrl-C\n"
	       "  biopattern 1 10          # every second, 10 times\n"
	       "  biopattern --disk sda 5  # sda only, every 5 seconds\n"
	       "  biopattern -c dd -j 1    # dd's requests, JSON Lines\n",
	.args_doc = "[INTERVAL [COUNT]]",
	.options = BPFKIT_OPT_FILTERS | BPFKIT_OPT_JSON | BPFKIT_OPT_INTERVAL |
		   BPFKIT_OPT_METRICS | BPFKIT_OPT_DISK,
};

/* A disk's counts as last reported, to report what each interval added. */
struct seen {
	__u32 dev; /* the key */
	struct biopattern_disk reported;
};

struct report {
	int map_fd;
	struct bpfkit_tally seen;
	unsigned int intervals;
};

/* What DEV's counts NOW added since they were last reported, into *NEW. */
static int take_new(struct report *r, __u32 dev,
		    const struct biopattern_disk *now,
		    struct biopattern_disk *new)
{
	struct seen *s = bpfkit_tally_get(&r->seen, &dev);

	if (!s)
		return -ENOMEM;
	new->sequential = now->sequential - s->reported.sequential;
	new->random = now->random - s->reported.random;
	new->bytes = now->bytes - s->reported.bytes;
	s->reported = *now;
	return 0;
}

static void print_disk(const struct report *r, __u32 dev,
		       const struct biopattern_disk *d, const char *now)
{
	__u64 count = d->sequential + d->random;
	double rnd = 100.0 * d->random / count;
	struct bpfkit_json j;
	char disk[64];

	bpfkit_disk_name(dev, disk, sizeof(disk));
	if (!bpfkit_output_json()) {
		printf("%-*s %-*s %*.0f %*.0f %*llu %*llu\n", TIME_W, now,
		       DISK_W, disk, PCT_W, rnd, PCT_W, 100 - rnd, COUNT_W,
		       (unsigned long long)count, KBYTES_W,
		       (unsigned long long)d->bytes / 1024);
		return;
	}
	bpfkit_json_begin(&j, stdout, NULL);
	bpfkit_json_uint(&j, "interval", r->intervals);
	bpfkit_json_str(&j, "disk", disk, sizeof(disk));
	bpfkit_json_uint(&j, "count", count);
	bpfkit_json_uint(&j, "random", d->random);
	bpfkit_json_uint(&j, "sequential", d->sequential);
	bpfkit_json_double(&j, "random_pct", rnd);
	bpfkit_json_double(&j, "sequential_pct", 100 - rnd);
	bpfkit_json_uint(&j, "bytes", d->bytes);
	bpfkit_json_end(&j);
}

static int by_dev(const void *a, const void *b)
{
	__u32 x = *(const __u32 *)a, y = *(const __u32 *)b;

	return x < y ? -1 : x > y;
}

/* Every disk's counts of this interval, in the order of their dev_t. */
static int report(void *ctx)
{
	struct report *r = ctx;
	struct biopattern_disk now, new;
	__u32 *prev = NULL, dev, devs[BIOPATTERN_MAX_DISKS];
	int n = 0, i, err;
	time_t t = time(NULL);
	char stamp[16];

	while (n < BIOPATTERN_MAX_DISKS &&
	       !bpf_map_get_next_key(r->map_fd, prev, &devs[n]))
		prev = &devs[n++];
	qsort(devs, n, sizeof(devs[0]), by_dev);
	strftime(stamp, sizeof(stamp), "%H:%M:%S", localtime(&t));
	r->intervals++;
	if (!bpfkit_output_json() && r->intervals == 1)
		printf("%-*s %-*s %*s %*s %*s %*s\n", TIME_W, "TIME", DISK_W,
		       "DISK", PCT_W, "%RND", PCT_W, "%SEQ", COUNT_W, "COUNT",
		       KBYTES_W, "KBYTES");
	for (i = 0; i < n; i++) {
		dev = devs[i];
		if (bpf_map_lookup_elem(r->map_fd, &dev, &now))
			continue;
		err = take_new(r, dev, &now, &new);
		if (err) {
			bpfkit_fail("keep the disks' counts", err);
			return err;
		}
		if (new.sequential + new.random)
			print_disk(r, dev, &new, stamp);
	}
	return 0;
}

/* A scrape: every disk's requests by pattern, and their bytes. */
static int fill_metrics(struct bpfkit_metrics *m, void *ctx)
{
	struct report *r = ctx;
	__u32 *prev, dev;
	struct biopattern_disk d;
	const char *labels[5] = { "disk" };
	char disk[64];
	int bytes, err = 0;

	for (bytes = 0; bytes < 2 && !err; bytes++) {
		if (bytes)
			err = bpfkit_metrics_family(
				m, "bpfkit_biopattern_bytes_total",
				BPFKIT_COUNTER,
				"Bytes of the requests counted by pattern");
		else
			err = bpfkit_metrics_family(
				m, "bpfkit_biopattern_requests_total",
				BPFKIT_COUNTER,
				"Block I/O requests by pattern (the first on a disk is neither)");
		for (prev = NULL;
		     !err && !bpf_map_get_next_key(r->map_fd, prev, &dev);
		     prev = &dev) {
			if (bpf_map_lookup_elem(r->map_fd, &dev, &d))
				continue;
			bpfkit_disk_name(dev, disk, sizeof(disk));
			labels[1] = disk;
			if (bytes) {
				labels[2] = NULL;
				err = bpfkit_metrics_add(m, labels, d.bytes);
				continue;
			}
			labels[2] = "pattern";
			labels[3] = "random";
			labels[4] = NULL;
			err = bpfkit_metrics_add(m, labels, d.random);
			labels[3] = "sequential";
			if (!err)
				err = bpfkit_metrics_add(m, labels,
							 d.sequential);
		}
	}
	return err;
}

int main(int argc, char **argv)
{
	struct report r = {
		.seen = BPFKIT_TALLY_INIT(sizeof(struct seen), sizeof(__u32)),
	};
	struct biopattern_bpf *skel = NULL;
	bool filtered;
	int err;

	/* Parse options; check privileges, tracefs and kernel BTF. */
	bpfkit_setup(&tool, argc, argv);

	/* Open the BPF object. */
	skel = biopattern_bpf__open_opts(bpfkit_open_opts());
	if (!skel)
		return bpfkit_open_failed();

	/*
	 * Filters: follow the requests from their start, where their task is
	 * known; else count at completion alone, with no map of requests.
	 */
	filtered = bpfkit_filter_narrows(&bpfkit_opts.filter);
	bpfkit_blockio_prepare(skel->progs.io_start, skel->progs.rq_insert,
			       filtered);
	bpf_program__set_autoload(skel->progs.rq_issue, filtered);
	bpf_program__set_autoload(skel->progs.rq_complete, filtered);
	bpf_program__set_autoload(skel->progs.completed, !filtered);
	if (!filtered)
		bpf_map__set_max_entries(skel->maps.bpfkit_rq_starts, 1);

	/* Write the filters and the disk to .rodata; load and verify. */
	err = bpfkit_load(skel->skeleton);
	if (err)
		goto cleanup;

	/* Attach; report every interval (none by default) and at the end. */
	r.map_fd = bpf_map__fd(skel->maps.biopattern_disks);
	bpfkit_metrics_source(fill_metrics, &r);
	err = bpfkit_interval_run(skel->skeleton, report, &r, 0);
	if (skel->bss->biopattern_missed)
		bpfkit_error(
			"%llu requests not counted: more than %d disks, or too many requests in flight",
			(unsigned long long)skel->bss->biopattern_missed,
			BIOPATTERN_MAX_DISKS);

cleanup:
	bpfkit_tally_free(&r.seen);
	biopattern_bpf__destroy(skel);
	return bpfkit_exit_code(err);
}
