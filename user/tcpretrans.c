// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * tcpretrans: print every TCP retransmit with the flow, the socket's state
 * and its process where known; -C counts retransmits per flow and state and
 * prints them at exit instead; --metrics serves those counts at every
 * scrape.
 */
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
#include "tally.h"
#include "setup.h"
#include "tracefs.h"
#include "tcpretrans.h"
#include "tcpretrans.skel.h"

/* Column widths, for the header and every row. */
enum { PID_W = 7, COMM_W = 15 };

static struct {
	bool count; /* -C */
} env;

static const struct argp_option options[] = {
	{ "count", 'C', NULL, 0,
	  "Count retransmits per flow and state, printed at exit", 0 },
	{},
};

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	if (key != 'C')
		return ARGP_ERR_UNKNOWN;
	env.count = true;
	return 0;
}

static const struct bpfkit_tool tool = {
	.name = "tcpretrans",
	.doc = "Trace TCP retransmits: the flow, the socket's state and its process where known.\n"
	       "\v"
	       "Examples:\n"
	       "  tcpretrans                 # every retransmit on the system\n"
	       "  tcpretrans -c nginx        # of nginx's sockets\n"
	       "  tcpretrans -C -d 10        # retransmits per flow over 10 s\n"
	       "  tcpretrans -6 -j           # IPv6 only, as JSON Lines\n",
	.options = BPFKIT_OPT_EVENTS | BPFKIT_OPT_FAMILY,
	.own_options = options,
	.own_parser = parse_arg,
	.tracepoints =
		(const struct bpfkit_tracepoint[]){
			{ "tcp", "tcp_retransmit_skb", "Linux 4.15+" },
			BPFKIT_TP_SOCK_STATE,
			{} },
};

/* Retransmits per flow and state (-C, --metrics), in the order first seen. */
struct flow_count {
	struct flow_key {
		struct bpfkit_flow flow;
		__u32 state;
	} key;
	__u64 retransmits;
};

static struct bpfkit_tally flows =
	BPFKIT_TALLY_INIT(sizeof(struct flow_count), sizeof(struct flow_key));

static int count_event(const struct tcpretrans_event *e)
{
	struct flow_key key;
	struct flow_count *c;

	memset(&key, 0, sizeof(key));
	key.flow = e->flow;
	key.state = e->state;
	c = bpfkit_tally_get(&flows, &key);
	if (!c)
		return -ENOMEM;
	c->retransmits++;
	return 0;
}

/* A scrape: retransmits per flow and state, as -C prints them. */
static int fill_metrics(struct bpfkit_metrics *m, void *ctx)
{
	char sport[8], dport[8], state[16];
	struct bpfkit_flow_text t;
	const char *labels[] = { "saddr", t.saddr, "sport", sport,
				 "daddr", t.daddr, "dport", dport,
				 "state", state,   NULL };
	size_t i;
	int err;

	err = bpfkit_metrics_family(
		m, "bpfkit_tcpretrans_retransmits_total", BPFKIT_COUNTER,
		"TCP retransmits, by flow and socket state");
	for (i = 0; i < flows.n && !err; i++) {
		const struct flow_count *c = bpfkit_tally_at(&flows, i);

		bpfkit_flow_text(&c->key.flow, &t);
		snprintf(sport, sizeof(sport), "%u", c->key.flow.sport);
		snprintf(dport, sizeof(dport), "%u", c->key.flow.dport);
		snprintf(state, sizeof(state), "%s",
			 bpfkit_tcp_state_name(c->key.state));
		err = bpfkit_metrics_add(m, labels, c->retransmits);
	}
	return err;
}

