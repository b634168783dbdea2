// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * softirqs: the time spent in each softirq, as totals or histograms, for
 * all CPUs or per CPU.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "diag.h"
#include "histogram.h"
#include "kernel.h"
#include "output.h"
#include "setup.h"
#include "softirqs.h"
#include "softirqs.skel.h"

enum { NAME_W = 16 };

static const struct bpfkit_tool tool = {
	.name = "softirqs",
	.doc = "Summarize the time spent in softirqs, as totals or histograms.\n"
	       "\v"
	       "-j always gives each softirq's histogram, with the totals.\n"
	       "\n"
	       "Examples:\n"
	       "  softirqs             # totals until Ctrl-C\n"
	       "  softirqs 1 10        # every second, 10 times\n"
	       "  softirqs -D -m       # histograms in milliseconds\n"
	       "  softirqs -C -j -i 1  # per CPU, JSON Lines every second\n",
	.args_doc = "[INTERVAL [COUNT]]",
	.options = BPFKIT_OPT_JSON | BPFKIT_OPT_HIST | BPFKIT_OPT_TOTALS,
};

/* The kernel's softirq names (include/linux/interrupt.h), by number. */
static const char *vec_name(__u32 vec, char *buf, size_t len)
{
	static const char *const names[] = {
		"hi",	    "timer",   "net_tx", "net_rx",  "block",
		"irq_poll", "tasklet", "sched",	 "hrtimer", "rcu",
	};

	if (vec < sizeof(names) / sizeof(names[0]))
		return names[vec];
	snprintf(buf, len, "vec%u", vec);
	return buf;
}

static void print_header(FILE *f, const void *key, const struct bpfkit_hist *h)
{
	const struct softirqs_key *k = key;
	char buf[16];

	fprintf(f, "softirq = %s", vec_name(k->vec, buf, sizeof(buf)));
}

static void print_cells(FILE *f, const void *key, const struct bpfkit_hist *h)
{
	const struct softirqs_key *k = key;
	char buf[16];

	fprintf(f, "%-*s ", NAME_W, vec_name(k->vec, buf, sizeof(buf)));
}

static void json_key(struct bpfkit_json *j, const void *key,
		     const struct bpfkit_hist *h)
{
	const struct softirqs_key *k = key;
	const char *name;
	char buf[16];

	name = vec_name(k->vec, buf, sizeof(buf));
	bpfkit_json_str(j, "softirq", name, strlen(name));
}

static void metric_key(const void *key, const struct bpfkit_hist *h,
		       const char **labels, char *buf, size_t size)
{
	const struct softirqs_key *k = key;

	labels[0] = "softirq";
	labels[1] = vec_name(k->vec, buf, size);
	labels[2] = NULL;
}

static int by_vec(const void *a, const void *b)
{
	const struct softirqs_key *x = a, *y = b;

	return x->vec < y->vec ? -1 : x->vec > y->vec;
}

int main(int argc, char **argv)
{
	struct bpfkit_hist_keys keys = {
		.key_size = sizeof(struct softirqs_key),
		.print_key = print_header,
		.print_row = print_cells,
		.json_key = json_key,
		.compare = by_vec,
		.cpus = true,
		.cpu_offset = offsetof(struct softirqs_key, cpu),
		.metric = "bpfkit_softirqs_time_seconds",
		.metric_help = "Time in each softirq's handler",
		.metric_key = metric_key,
	};
	struct softirqs_bpf *skel = NULL;
	char header[64];
	int err;

	/* Parse options; check privileges, tracefs and kernel BTF. */
	bpfkit_setup(&tool, argc, argv);

	/* Open the BPF object. */
	skel = softirqs_bpf__open_opts(bpfkit_open_opts());
	if (!skel)
		return bpfkit_open_failed();

	/* Few keys: a map that takes memory as they come. */
	bpfkit_sparse_map(skel->maps.softirqs_hists);

	/* Load and verify. */
	err = bpfkit_load(skel->skeleton);
	if (err)
		goto cleanup;

	/* Totals (-D: histograms) under this header. */
	snprintf(header, sizeof(header), "%-*s ", NAME_W, "SOFTIRQ");
	keys.totals_header = header;

	/* Attach to softirq_entry/exit; report every interval until COUNT. */
	err = bpfkit_hist_run(skel->skeleton, skel->maps.softirqs_hists, &keys);

cleanup:
	softirqs_bpf__destroy(skel);
	return bpfkit_exit_code(err);
}
