// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * tcpstates: print every TCP state change with the socket's process, the
 * flow and the time the socket spent in its old state.
 */
#include <errno.h>
#include <stdio.h>
#include "channel.h"
#include "cli.h"
#include "diag.h"
#include "net.h"
#include "output.h"
#include "run.h"
#include "setup.h"
#include "tracefs.h"
#include "tcpstates.h"
#include "tcpstates.skel.h"

/* Column widths, for the header and every row. */
enum { SK_W = 16, STATE_W = 11 };

static const struct bpfkit_tool tool = {
	.name = "tcpstates",
	.doc = "Trace TCP state changes, with the time spent in the old state.\n"
	       "\v"
	       "Examples:\n"
	       "  tcpstates                  # every change on the system\n"
	       "  tcpstates -L 80,443        # of sockets on local ports 80 and 443\n"
	       "  tcpstates -D 5432 -j       # to remote port 5432, as JSON Lines\n"
	       "  tcpstates -6 -T            # IPv6 only, with the time of day\n",
	.options = BPFKIT_OPT_EVENTS | BPFKIT_OPT_FAMILY | BPFKIT_OPT_PORTS,
	.tracepoints =
		(const struct bpfkit_tracepoint[]){ BPFKIT_TP_SOCK_STATE, {} },
};

/* Milliseconds in the old state, or "-" when its start was not seen. */
static void print_ms(const struct tcpstates_event *e)
{
	if (e->prev_ns)
		printf("%.3f\n", e->prev_ns / 1e6);
	else
		printf("-\n");
}

static void print_json(const void *event)
{
	const struct tcpstates_event *e = event;
	struct bpfkit_json j;
	char sk[24];

	bpfkit_json_begin(&j, stdout, &e->rec);
	snprintf(sk, sizeof(sk), "%llx", (unsigned long long)e->skaddr);
	bpfkit_json_str(&j, "skaddr", sk, sizeof(sk));
	bpfkit_json_owner(&j, e->pid, e->uid, e->owned ? e->comm : NULL);
	bpfkit_json_flow(&j, &e->flow);
	bpfkit_json_str(&j, "oldstate", bpfkit_tcp_state_name(e->oldstate),
			STATE_W + 2);
	bpfkit_json_str(&j, "newstate", bpfkit_tcp_state_name(e->newstate),
			STATE_W + 2);
	if (e->prev_ns)
		bpfkit_json_double(&j, "ms", e->prev_ns / 1e6);
	bpfkit_json_end(&j);
}

static void print_row(const void *event)
{
	const struct tcpstates_event *e = event;

	bpfkit_print_time(&e->rec);
	printf("%-*llx ", SK_W, (unsigned long long)e->skaddr);
	/* Not owned: no change in a task of its own yet. */
	bpfkit_print_task(e->pid, e->owned ? e->comm : NULL);
	bpfkit_print_flow(&e->flow);
	printf(" %-*s %-*s ", STATE_W, bpfkit_tcp_state_name(e->oldstate),
	       STATE_W, bpfkit_tcp_state_name(e->newstate));
	print_ms(e);
}

static struct bpfkit_printer printer = {
	.size = sizeof(struct tcpstates_event),
	.text = print_row,
	.json = print_json,
};

int main(int argc, char **argv)
{
	struct tcpstates_bpf *skel = NULL;
	struct bpfkit_channel *ch = NULL;
	int err;

	/* Parse options; check privileges, tracefs and kernel BTF. */
	bpfkit_setup(&tool, argc, argv);

	/* Open the BPF object. */
	skel = tcpstates_bpf__open_opts(bpfkit_open_opts());
	if (!skel)
		return bpfkit_open_failed();

	/* Load and verify, with the filters, -4/-6, -L and -D in .rodata. */
	err = bpfkit_load(skel->skeleton);
	if (err)
		goto cleanup;

	/* Open the event channel, then attach to the state changes. */
	err = bpfkit_attach(skel->skeleton, bpfkit_print_event, &printer, &ch);
	if (err)
		goto cleanup;

	/* Print the header, then changes until the end. */
	bpfkit_print_header("%-*s %-*s %-*s %s %-*s %-*s MS\n", SK_W, "SKADDR",
			    BPFKIT_PID_W, "PID", BPFKIT_COMM_W, "COMM",
			    bpfkit_flow_header('L', 'R'), STATE_W, "OLDSTATE",
			    STATE_W, "NEWSTATE");
	err = bpfkit_run(ch, NULL);

cleanup:
	bpfkit_channel_free(ch);
	tcpstates_bpf__destroy(skel);
	return bpfkit_exit_code(err);
}