static void print_counts(void)
{
	struct bpfkit_flow_text t;
	struct bpfkit_json j;
	size_t i;

	if (!bpfkit_output_json())
		printf("%s %-11s %11s\n", bpfkit_flow_header('L', 'R'), "STATE",
		       "RETRANSMITS");
	for (i = 0; i < flows.n; i++) {
		const struct flow_count *c = bpfkit_tally_at(&flows, i);
		const char *state = bpfkit_tcp_state_name(c->key.state);

		if (!bpfkit_output_json()) {
			bpfkit_flow_text(&c->key.flow, &t);
			printf(BPFKIT_FLOW_COLS " %-11s %11llu\n",
			       BPFKIT_FLOW_ARGS(t), state,
			       (unsigned long long)c->retransmits);
			continue;
		}
		bpfkit_json_begin(&j, stdout, NULL);
		bpfkit_json_flow(&j, &c->key.flow);
		bpfkit_json_str(&j, "state", state, 16);
		bpfkit_json_uint(&j, "retransmits", c->retransmits);
		bpfkit_json_end(&j);
	}
}

static void print_json(const struct tcpretrans_event *e)
{
	struct bpfkit_json j;

	bpfkit_json_begin(&j, stdout, &e->rec);
	if (e->owned) {
		bpfkit_json_int(&j, "pid", e->pid);
		bpfkit_json_int(&j, "uid", e->uid);
		bpfkit_json_str(&j, "comm", e->comm, sizeof(e->comm));
	}
	bpfkit_json_flow(&j, &e->flow);
	bpfkit_json_str(&j, "state", bpfkit_tcp_state_name(e->state), 16);
	bpfkit_json_end(&j);
}

static enum bpfkit_verdict print_event(void *ctx, const void *data, size_t size)
{
	const struct tcpretrans_event *e = data;
	struct bpfkit_flow_text t;

	/* Records come whole; perf may pad the end. */
	if (size < sizeof(*e))
		return BPFKIT_UNREADABLE;
	if ((env.count || bpfkit_metrics_enabled()) && count_event(e)) {
		bpfkit_fail("count retransmits", -ENOMEM);
		bpfkit_stop();
		return BPFKIT_SHOWN;
	}
	if (env.count)
		return BPFKIT_SHOWN;
	if (bpfkit_output_json()) {
		print_json(e);
		return BPFKIT_SHOWN;
	}
	bpfkit_flow_text(&e->flow, &t);
	bpfkit_print_time(&e->rec);
	if (e->owned) {
		printf("%-*u ", PID_W, e->pid);
		bpfkit_print_str(e->comm, sizeof(e->comm), COMM_W);
	} else {
		/* Its socket had no change in a task of its own since start. */
		printf("%-*s %-*s ", PID_W, "-", COMM_W, "-");
	}
	printf(BPFKIT_FLOW_COLS " %s\n", BPFKIT_FLOW_ARGS(t),
	       bpfkit_tcp_state_name(e->state));
	return BPFKIT_SHOWN;
}

int main(int argc, char **argv)
{
	struct tcpretrans_bpf *skel = NULL;
	struct bpfkit_channel *ch = NULL;
	int err;

	/* Parse options; check privileges, tracefs and kernel BTF. */
	bpfkit_setup(&tool, argc, argv);

	/* Open the BPF object. */
	skel = tcpretrans_bpf__open_opts(bpfkit_open_opts());
	if (!skel)
		return bpfkit_open_failed();

	/* Load and verify. */
	err = bpfkit_load(skel->skeleton);
	if (err)
		goto cleanup;

	/* Open the event channel, then attach to both tracepoints. */
	err = bpfkit_attach(skel->skeleton, print_event, NULL, &ch);
	if (err)
		goto cleanup;

	/* Serve the counts per flow and state with --metrics. */
	bpfkit_metrics_source(fill_metrics, NULL);

	/* Print the header (none for -C), then retransmits until the end. */
	if (!env.count)
		bpfkit_print_header("%-*s %-*s %s STATE\n", PID_W, "PID",
				    COMM_W, "COMM",
				    bpfkit_flow_header('L', 'R'));
	err = bpfkit_run(ch, NULL);
	if (!err && env.count)
		print_counts();

cleanup:
	bpfkit_tally_free(&flows);
	bpfkit_channel_free(ch);
	tcpretrans_bpf__destroy(skel);
	return bpfkit_exit_code(err);
}
