/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The user side of the shared histogram: the histogram options (-i, COUNT,
 * -T, -m, --cumulative, --linear, -j; -P, -L for task keys; -D, -C for
 * totals), the bucket settings for the BPF side (written at load,
 * setup.h), and a reader that prints a tool's map every interval, one
 * histogram per key (or a table of totals), as text like libbpf-tools' or
 * as JSON Lines.
 *
 *	bpfkit_hist_task_map(skel->maps.MAP);	task tools, before load
 *	bpfkit_sparse_map(skel->maps.MAP);	or a few keys, before load (kernel.h)
 *	err = bpfkit_hist_run(skel->skeleton, skel->maps.MAP, &keys);  (setup.h)
 *
 * which opens the reader, attaches the programs and reports every
 * interval until COUNT, -d or a signal:
 *
 *	err = bpfkit_hist_open(&h, map_fd, &keys, missed);
 *	tick = bpfkit_hist_tick(h);	a report every interval
 *	err = bpfkit_hist_end(h, err);	the last one, the losses
 */
#ifndef BPFKIT_HIST_H
#define BPFKIT_HIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <bpf/libbpf.h>
#include "bpfkit/histogram.h"
#include "output.h"
#include "run.h"

/* What the histogram options say. */
struct bpfkit_hist_opts {
	unsigned long interval; /* -i or INTERVAL, seconds; 0: once at exit */
	unsigned long count; /* COUNT intervals, then stop; 0: no limit */
	bool timestamp; /* -T: the time before each interval */
	bool millis; /* -m: milliseconds instead of microseconds */
	bool cumulative; /* --cumulative: never reset between intervals */
	unsigned long linear_step; /* --linear STEP, in units; 0: log2 */
	enum bpfkit_hist_by by; /* -P, -L: task histograms' keys */
	bool dist; /* -D: histograms instead of a table of totals */
	bool per_cpu; /* -C: keys per CPU */
	bool sizes; /* the tool's: values are bytes (bpfkit_hist_io_sizes()) */
};

/* Report as OPTS says from now on; until called, every default. */
void bpfkit_hist_init(const struct bpfkit_hist_opts *opts);

/*
 * After parsing, before load, for a tool of I/O sizes per process
 * (bitesize): values are bytes, in Kbyte buckets ("Kbytes"), and the keys
 * are processes' pids (struct bpfkit_hist_keys' tasks, as -P makes them).
 * -m, for times, is refused in one line (exit BPFKIT_EXIT_USAGE).
 */
void bpfkit_hist_io_sizes(void);

/* Before load: the bucket settings the options give the BPF side. */
void bpfkit_hist_cfg_init(volatile struct bpfkit_hist_cfg *cfg);

/* "usecs" or "msecs", as the options say; "Kbytes" for sizes. */
const char *bpfkit_hist_unit(void);

/* Smallest and largest value (in units) bucket SLOT holds. */
__u64 bpfkit_hist_min(const struct bpfkit_hist_cfg *cfg, unsigned int slot);
__u64 bpfkit_hist_max(const struct bpfkit_hist_cfg *cfg, unsigned int slot);

/*
 * The value (in units) below which fraction P (0 to 1) of H's values lie,
 * estimated from the buckets: linear within the bucket it falls in.
 */
double bpfkit_hist_percentile(const struct bpfkit_hist_cfg *cfg,
			      const struct bpfkit_hist *h, double p);

/*
 * H as text: a "usecs : count distribution" table with a 40-wide bar of
 * stars up to the last non-empty bucket, then "count N avg A p99 P"; an
 * empty H prints "no events".
 */
void bpfkit_hist_print_text(FILE *f, const struct bpfkit_hist_cfg *cfg,
			    const char *unit, const struct bpfkit_hist *h);

/* H's fields in JSON object J: unit, buckets, count, sum, avg, p50/90/99. */
void bpfkit_hist_json(struct bpfkit_json *j, const struct bpfkit_hist_cfg *cfg,
		      const char *unit, const struct bpfkit_hist *h);

