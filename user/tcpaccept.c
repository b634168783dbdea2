// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * tcpaccept: print every accepted TCP connection with the accepting
 * process, the local address and port it was accepted on and the peer's.
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
#include "tcpaccept.h"
#include "tcpaccept.skel.h"

/* Column widths, for the header and every row. */
static const struct argp_option options[] = {
	{ "port", 'P', "PORTS", 0,
	  "Trace connections accepted on these local ports only (comma-separated)",
	  0 },
	{},
};

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	if (key != 'P')
		return ARGP_ERR_UNKNOWN;
	return bpfkit_parse_ports("-P/--port", arg, &bpfkit_opts.net.lports);
}

static const struct bpfkit_tool tool = {
	.name = "tcpaccept",
	.doc = "Trace accepted TCP connections: which process accepted whom, where.\n"
	       "\v"
	       "Examples:\n"
	       "  tcpaccept                  # every accept on the system\n"
	       "  tcpaccept -P 80,443        # on local ports 80 and 443\n"
	       "  tcpaccept -c nginx -j      # nginx's, as JSON Lines\n",
	.options = BPFKIT_OPT_EVENTS | BPFKIT_OPT_FAMILY,
	.own_options = options,
	.own_parser = parse_arg,
	.tracepoints =
		(const struct bpfkit_tracepoint[]){
			{ "syscalls", "sys_exit_accept4",
			  "CONFIG_FTRACE_SYSCALLS" },
			{ "syscalls", "sys_exit_accept",
			  "CONFIG_FTRACE_SYSCALLS" },
			{} },
};

static void print_json(const void *event)
{
	const struct tcpaccept_event *e = event;
	struct bpfkit_json j;

	bpfkit_json_begin(&j, stdout, &e->rec);
	bpfkit_json_task(&j, e->pid, e->tid, e->uid, e->comm);
	bpfkit_json_int(&j, "fd", e->fd);
	bpfkit_json_flow(&j, &e->flow);
	bpfkit_json_end(&j);
}

static void print_row(const void *event)
{
	const struct tcpaccept_event *e = event;

	bpfkit_print_time(&e->rec);
	bpfkit_print_task(e->pid, e->comm);
	bpfkit_print_flow(&e->flow);
	printf("\n");
}

static struct bpfkit_printer printer = {
	.size = sizeof(struct tcpaccept_event),
	.text = print_row,
	.json = print_json,
};

int main(int argc, char **argv)
{
	struct tcpaccept_bpf *skel = NULL;
	struct bpfkit_channel *ch = NULL;
	int err;

	/* Parse options; check privileges, tracefs and kernel BTF. */
	bpfkit_setup(&tool, argc, argv);

	/* Open the BPF object. */
	skel = tcpaccept_bpf__open_opts(bpfkit_open_opts());
	if (!skel)
		return bpfkit_open_failed();

	/* Load and verify. */
	err = bpfkit_load(skel->skeleton);
	if (err)
		goto cleanup;

	/* Open the event channel, then attach to accept's exits. */
	err = bpfkit_attach(skel->skeleton, bpfkit_print_event, &printer, &ch);
	if (err)
		goto cleanup;

	/* Print the header, then connections until the end. */
	bpfkit_print_header("%-*s %-*s %s\n", BPFKIT_PID_W, "PID",
			    BPFKIT_COMM_W, "COMM",
			    bpfkit_flow_header('L', 'R'));
	err = bpfkit_run(ch, NULL);

cleanup:
	bpfkit_channel_free(ch);
	tcpaccept_bpf__destroy(skel);
	return bpfkit_exit_code(err);
}
