// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * tcplife: print one line per closed TCP session: the process, the flow,
 * the bytes sent and received and how long it lasted.
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
#include "tcplife.h"
#include "tcplife.skel.h"

/* Column widths, for the header and every row. */
enum { BYTES_W = 10 };

static const struct bpfkit_tool tool = {
	.name = "tcplife",
	.doc = "Trace TCP sessions as they close: who, where, bytes each way and how long.\n"
	       "\v"
	       "Examples:\n"
	       "  tcplife                    # every session on the system\n"
	       "  tcplife -L 80,443          # sessions on local ports 80 and 443\n"
	       "  tcplife -D 5432 -j         # to remote port 5432, as JSON Lines\n"
	       "  tcplife -c curl -4         # curl's IPv4 sessions\n",
	.options = BPFKIT_OPT_EVENTS | BPFKIT_OPT_FAMILY | BPFKIT_OPT_PORTS,
	.tracepoints =
		(const struct bpfkit_tracepoint[]){ BPFKIT_TP_SOCK_STATE, {} },
};

static void print_json(const void *event)
{
	const struct tcplife_event *e = event;
	struct bpfkit_json j;

	bpfkit_json_begin(&j, stdout, &e->rec);
	bpfkit_json_owner(&j, e->pid, e->uid, e->owned ? e->comm : NULL);
	bpfkit_json_flow(&j, &e->flow);
	bpfkit_json_uint(&j, "tx_bytes", e->tx_bytes);
	bpfkit_json_uint(&j, "rx_bytes", e->rx_bytes);
	bpfkit_json_double(&j, "ms", e->duration_ns / 1e6);
	bpfkit_json_end(&j);
}

static void print_row(const void *event)
{
	const struct tcplife_event *e = event;

	bpfkit_print_time(&e->rec);
	/* Not owned: reset before any task of its own touched it. */
	bpfkit_print_task(e->pid, e->owned ? e->comm : NULL);
	bpfkit_print_flow(&e->flow);
	printf(" %*llu %*llu %.2f\n", BYTES_W, (unsigned long long)e->tx_bytes,
	       BYTES_W, (unsigned long long)e->rx_bytes, e->duration_ns / 1e6);
}

static struct bpfkit_printer printer = {
	.size = sizeof(struct tcplife_event),
	.text = print_row,
	.json = print_json,
};

int main(int argc, char **argv)
{
	struct tcplife_bpf *skel = NULL;
	struct bpfkit_channel *ch = NULL;
	int err;

	/* Parse options; check privileges, tracefs and kernel BTF. */
	bpfkit_setup(&tool, argc, argv);

	/* Open the BPF object. */
	skel = tcplife_bpf__open_opts(bpfkit_open_opts());
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

	/* Print the header, then sessions until the end. */
	bpfkit_print_header("%-*s %-*s %s %*s %*s MS\n", BPFKIT_PID_W, "PID",
			    BPFKIT_COMM_W, "COMM", bpfkit_flow_header('L', 'R'),
			    BYTES_W, "TX_BYTES", BYTES_W, "RX_BYTES");
	err = bpfkit_run(ch, NULL);

cleanup:
	bpfkit_channel_free(ch);
	tcplife_bpf__destroy(skel);
	return bpfkit_exit_code(err);
}