/* What a tool tells the reader about the keys of its map. */
struct bpfkit_hist_keys {
	size_t key_size;
	/*
	 * Keys of bpfkit_hist_add_task(): a process's or thread's __u32 id
	 * as -P or -L says, "pid" or "tid" in headers ("pid = 181 dd") and
	 * JSON, with the histogram's name as its comm; the reader prints
	 * them (one histogram without -P and -L).
	 */
	bool tasks;
	/* A key's header line in text (no newline); NULL: the map has one key. */
	void (*print_key)(FILE *f, const void *key,
			  const struct bpfkit_hist *h);
	/* A key's fields in its JSON object; NULL: the map has one key. */
	void (*json_key)(struct bpfkit_json *j, const void *key,
			 const struct bpfkit_hist *h);
	/* Order of keys in a report; NULL: most values first. */
	int (*compare)(const void *a, const void *b);
	/*
	 * Keys per CPU with -C: CPU_OFFSET is where the key's __u32 cpu is
	 * (BPFKIT_HIST_ANY_CPU without -C: bpfkit_hist_cpu()). The reader
	 * adds the CPU to a key's header, row, JSON and metric labels after
	 * the tool's, and orders the CPUs of keys COMPARE finds equal.
	 */
	bool cpus;
	size_t cpu_offset;
	/*
	 * Set for a table of totals in text, one row a key, unless -D asks
	 * for histograms: the key columns' header, and a key's columns.
	 */
	const char *totals_header;
	void (*print_row)(FILE *f, const void *key,
			  const struct bpfkit_hist *h);
	/*
	 * The metric family of a scrape (bpfkit_TOOL_WHAT_seconds) and its
	 * help; NULL: the tool serves no histogram metric.
	 */
	const char *metric;
	const char *metric_help;
	/*
	 * A key's labels for its metric series: name, value pairs into
	 * LABELS (room for 8 pairs and the NULL), values kept in BUF; NULL:
	 * the keys add up into one series (task keys get pid or tid and comm
	 * as --metrics-labels asks).
	 */
	void (*metric_key)(const void *key, const struct bpfkit_hist *h,
			   const char **labels, char *buf, size_t size);
};

/* H's totals row after its key's columns: TOTAL_<unit>, COUNT, AVG. */
void bpfkit_hist_print_totals(FILE *f, const struct bpfkit_hist_cfg *cfg,
			      const struct bpfkit_hist *h);

/*
 * Before load: shape a task histogram map (__u32 keys) for -P and -L. One
 * histogram (neither) is a per-CPU array of one entry, whose lookups the
 * verifier inlines and whose adds touch only the CPU's own copy, instead
 * of the hash map that -P and -L need; the reader then reports what each
 * interval added to the CPUs' sum.
 */
void bpfkit_hist_task_map(struct bpf_map *map);

struct bpfkit_hist_reader;

/*
 * After load: a reader *R of histograms from map MAP_FD (a hash map, or an
 * array or per-CPU array, whose values only grow), keyed as KEYS says, and
 * with KEYS->metric the source of every scrape; MISSED is the BPF side's
 * bpfkit_hist_missed. Returns 0, or -errno (reported, *R NULL).
 */
int bpfkit_hist_open(struct bpfkit_hist_reader **r, int map_fd,
		     const struct bpfkit_hist_keys *keys,
		     const volatile __u64 *missed);

/*
 * Print one interval: every key's histogram, then reset unless cumulative.
 * Returns bpfkit_output_flush()'s verdict on stdout: 0, 1 (its reader has
 * gone) or -errno (a write failed, reported).
 */
int bpfkit_hist_report(struct bpfkit_hist_reader *r);

/*
 * The run loop's timer of a histogram tool: a report every interval (none
 * without one: interval_ms 0), which ends the loop after COUNT intervals.
 */
struct bpfkit_tick bpfkit_hist_tick(struct bpfkit_hist_reader *r);

/*
 * After the loop ended with ERR: the last, partial interval (or the only
 * report, without an interval) unless stdout has gone; then, if some values
 * found the map full, "N events, M lost" on stderr. Returns ERR, or the
 * -errno of a failed write.
 */
int bpfkit_hist_end(struct bpfkit_hist_reader *r, int err);

void bpfkit_hist_free(struct bpfkit_hist_reader *r);

#endif /* BPFKIT_HIST_H */
