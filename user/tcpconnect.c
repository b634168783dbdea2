// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * tcpconnect: print every active TCP connect with the connecting process,
 * the flow and the outcome (established, refused, timeout); -C counts
 * connects per destination and prints them at exit instead; --metrics
 * serves those counts at every scrape.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "channel.h"
#include "cli.h"
#include "diag.h"
#include "metrics.h"
#include "net.h"
#include "output.h"
#include "run.h"
#include "setup.h"
#include "tally.h"
#include "tracefs.h"
#include "tcpconnect.h"
#include "tcpconnect.skel.h"

/* Column widths, for the header and every row. */
enum { UID_W = 7 };

static struct {
	bool failed_only; /* -x */
	bool uid_column; /* -U */
} env;

static const struct argp_option options[] = {
	{ "failed", 'x', NULL, 0, "Show failed connects only", 0 },
	{ "port", 'P', "PORTS", 0,
	  "Trace connects to these ports only (comma-separated)", 0 },
	{ "print-uid", 'U', NULL, 0, "Include a UID column", 0 },
	{},
};

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case 'x':
		env.failed_only = true;
		return 0;
	case 'P':
		return bpfkit_parse_ports("-P/--port", arg,
					  &bpfkit_opts.net.rports);
	case 'U':
		env.uid_column = true;
		return 0;
	}
	return ARGP_ERR_UNKNOWN;
}

static int fill_metrics(struct bpfkit_metrics *m, void *ctx);

static const struct bpfkit_tool tool = {
	.name = "tcpconnect",
	.doc = "Trace active TCP connects: who connected where, and the outcome.\n"
	       "\v"
	       "Examples:\n"
	       "  tcpconnect                 # every connect on the system\n"
	       "  tcpconnect -x              # failed connects only (refused, timeout)\n"
	       "  tcpconnect -P 80,443 -U    # to ports 80 and 443, with the uid\n"
	       "  tcpconnect -C -d 10        # connects per destination over 10 s\n"
	       "  tcpconnect -6 -j           # IPv6 only, as JSON Lines\n",
	.options = BPFKIT_OPT_EVENTS | BPFKIT_OPT_FAMILY,
	.own_options = options,
	.own_parser = parse_arg,
	.tracepoints =
		(const struct bpfkit_tracepoint[]){ BPFKIT_TP_SOCK_STATE, {} },
	.counts = "Count connects per destination, printed at exit",
	.metrics = fill_metrics,
};

/* The outcome as printed: established, refused, timeout, or the errno. */
static const char *result_name(const struct tcpconnect_event *e)
{
	if (e->state == BPFKIT_TCP_ESTABLISHED)
		return "established";
	if (e->state != BPFKIT_TCP_CLOSE)
		return bpfkit_tcp_state_name(e->state);
	switch (e->error) {
	case 0:
		return "closed"; /* closed by its task before an answer */
	case ECONNREFUSED:
		return "refused";
	case ETIMEDOUT:
		return "timeout";
	}
	return strerrorname_np(e->error) ?: "error";
}

/* Connects per destination (-C, --metrics). */
struct dest_count {
	struct dest_key {
		__u8 daddr[16];
		__u16 family;
		__u16 dport;
	} key;
	__u64 connects;
	__u64 failed;
};

static struct bpfkit_tally dests =
	BPFKIT_TALLY_INIT(sizeof(struct dest_count), sizeof(struct dest_key));

/* Count a connect, for -C and --metrics. */
static int count_event(const void *event)
{
	const struct tcpconnect_event *e = event;
	struct dest_key key;
	struct dest_count *d;

	if (!bpfkit_output_counts() && !bpfkit_metrics_enabled())
		return 0;
	memset(&key, 0, sizeof(key));
	memcpy(key.daddr, e->flow.daddr, sizeof(key.daddr));
	key.family = bpfkit_flow_family(&e->flow);
	key.dport = e->flow.dport;
	d = bpfkit_tally_get(&dests, &key);
	if (!d)
		return -ENOMEM;
	d->connects++;
	if (e->state != BPFKIT_TCP_ESTABLISHED)
		d->failed++;
	return 0;
}

/*
 * A scrape: connects and failed connects per destination, as -C prints them.
 */
