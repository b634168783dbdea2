// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * bindsnoop: print every bind(2) with the process, the protocol, the
 * address and port, the socket's SO_REUSEADDR/SO_REUSEPORT and the result.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include "channel.h"
#include "cli.h"
#include "diag.h"
#include "net.h"
#include "output.h"
#include "run.h"
#include "setup.h"
#include "tracefs.h"
#include "bindsnoop.h"
#include "bindsnoop.skel.h"

/* Column widths, for the header and every row. */
enum {
	PID_W = 7,
	COMM_W = 15,
	RET_W = 10,
	PROTO_W = 7,
	OPTS_W = 4,
	PORT_W = 5
};

static const struct bpfkit_tool tool = {
	.name = "bindsnoop",
	.doc = "Trace bind(2): who bound which address and port, with the socket's options and the result.\n"
	       "\v"
	       "Examples:\n"
	       "  bindsnoop                  # every bind on the system\n"
	       "  bindsnoop -x               # failed binds only (EADDRINUSE, EACCES...)\n"
	       "  bindsnoop -c nginx -j      # nginx's binds, as JSON Lines\n",
	.options = BPFKIT_OPT_EVENTS | BPFKIT_OPT_FAILED,
	.tracepoints =
		(const struct bpfkit_tracepoint[]){
			{ "syscalls", "sys_enter_bind",
			  "CONFIG_FTRACE_SYSCALLS" },
			{} },
};

static bool is_inet(const struct bindsnoop_event *e)
{
	return e->family == AF_INET || e->family == AF_INET6;
}

/* The protocol for an inet socket, else the family: TCP, UDP, UNIX... */
static const char *proto_name(const struct bindsnoop_event *e, char *buf,
			      size_t len)
{
	if (!is_inet(e) || !(e->opts & BINDSNOOP_SOCKET))
		return bpfkit_family_name(e->family, buf, len);
	return bpfkit_proto_name(e->proto, buf, len);
}

static const char *error_name(__s32 ret)
{
	return ret >= 0 ? "0" : strerrorname_np(-(long)ret) ?: "?";
}

/* The address asked for, as text; "-" for a socket not AF_INET(6). */
static void addr_text(const struct bindsnoop_event *e, char *addr, size_t len)
{
	snprintf(addr, len, "-");
	if (is_inet(e))
		inet_ntop(e->family, e->addr, addr, len);
}

static void print_json(const void *event)
{
	const struct bindsnoop_event *e = event;
	char fam[16], proto[16], addr[INET6_ADDRSTRLEN];
	struct bpfkit_json j;

	addr_text(e, addr, sizeof(addr));

	bpfkit_json_begin(&j, stdout, &e->rec);
	bpfkit_json_task(&j, e->pid, e->tid, e->uid, e->comm);
	bpfkit_json_int(&j, "ret", e->ret < 0 ? -1 : e->ret);
	bpfkit_json_int(&j, "errno", e->ret < 0 ? -(long)e->ret : 0);
	if (e->ret < 0)
		bpfkit_json_str(&j, "error", error_name(e->ret), 32);
	bpfkit_json_int(&j, "fd", e->fd);
	bpfkit_json_str(&j, "family",
			bpfkit_family_name(e->family, fam, sizeof(fam)),
			sizeof(fam));
	if (is_inet(e)) {
		bpfkit_json_str(&j, "addr", addr, INET6_ADDRSTRLEN);
		bpfkit_json_uint(&j, "port", e->port);
	}
	if (e->opts & BINDSNOOP_SOCKET) {
		bpfkit_json_str(&j, "proto",
				proto_name(e, proto, sizeof(proto)),
				sizeof(proto));
		bpfkit_json_uint(&j, "sock_type", e->type);
		bpfkit_json_bool(&j, "reuseaddr",
				 e->opts & BINDSNOOP_REUSEADDR);
		bpfkit_json_bool(&j, "reuseport",
				 e->opts & BINDSNOOP_REUSEPORT);
		bpfkit_json_int(&j, "bound_dev_if", e->bound_dev_if);
		if (is_inet(e))
			bpfkit_json_uint(&j, "bound_port", e->bound_port);
	}
	bpfkit_json_end(&j);
}

static void print_row(const void *event)
{
	const struct bindsnoop_event *e = event;
	char addr[INET6_ADDRSTRLEN], proto[16], opts[OPTS_W + 1] = "-";

	addr_text(e, addr, sizeof(addr));
	if (e->opts & BINDSNOOP_SOCKET)
		snprintf(opts, sizeof(opts), "%c%c",
			 e->opts & BINDSNOOP_REUSEADDR ? 'R' : '.',
			 e->opts & BINDSNOOP_REUSEPORT ? 'r' : '.');
	bpfkit_print_time(&e->rec);
	printf("%-*u ", PID_W, e->pid);
	bpfkit_print_str(e->comm, sizeof(e->comm), COMM_W);
	printf("%-*s %-*s %-*s ", RET_W, error_name(e->ret), PROTO_W,
	       proto_name(e, proto, sizeof(proto)), OPTS_W, opts);
	/* The port the socket got, or the one it asked for and was refused. */
	if (is_inet(e))
		printf("%*u %s\n", PORT_W,
		       e->ret == 0 && (e->opts & BINDSNOOP_SOCKET) ?
			       e->bound_port :
			       e->port,
		       addr);
	else
		printf("%*s -\n", PORT_W, "-");
}

static struct bpfkit_printer printer = {
	.size = sizeof(struct bindsnoop_event),
	.text = print_row,
	.json = print_json,
};

int main(int argc, char **argv)
{
	struct bindsnoop_bpf *skel = NULL;
	struct bpfkit_channel *ch = NULL;
	int err;

	/* Parse options; check privileges, tracefs and kernel BTF. */
	bpfkit_setup(&tool, argc, argv);

	/* Open the BPF object. */
	skel = bindsnoop_bpf__open_opts(bpfkit_open_opts());
	if (!skel)
		return bpfkit_open_failed();

	/* Set our own filter. */
	skel->rodata->failed_only = bpfkit_opts.failed_only;

	/* Load and verify. */
	err = bpfkit_load(skel->skeleton);
	if (err)
		goto cleanup;

	/* Open the event channel, then attach to bind's tracepoints. */
	err = bpfkit_attach(skel->skeleton, bpfkit_print_event, &printer, &ch);
	if (err)
		goto cleanup;

	/* Print the header, then events until the end. */
	bpfkit_print_header("%-*s %-*s %-*s %-*s %-*s %*s ADDR\n", PID_W, "PID",
			    COMM_W, "COMM", RET_W, "RET", PROTO_W, "PROTO",
			    OPTS_W, "OPTS", PORT_W, "PORT");
	err = bpfkit_run(ch, NULL);

cleanup:
	bpfkit_channel_free(ch);
	bindsnoop_bpf__destroy(skel);
	return bpfkit_exit_code(err);
}
