// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * solisten: print every listen(2) with the process, the socket's protocol,
 * the backlog asked for, the address and port it listens on and the
 * result.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include "channel.h"
#include "cli.h"
#include "diag.h"
#include "net.h"
#include "output.h"
#include "run.h"
#include "setup.h"
#include "tracefs.h"
#include "solisten.h"
#include "solisten.skel.h"

/* Column widths, for the header and every row. */
enum { RET_W = 10, PROTO_W = 7, BACKLOG_W = 7 };

static const struct argp_option options[] = {
	{ "port", 'P', "PORTS", 0,
	  "Trace listens on these local ports only (comma-separated)", 0 },
	{},
};

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	if (key != 'P')
		return ARGP_ERR_UNKNOWN;
	return bpfkit_parse_ports("-P/--port", arg, &bpfkit_opts.net.lports);
}

static const struct bpfkit_tool tool = {
	.name = "solisten",
	.doc = "Trace listen(2): who listens on which address and port, with the backlog and the result.\n"
	       "\v"
	       "Examples:\n"
	       "  solisten                   # every listen on the system\n"
	       "  solisten -4 -P 80,443      # IPv4 listens on ports 80 and 443\n"
	       "  solisten -x                # failed listens only\n"
	       "  solisten -c nginx -j       # nginx's, as JSON Lines\n",
	.options = BPFKIT_OPT_EVENTS | BPFKIT_OPT_FAMILY | BPFKIT_OPT_FAILED,
	.own_options = options,
	.own_parser = parse_arg,
	.tracepoints =
		(const struct bpfkit_tracepoint[]){
			{ "syscalls", "sys_enter_listen",
			  "CONFIG_FTRACE_SYSCALLS" },
			{ "syscalls", "sys_exit_listen",
			  "CONFIG_FTRACE_SYSCALLS" },
			{} },
};

static bool is_inet(const struct solisten_event *e)
{
	return e->flow.family == AF_INET || e->flow.family == AF_INET6;
}

static const char *error_name(__s32 ret)
{
	return ret >= 0 ? "0" : strerrorname_np(-(long)ret) ?: "?";
}

/* TCPv4, TCPv6, ...; the family for other sockets; "-" for no socket. */
static const char *proto_text(const struct solisten_event *e, char *buf,
			      size_t len)
{
	char name[16];

	if (!e->flow.family)
		return "-";
	if (!is_inet(e))
		return bpfkit_family_name(e->flow.family, buf, len);
	snprintf(buf, len, "%sv%d",
		 bpfkit_proto_name(e->proto, name, sizeof(name)),
		 bpfkit_flow_family(&e->flow) == AF_INET ? 4 : 6);
	return buf;
}

static void print_json(const void *event)
{
	const struct solisten_event *e = event;
	char buf[16], addr[INET6_ADDRSTRLEN];
	struct bpfkit_json j;

	bpfkit_json_begin(&j, stdout, &e->rec);
	bpfkit_json_task(&j, e->pid, e->tid, e->uid, e->comm);
	bpfkit_json_int(&j, "ret", e->ret < 0 ? -1 : e->ret);
	bpfkit_json_int(&j, "errno", e->ret < 0 ? -(long)e->ret : 0);
	if (e->ret < 0)
		bpfkit_json_str(&j, "error", error_name(e->ret), 32);
	bpfkit_json_int(&j, "fd", e->fd);
	bpfkit_json_int(&j, "backlog", e->backlog);
	if (e->flow.family)
		bpfkit_json_str(&j, "family",
				bpfkit_family_name(e->flow.family, buf,
						   sizeof(buf)),
				sizeof(buf));
	if (is_inet(e)) {
		bpfkit_json_str(&j, "proto",
				bpfkit_proto_name(e->proto, buf, sizeof(buf)),
				sizeof(buf));
		bpfkit_json_uint(&j, "ip",
				 bpfkit_flow_family(&e->flow) == AF_INET ? 4 :
									   6);
		bpfkit_json_str(&j, "addr",
				bpfkit_addr_str(e->flow.family, e->flow.saddr,
						addr, sizeof(addr)),
				sizeof(addr));
		bpfkit_json_uint(&j, "port", e->flow.sport);
	}
	bpfkit_json_end(&j);
}

static void print_row(const void *event)
{
	const struct solisten_event *e = event;
	char proto[24], addr[INET6_ADDRSTRLEN];

	bpfkit_print_time(&e->rec);
	bpfkit_print_task(e->pid, e->comm);
	printf("%-*s %-*s %-*d ", RET_W, error_name(e->ret), PROTO_W,
	       proto_text(e, proto, sizeof(proto)), BACKLOG_W, e->backlog);
	if (is_inet(e))
		printf("%*u %s\n", BPFKIT_PORT_W, e->flow.sport,
		       bpfkit_addr_str(e->flow.family, e->flow.saddr, addr,
				       sizeof(addr)));
	else
		printf("%*s -\n", BPFKIT_PORT_W, "-");
}

static struct bpfkit_printer printer = {
	.size = sizeof(struct solisten_event),
	.text = print_row,
	.json = print_json,
};

int main(int argc, char **argv)
{
	struct solisten_bpf *skel = NULL;
	struct bpfkit_channel *ch = NULL;
	int err;

	/* Parse options; check privileges, tracefs and kernel BTF. */
	bpfkit_setup(&tool, argc, argv);

	/* Open the BPF object. */
	skel = solisten_bpf__open_opts(bpfkit_open_opts());
	if (!skel)
		return bpfkit_open_failed();

	/* Set our own filter. */
	skel->rodata->failed_only = bpfkit_opts.failed_only;

	/* Load and verify. */
	err = bpfkit_load(skel->skeleton);
	if (err)
		goto cleanup;

	/* Open the event channel, then attach to listen's tracepoints. */
	err = bpfkit_attach(skel->skeleton, bpfkit_print_event, &printer, &ch);
	if (err)
		goto cleanup;

	/* Print the header, then events until the end. */
	bpfkit_print_header("%-*s %-*s %-*s %-*s %-*s %*s ADDR\n", BPFKIT_PID_W,
			    "PID", BPFKIT_COMM_W, "COMM", RET_W, "RET", PROTO_W,
			    "PROTO", BACKLOG_W, "BACKLOG", BPFKIT_PORT_W,
			    "PORT");
	err = bpfkit_run(ch, NULL);

cleanup:
	bpfkit_channel_free(ch);
	solisten_bpf__destroy(skel);
	return bpfkit_exit_code(err);
}
