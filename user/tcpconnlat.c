// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * tcpconnlat: print the latency of every TCP connect, SYN_SENT to
 * ESTABLISHED, or with -H summarize it as a histogram.
 */
#include <errno.h>
#include <stdio.h>
#include "channel.h"
#include "cli.h"
#include "diag.h"
#include "histogram.h"
#include "net.h"
#include "output.h"
#include "run.h"
#include "setup.h"
#include "tracefs.h"
#include "tcpconnlat.h"
#include "tcpconnlat.skel.h"

/* Column widths, for the header and every row. */
static struct {
	bool histogram; /* -H */
} env;

static const struct argp_option options[] = {
	{ "histogram", 'H', NULL, 0,
	  "A histogram of the latencies instead of one line per connect", 0 },
	{},
};

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	const struct bpfkit_hist_opts *h = &bpfkit_opts.hist;

	switch (key) {
	case 'H':
		env.histogram = true;
		return 0;
	case ARGP_KEY_END:
		if (!env.histogram && (h->interval || h->count || h->millis ||
				       h->cumulative || h->linear_step))
			return bpfkit_usage_error(
				"INTERVAL, COUNT, -i, -m, --cumulative and --linear shape the histogram; add -H");
		return 0;
	}
	return ARGP_ERR_UNKNOWN;
}

static const struct bpfkit_tool tool = {
	.name = "tcpconnlat",
	.doc = "Trace TCP connect latency, SYN_SENT to ESTABLISHED, per connect or as a histogram.\n"
	       "\v"
	       "Examples:\n"
	       "  tcpconnlat                 # every connect's latency\n"
	       "  tcpconnlat -H              # a histogram until Ctrl-C\n"
	       "  tcpconnlat -H -m 5 3       # in milliseconds, every 5 s, 3 times\n"
	       "  tcpconnlat -c curl -6 -j   # curl's IPv6 connects, as JSON Lines\n",
	.args_doc = "[INTERVAL [COUNT]]",
	.options = BPFKIT_OPT_FILTERS | BPFKIT_OPT_JSON | BPFKIT_OPT_CHANNEL |
		   BPFKIT_OPT_HIST | BPFKIT_OPT_FAMILY,
	.own_options = options,
	.own_parser = parse_arg,
	.tracepoints =
		(const struct bpfkit_tracepoint[]){ BPFKIT_TP_SOCK_STATE, {} },
};

static void print_json(const void *event)
{
	const struct tcpconnlat_event *e = event;
	struct bpfkit_json j;

	bpfkit_json_begin(&j, stdout, &e->rec);
	bpfkit_json_task(&j, e->pid, e->tid, e->uid, e->comm);
	bpfkit_json_flow(&j, &e->flow);
	bpfkit_json_double(&j, "ms", e->latency_ns / 1e6);
	bpfkit_json_end(&j);
}

static void print_row(const void *event)
{
	const struct tcpconnlat_event *e = event;

	bpfkit_print_time(&e->rec);
	bpfkit_print_task(e->pid, e->comm);
	bpfkit_print_flow(&e->flow);
	printf(" %.3f\n", e->latency_ns / 1e6);
}

static struct bpfkit_printer printer = {
	.size = sizeof(struct tcpconnlat_event),
	.text = print_row,
	.json = print_json,
};

int main(int argc, char **argv)
{
	struct bpfkit_hist_keys keys = {
		.key_size = sizeof(__u32),
		.metric = "bpfkit_tcpconnlat_connect_latency_seconds",
		.metric_help = "TCP connect latency, SYN_SENT to ESTABLISHED",
	};
	struct tcpconnlat_bpf *skel = NULL;
	struct bpfkit_channel *ch = NULL;
	int err;

	/* Parse options; check privileges, tracefs and kernel BTF. */
	bpfkit_setup(&tool, argc, argv);

	/* Open the BPF object. */
	skel = tcpconnlat_bpf__open_opts(bpfkit_open_opts());
	if (!skel)
		return bpfkit_open_failed();

	/* -H into .rodata. */
	skel->rodata->histogram = env.histogram;

	/* Load and verify. */
	err = bpfkit_load(skel->skeleton);
	if (err)
		goto cleanup;

	/* -H: attach, then report every interval until COUNT, -d or a signal. */
	if (env.histogram) {
		err = bpfkit_hist_run(skel->skeleton,
				      skel->maps.tcpconnlat_hists, &keys);
		goto cleanup;
	}

	/* Else open the event channel, then attach. */
	err = bpfkit_attach(skel->skeleton, bpfkit_print_event, &printer, &ch);
	if (err)
		goto cleanup;

	/* Else print the header, then connects until the end. */
	bpfkit_print_header("%-*s %-*s %s LAT(ms)\n", BPFKIT_PID_W, "PID",
			    BPFKIT_COMM_W, "COMM",
			    bpfkit_flow_header('S', 'D'));
	err = bpfkit_run(ch, NULL);

cleanup:
	bpfkit_channel_free(ch);
	tcpconnlat_bpf__destroy(skel);
	return bpfkit_exit_code(err);
}
