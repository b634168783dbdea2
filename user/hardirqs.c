// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * hardirqs: the time spent in each hard IRQ handler, as totals or
 * histograms, for all CPUs or per CPU.
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
#include "hardirqs.h"
#include "hardirqs.skel.h"

enum { NAME_W = 24, IRQ_W = 5 };

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
}

static void print_cells(FILE *f, const void *key, const struct bpfkit_hist *h)
{
	const struct hardirqs_key *k = key;
	size_t n;

	n = bpfkit_col_escape(f, k->name, sizeof(k->name), false);
	fprintf(f, "%*s %-*d ", n < NAME_W ? (int)(NAME_W - n) : 0, "", IRQ_W,
		k->irq);
}

static void json_key(struct bpfkit_json *j, const void *key,
		     const struct bpfkit_hist *h)
{
	const struct hardirqs_key *k = key;

	bpfkit_json_str(j, "hardirq", k->name, sizeof(k->name));
	bpfkit_json_int(j, "irq", k->irq);
}

static void metric_key(const void *key, const struct bpfkit_hist *h,
		       const char **labels, char *buf, size_t size)
{
	const struct hardirqs_key *k = key;
	size_t half = size / 2;

	snprintf(buf, half, "%.*s", (int)sizeof(k->name), k->name);
	snprintf(buf + half, half, "%d", k->irq);
	labels[0] = "hardirq";
	labels[1] = buf;
	labels[2] = "irq";
	labels[3] = buf + half;
	labels[4] = NULL;
}

static int by_irq(const void *a, const void *b)
{
	const struct hardirqs_key *x = a, *y = b;

	if (x->irq != y->irq)
		return x->irq < y->irq ? -1 : 1;
	return strncmp(x->name, y->name, sizeof(x->name));
}

int main(int argc, char **argv)
{
	struct bpfkit_hist_keys keys = {
		.key_size = sizeof(struct hardirqs_key),
		.print_key = print_header,
		.print_row = print_cells,
		.json_key = json_key,
		.compare = by_irq,
		.cpus = true,
		.cpu_offset = offsetof(struct hardirqs_key, cpu),
		.metric = "bpfkit_hardirqs_time_seconds",
		.metric_help = "Time in each hard interrupt's handler",
		.metric_key = metric_key,
	};
	struct hardirqs_bpf *skel = NULL;
	char header[64];
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

	/* Totals (-D: histograms) under this header. */
	snprintf(header, sizeof(header), "%-*s %-*s ", NAME_W, "HARDIRQ", IRQ_W,
		 "IRQ");
	keys.totals_header = header;

	/* Attach to irq_handler_entry/exit; report every interval until COUNT. */
	err = bpfkit_hist_run(skel->skeleton, skel->maps.hardirqs_hists, &keys);

cleanup:
	hardirqs_bpf__destroy(skel);
	return bpfkit_exit_code(err);
}
