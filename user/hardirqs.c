// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * hardirqs: the time spent in each hard IRQ handler, as totals or
 * histograms, for all CPUs or per CPU.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "diag.h"
#include "histogram.h"
#include "kernel.h"
#include "output.h"
#include "setup.h"
#include "hardirqs.h"
#include "hardirqs.skel.h"

enum { NAME_W = 24, IRQ_W = 5, CPU_W = 4 };

static const struct bpfkit_tool tool = {
	.name = "hardirqs",
	.doc = "Summarize the time spent in hard IRQ handlers, as totals or histograms.\n"
	       "\v"
	       "Handlers are named as in /proc/interrupts; -j always gives each\n"
	       "handler's histogram, with the totals.\n"
	       "\n"
	       "Examples:\n"
	       "  hardirqs             # totals until Ctrl-C\n"
	       "  hardirqs 1 10        # every second, 10 times\n"
	       "  hardirqs -D          # histograms\n"
	       "  hardirqs -C -j -i 1  # per CPU, JSON Lines every second\n",
	.args_doc = "[INTERVAL [COUNT]]",
	.options = BPFKIT_OPT_JSON | BPFKIT_OPT_HIST | BPFKIT_OPT_TOTALS,
};

static void print_header(FILE *f, const void *key, const struct bpfkit_hist *h)
{
	const struct hardirqs_key *k = key;

	fprintf(f, "hardirq = ");
	bpfkit_col_escape(f, k->name, sizeof(k->name), false);
	fprintf(f, " irq = %d", k->irq);
	if (k->cpu != BPFKIT_HIST_ANY_CPU)
		fprintf(f, " cpu = %u", k->cpu);
}

static void print_cells(FILE *f, const void *key, const struct bpfkit_hist *h)
{
	const struct hardirqs_key *k = key;
	size_t n;

	n = bpfkit_col_escape(f, k->name, sizeof(k->name), false);
	fprintf(f, "%*s %-*d ", n < NAME_W ? (int)(NAME_W - n) : 0, "", IRQ_W,
		k->irq);
	if (k->cpu != BPFKIT_HIST_ANY_CPU)
		fprintf(f, "%-*u ", CPU_W, k->cpu);
}

static void json_key(struct bpfkit_json *j, const void *key,
		     const struct bpfkit_hist *h)
{
	const struct hardirqs_key *k = key;

	bpfkit_json_str(j, "hardirq", k->name, sizeof(k->name));
	bpfkit_json_int(j, "irq", k->irq);
	if (k->cpu != BPFKIT_HIST_ANY_CPU)
		bpfkit_json_uint(j, "cpu", k->cpu);
}

static void metric_key(const void *key, const struct bpfkit_hist *h,
		       const char **labels, char *buf, size_t size)
{
	const struct hardirqs_key *k = key;
	size_t half = size / 3;

	snprintf(buf, half, "%.*s", (int)sizeof(k->name), k->name);
	snprintf(buf + half, half, "%d", k->irq);
	labels[0] = "hardirq";
	labels[1] = buf;
	labels[2] = "irq";
	labels[3] = buf + half;
	labels[4] = NULL;
	if (k->cpu != BPFKIT_HIST_ANY_CPU) {
		snprintf(buf + 2 * half, half, "%u", k->cpu);
		labels[4] = "cpu";
		labels[5] = buf + 2 * half;
		labels[6] = NULL;
	}
}

static int by_irq_cpu(const void *a, const void *b)
{
	const struct hardirqs_key *x = a, *y = b;
	int c;

	if (x->irq != y->irq)
		return x->irq < y->irq ? -1 : 1;
	c = strncmp(x->name, y->name, sizeof(x->name));
	if (c)
		return c;
	return x->cpu < y->cpu ? -1 : x->cpu > y->cpu;
}

int main(int argc, char **argv)
{
	char header[64];
	struct bpfkit_hist_keys keys = {
		.key_size = sizeof(struct hardirqs_key),
		.print_key = print_header,
		.print_row = print_cells,
		.totals_header = header,
		.json_key = json_key,
		.compare = by_irq_cpu,
		.metric = "bpfkit_hardirqs_time_seconds",
		.metric_help = "Time in each hard interrupt's handler",
		.metric_key = metric_key,
	};
	struct hardirqs_bpf *skel = NULL;
	int err;

	/* Parse options; check privileges, tracefs and kernel BTF. */
	bpfkit_setup(&tool, argc, argv);

	/* Open the BPF object. */
	skel = hardirqs_bpf__open_opts(bpfkit_open_opts());
	if (!skel)
		return bpfkit_open_failed();

	/* Few keys: a map that takes memory as they come. */
	bpfkit_sparse_map(skel->maps.hardirqs_hists);

	/* Load and verify. */
	err = bpfkit_load(skel->skeleton);
	if (err)
		goto cleanup;

	/* Attach to irq:irq_handler_entry and irq:irq_handler_exit. */
	err = bpfkit_attach(skel->skeleton, NULL, NULL, NULL);
	if (err)
		goto cleanup;

	/* Report totals (-D: histograms) until COUNT, -d or a signal. */
	snprintf(header, sizeof(header), "%-*s %-*s %s", NAME_W, "HARDIRQ",
		 IRQ_W, "IRQ", bpfkit_opts.hist.per_cpu ? "CPU  " : "");
	err = bpfkit_hist_run(skel->skeleton, skel->maps.hardirqs_hists, &keys);

cleanup:
	hardirqs_bpf__destroy(skel);
	return bpfkit_exit_code(err);
}