static int fill_metrics(struct bpfkit_metrics *m, void *ctx)
{
	char addr[INET6_ADDRSTRLEN], port[8];
	const char *labels[] = { "daddr", addr, "dport", port, NULL };
	size_t i;
	int pass, err = 0;

	for (pass = 0; pass < 2 && !err; pass++) {
		err = bpfkit_metrics_family(
			m,
			pass ? "bpfkit_tcpconnect_failed_connects_total" :
			       "bpfkit_tcpconnect_connects_total",
			BPFKIT_COUNTER,
			pass ? "Active TCP connects refused or timed out, by destination" :
			       "Active TCP connects, by destination");
		for (i = 0; i < dests.n && !err; i++) {
			const struct dest_count *d = bpfkit_tally_at(&dests, i);

			bpfkit_addr_str(d->key.family, d->key.daddr, addr,
					sizeof(addr));
			snprintf(port, sizeof(port), "%u", d->key.dport);
			err = bpfkit_metrics_add(
				m, labels, pass ? d->failed : d->connects);
		}
	}
	return err;
}

static void print_counts(void)
{
	char addr[INET6_ADDRSTRLEN];
	struct bpfkit_json j;
	size_t i;

	if (!bpfkit_output_json())
		printf("%-*s %*s %10s %10s\n", BPFKIT_ADDR_W, "DADDR",
		       BPFKIT_PORT_W, "DPORT", "CONNECTS", "FAILED");
	for (i = 0; i < dests.n; i++) {
		const struct dest_count *d = bpfkit_tally_at(&dests, i);

		bpfkit_addr_str(d->key.family, d->key.daddr, addr,
				sizeof(addr));
		if (!bpfkit_output_json()) {
			printf("%-*s %*u %10llu %10llu\n", BPFKIT_ADDR_W, addr,
			       BPFKIT_PORT_W, d->key.dport,
			       (unsigned long long)d->connects,
			       (unsigned long long)d->failed);
			continue;
		}
		bpfkit_json_begin(&j, stdout, NULL);
		bpfkit_json_uint(&j, "ip", d->key.family == AF_INET ? 4 : 6);
		bpfkit_json_str(&j, "daddr", addr, sizeof(addr));
		bpfkit_json_uint(&j, "dport", d->key.dport);
		bpfkit_json_uint(&j, "connects", d->connects);
		bpfkit_json_uint(&j, "failed", d->failed);
		bpfkit_json_end(&j);
	}
}

static void print_json(const void *event)
{
	const struct tcpconnect_event *e = event;
	struct bpfkit_json j;
	const char *err;

	bpfkit_json_begin(&j, stdout, &e->rec);
	bpfkit_json_task(&j, e->pid, e->tid, e->uid, e->comm);
	bpfkit_json_flow(&j, &e->flow);
	bpfkit_json_str(&j, "result", result_name(e), 32);
	if (e->state != BPFKIT_TCP_ESTABLISHED) {
		bpfkit_json_int(&j, "errno", e->error);
		err = e->error ? strerrorname_np(e->error) : NULL;
		if (err)
			bpfkit_json_str(&j, "error", err, 32);
	}
	bpfkit_json_end(&j);
}

static void print_row(const void *event)
{
	const struct tcpconnect_event *e = event;

	bpfkit_print_time(&e->rec);
	bpfkit_print_task(e->pid, e->comm);
	if (env.uid_column)
		printf("%-*u ", UID_W, e->uid);
	bpfkit_print_flow(&e->flow);
	printf(" %s\n", result_name(e));
}

static struct bpfkit_printer printer = {
	.size = sizeof(struct tcpconnect_event),
	.count = count_event,
	.counting = "count connects",
	.text = print_row,
	.json = print_json,
};

int main(int argc, char **argv)
{
	struct tcpconnect_bpf *skel = NULL;
	struct bpfkit_channel *ch = NULL;
	int err;

	/* Parse options; check privileges, tracefs and kernel BTF. */
	bpfkit_setup(&tool, argc, argv);

	/* Open the BPF object. */
	skel = tcpconnect_bpf__open_opts(bpfkit_open_opts());
	if (!skel)
		return bpfkit_open_failed();

	/* -x into .rodata. */
	skel->rodata->failed_only = env.failed_only;

	/* Load and verify. */
	err = bpfkit_load(skel->skeleton);
	if (err)
		goto cleanup;

	/* Open the event channel, then attach to the state changes. */
	err = bpfkit_attach(skel->skeleton, bpfkit_print_event, &printer, &ch);
	if (err)
		goto cleanup;

	/* Print the header (none for -C), then events until the end. */
	bpfkit_print_header("%-*s %-*s %-*s%s RESULT\n", BPFKIT_PID_W, "PID",
			    BPFKIT_COMM_W, "COMM",
			    env.uid_column ? UID_W + 1 : 0,
			    env.uid_column ? "UID" : "",
			    bpfkit_flow_header('S', 'D'));
	err = bpfkit_run(ch, NULL);
	if (!err && bpfkit_output_counts())
		print_counts();

cleanup:
	bpfkit_tally_free(&dests);
	bpfkit_channel_free(ch);
	tcpconnect_bpf__destroy(skel);
	return bpfkit_exit_code(err);
}
