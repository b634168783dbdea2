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

static int fill_metrics(struct bpfkit_metrics *m, void *ctx);

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
	.counts = "Count retransmits per flow and state, printed at exit",
	.tracepoints =
		(const struct bpfkit_tracepoint[]){
			{ "tcp", "tcp_retransmit_skb", "Linux 4.15+" },
			BPFKIT_TP_SOCK_STATE,
			{} },
	.metrics = fill_metrics,
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

/* Count a retransmit, for -C and --metrics. */
static int count_event(const void *event)
{
	const struct tcpretrans_event *e = event;
	struct flow_key key;
	struct flow_count *c;

	if (!bpfkit_output_counts() && !bpfkit_metrics_enabled())
		return 0;
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
	struct bpfkit_json j;
	size_t i;

	if (!bpfkit_output_json())
		printf("%s %-11s %11s\n", bpfkit_flow_header('L', 'R'), "STATE",
		       "RETRANSMITS");
	for (i = 0; i < flows.n; i++) {
		const struct flow_count *c = bpfkit_tally_at(&flows, i);
		const char *state = bpfkit_tcp_state_name(c->key.state);

		if (!bpfkit_output_json()) {
			bpfkit_print_flow(&c->key.flow);
			printf(" %-11s %11llu\n", state,
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

static void print_json(const void *event)
{
	const struct tcpretrans_event *e = event;
	struct bpfkit_json j;

	bpfkit_json_begin(&j, stdout, &e->rec);
	bpfkit_json_owner(&j, e->pid, e->uid, e->owned ? e->comm : NULL);
	bpfkit_json_flow(&j, &e->flow);
	bpfkit_json_str(&j, "state", bpfkit_tcp_state_name(e->state), 16);
	bpfkit_json_end(&j);
}

static void print_row(const void *event)
{
	const struct tcpretrans_event *e = event;

	bpfkit_print_time(&e->rec);
	/* Not owned: no change in a task of its own since start. */
	bpfkit_print_task(e->pid, e->owned ? e->comm : NULL);
	bpfkit_print_flow(&e->flow);
	printf(" %s\n", bpfkit_tcp_state_name(e->state));
}

static struct bpfkit_printer printer = {
	.size = sizeof(struct tcpretrans_event),
	.count = count_event,
	.counting = "count retransmits",
	.text = print_row,
	.json = print_json,
};

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
	err = bpfkit_attach(skel->skeleton, bpfkit_print_event, &printer, &ch);
	if (err)
		goto cleanup;

	/* Print the header (none for -C), then retransmits until the end. */
	bpfkit_print_header("%-*s %-*s %s STATE\n", BPFKIT_PID_W, "PID",
			    BPFKIT_COMM_W, "COMM",
			    bpfkit_flow_header('L', 'R'));
	err = bpfkit_run(ch, NULL);
	if (!err && bpfkit_output_counts())
		print_counts();

cleanup:
	bpfkit_tally_free(&flows);
	bpfkit_channel_free(ch);
	tcpretrans_bpf__destroy(skel);
	return bpfkit_exit_code(err);
}
