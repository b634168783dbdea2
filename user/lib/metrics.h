/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Prometheus metrics: a registry a tool fills from its maps at scrape time,
 * written in the text exposition format 0.0.4, served on GET /metrics by a
 * small strict HTTP responder polled by the run loop (--metrics ADDR:PORT),
 * or written to node_exporter's textfile directory (--textfile DIR).
 *
 *	static int fill(struct bpfkit_metrics *m, void *ctx)
 *	{
 *		bpfkit_metrics_family(m, "bpfkit_x_calls_total",
 *				      BPFKIT_COUNTER, "Calls seen");
 *		bpfkit_metrics_add(m, (const char *[]){ "syscall", "read",
 *				       NULL }, 42);
 *		return 0;
 *	}
 *	bpfkit_metrics_source(fill, ctx);	before the run loop
 *	bpfkit_metrics_start(ch, interval_ms);	serves scrapes while it runs
 *	bpfkit_metrics_stop();			after it
 */
#ifndef BPFKIT_METRICS_H
#define BPFKIT_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stddef.h>
#include <stdio.h>
#include <bpf/libbpf.h>
#include "bpfkit/histogram.h"

struct bpfkit_channel;

/* Labels a tool adds only when asked (--metrics-labels pid,comm). */
enum {
	BPFKIT_LABEL_PID = 1 << 0,
	BPFKIT_LABEL_COMM = 1 << 1,
	/* containers: task histograms keyed per container (container.c) */
	BPFKIT_LABEL_CONTAINER = 1 << 2,
};

/* What the metrics options say. */
struct bpfkit_metrics_opts {
	const char *tool; /* the tool's own name: bpfkit_TOOL.prom */
	const char *listen; /* --metrics ADDR:PORT; NULL: no serving */
	const char *textfile_dir; /* --textfile DIR; NULL: none */
	bool print; /* --print: the terminal output too */
	unsigned int labels; /* --metrics-labels: BPFKIT_LABEL_* */
	unsigned long max_series; /* --max-series: per family; 0: no cap */
};

#define BPFKIT_METRICS_DEFAULT_MAX_SERIES 1000

/* Use OPTS from now on; until called, no metrics. */
void bpfkit_metrics_init(const struct bpfkit_metrics_opts *opts);

/* Is --metrics or --textfile given? */
bool bpfkit_metrics_enabled(void);

/* Is the terminal output off (metrics without --print)? */
bool bpfkit_metrics_quiet(void);

/* Did --metrics-labels ask for LABEL (BPFKIT_LABEL_*)? */
bool bpfkit_metrics_label(unsigned int label);

/*
 * Put in LABELS from K on the task labels --metrics-labels asks for: ID
 * (named ID_LABEL, "pid" or "tid"; printed into BUF of SIZE) and COMM;
 * then the closing NULL. LABELS needs room for 5 more.
 */
void bpfkit_metrics_task_labels(const char **labels, int k,
				const char *id_label, unsigned int id,
				const char *comm, char *buf, size_t size);

enum bpfkit_metric_type {
	BPFKIT_COUNTER,
	BPFKIT_GAUGE,
	BPFKIT_HISTOGRAM,
};

struct bpfkit_metrics;

/* An empty registry; series beyond MAX_SERIES (0: any) fold into "other". */
struct bpfkit_metrics *bpfkit_metrics_new(unsigned long max_series);
void bpfkit_metrics_free(struct bpfkit_metrics *m);

/* Start family NAME; the series added next belong to it. 0 or -errno. */
int bpfkit_metrics_family(struct bpfkit_metrics *m, const char *name,
			  enum bpfkit_metric_type type, const char *help);

/*
 * A counter or gauge series of the current family: LABELS are name, value
 * pairs ending in NULL (NULL: none); values are escaped as the format says.
 */
int bpfkit_metrics_add(struct bpfkit_metrics *m, const char *const *labels,
		       double value);

/*
 * A histogram series of the current family from a histogram H whose
 * buckets end below LE_NS (the first BPFKIT_HIST_SLOTS - 1 buckets' upper
 * edges in nanoseconds, the same for the whole family; the last bucket
 * holds all above): cumulative le buckets in seconds (exact), the sum in
 * seconds and the count.
 */
int bpfkit_metrics_add_hist(struct bpfkit_metrics *m, const char *const *labels,
			    const __u64 *le_ns, const struct bpfkit_hist *h);

/*
 * The current histogram family's bucket edges and sums are bytes, not
 * nanoseconds: written as they are, not in seconds.
 */
void bpfkit_metrics_bytes(struct bpfkit_metrics *m);

/*
 * Write every family in the text format 0.0.4: per family HELP, TYPE, its
 * series largest first, and past the cap one series labelled "other" per
 * label holding the rest; then bpfkit_metrics_folded_series{family=...}
 * for the families that folded. Returns 0 or -errno.
 */
int bpfkit_metrics_write(struct bpfkit_metrics *m, FILE *f);

/* A tool's part of a scrape: add its families to M. 0 or -errno. */
typedef int (*bpfkit_metrics_fill_fn)(struct bpfkit_metrics *m, void *ctx);

/* The tool's families in every scrape, from FILL(m, CTX) (set once). */
void bpfkit_metrics_source(bpfkit_metrics_fill_fn fill, void *ctx);

/* After load (setup's attach): the programs whose run counts a scrape holds. */
void bpfkit_metrics_object(struct bpf_object *obj);

/*
 * Before the run loop: what a scrape holds is the tool's families, the run
 * count and time of the object's programs (BPF_STATS_RUN_TIME is on while
 * the tool runs), CH's event counts if CH is not NULL, build and process
 * metrics. With --textfile, write DIR/bpfkit_TOOL.prom (by atomic rename)
 * now and, in the loop, every INTERVAL_MS (0: every 10 s); with --metrics,
 * open the listening socket and serve it in the loop. 0 when metrics are
 * off or ready, or -errno reported in one line naming the address.
 */
int bpfkit_metrics_start(struct bpfkit_channel *ch, unsigned int interval_ms);

/*
 * After the loop: write the textfile a last time, close the socket and
 * every connection, stop BPF_STATS_RUN_TIME.
 */
void bpfkit_metrics_stop(void);

/* The HTTP request parser, for its unit tests and fuzzer. */

/* What a request gets: an HTTP status; 0: not complete yet. */
int bpfkit_http_parse(const char *buf, size_t len, size_t max_len);

/* Parse "ADDR:PORT" ("[ADDR]:PORT" for IPv6; ":PORT": loopback). */
int bpfkit_metrics_parse_listen(const char *arg, void *sockaddr,
				unsigned int *len);

#endif /* BPFKIT_METRICS_H */
