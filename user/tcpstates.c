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
enum { SK_W = 16, PID_W = 7, COMM_W = 15, STATE_W = 11 };

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

static void print_json(const struct tcpstates_event *e)
{
	struct bpfkit_json j;
	char sk[24];

	bpfkit_json_begin(&j, stdout, &e->rec);
	snprintf(sk, sizeof(sk), "%llx", (unsigned long long)e->skaddr);
	bpfkit_json_str(&j, "skaddr", sk, sizeof(sk));
	if (e->owned) {
		bpfkit_json_int(&j, "pid", e->pid);
		bpfkit_json_int(&j, "uid", e->uid);
		bpfkit_json_str(&j, "comm", e->comm, sizeof(e->comm));
	}
	bpfkit_json_flow(&j, &e->flow);
	bpfkit_json_str(&j, "oldstate", bpfkit_tcp_state_name(e->oldstate),
			STATE_W + 2);
	bpfkit_json_str(&j, "newstate", bpfkit_tcp_state_name(e->newstate),
			STATE_W + 2);
	if (e->prev_ns)
		bpfkit_json_double(&j, "ms", e->prev_ns / 1e6);
	bpfkit_json_end(&j);
}

static enum bpfkit_verdict print_event(void *ctx, const void *data, size_t size)
{
	const struct tcpstates_event *e = data;
	struct bpfkit_flow_text t;

	/* Records come whole; perf may pad the end. */
	if (size < sizeof(*e))
		return BPFKIT_UNREADABLE;
	if (bpfkit_output_json()) {
		print_json(e);
		return BPFKIT_SHOWN;
	}
	bpfkit_flow_text(&e->flow, &t);
	bpfkit_print_time(&e->rec);
	printf("%-*llx ", SK_W, (unsigned long long)e->skaddr);
	if (e->owned) {
		printf("%-*u ", PID_W, e->pid);
		bpfkit_print_str(e->comm, sizeof(e->comm), COMM_W);
	} else {
		/* No change in a task of its own yet. */
		printf("%-*s %-*s ", PID_W, "-", COMM_W, "-");
	}
	printf(BPFKIT_FLOW_COLS " %-*s %-*s ", BPFKIT_FLOW_ARGS(t), STATE_W,
	       bpfkit_tcp_state_name(e->oldstate), STATE_W,
	       bpfkit_tcp_state_name(e->newstate));
	print_ms(e);
	return BPFKIT_SHOWN;
}

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
	err = bpfkit_attach(skel->skeleton, print_event, NULL, &ch);
	if (err)
		goto cleanup;

	/* Print the header, then changes until the end. */
	bpfkit_print_header("%-*s %-*s %-*s %s %-*s %-*s MS\n", SK_W, "SKADDR",
			    PID_W, "PID", COMM_W, "COMM",
			    bpfkit_flow_header('L', 'R'), STATE_W, "OLDSTATE",
			    STATE_W, "NEWSTATE");
	err = bpfkit_run(ch, NULL);

cleanup:
	bpfkit_channel_free(ch);
	tcpstates_bpf__destroy(skel);
	return bpfkit_exit_code(err);
}
