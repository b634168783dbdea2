// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * gethostlatency: print every host name lookup made with getaddrinfo(),
 * gethostbyname() or gethostbyname2(), with its latency, from uprobes and
 * uretprobes on those functions in libc.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "channel.h"
#include "cli.h"
#include "diag.h"
#include "output.h"
#include "run.h"
#include "setup.h"
#include "gethostlatency.h"
#include "gethostlatency.skel.h"

/* Column widths, for the header and every row. */
enum { PID_W = 7, COMM_W = 15, FUNC_W = 14, LAT_W = 10 };

/* What libbpf resolves when this process maps no libc (a static build). */
#define LIBC_NAME "libc.so.6"

static struct {
	const char *libc; /* --libc; NULL: the one this process maps */
} env;

static const struct bpfkit_binary_opt libc_opt = {
	.name = "libc",
	.key = 'l',
	.doc = "The C library to trace; default: the one this program runs with",
	.path = &env.libc,
};

static const struct bpfkit_tool tool = {
	.name = "gethostlatency",
	.doc = "Print host name lookups (getaddrinfo, gethostbyname, gethostbyname2)\n"
	       "with their latency.\n"
	       "\v"
	       "Examples:\n"
	       "  gethostlatency               # every lookup on the system\n"
	       "  gethostlatency -p 181 -j     # process 181's, as JSON Lines\n"
	       "  gethostlatency -l /opt/glibc/lib/libc.so.6  # another libc\n",
	.options = BPFKIT_OPT_EVENTS,
	.binary = &libc_opt,
};

static const char *const func_names[] = {
	[GETHOSTLATENCY_GETADDRINFO] = "getaddrinfo",
	[GETHOSTLATENCY_GETHOSTBYNAME] = "gethostbyname",
	[GETHOSTLATENCY_GETHOSTBYNAME2] = "gethostbyname2",
};

enum { NFUNCS = sizeof(func_names) / sizeof(func_names[0]) };

static const char *func_name(__u32 func)
{
	return func < NFUNCS ? func_names[func] : "unknown";
}

static enum bpfkit_verdict print_event(void *ctx, const void *data, size_t size)
{
	const struct gethostlatency_event *e = data;
	struct bpfkit_json j;
	const char *func;

	if (size < sizeof(*e))
		return BPFKIT_UNREADABLE;
	func = func_name(e->func);
	if (bpfkit_output_json()) {
		bpfkit_json_begin(&j, stdout, &e->rec);
		bpfkit_json_task(&j, e->pid, e->tid, e->uid, e->comm);
		bpfkit_json_str(&j, "func", func, strlen(func));
		bpfkit_json_uint(&j, "latency_ns", e->latency_ns);
		bpfkit_json_str(&j, "host", e->host, sizeof(e->host));
		bpfkit_json_end(&j);
		return BPFKIT_SHOWN;
	}
	bpfkit_print_time(&e->rec);
	printf("%-*u ", PID_W, e->pid);
	bpfkit_print_str(e->comm, sizeof(e->comm), COMM_W);
	printf("%-*s %*.3f ", FUNC_W, func, LAT_W, e->latency_ns / 1e6);
	bpfkit_col_escape(stdout, e->host, sizeof(e->host), false);
	putchar('\n');
	return BPFKIT_SHOWN;
}

int main(int argc, char **argv)
{
	struct bpfkit_user_probe probes[2 * NFUNCS];
	struct bpf_program *calls[NFUNCS], *returns[NFUNCS];
	struct gethostlatency_bpf *skel = NULL;
	struct bpfkit_channel *ch = NULL;
	char libc_buf[4096];
	const char *libc;
	int err, i;

	/* Parse options; check privileges, tracefs and kernel BTF. */
	bpfkit_setup(&tool, argc, argv);
	libc = env.libc;
	if (!libc)
		libc = bpfkit_mapped_libc(0, libc_buf, sizeof(libc_buf)) ?:
			       LIBC_NAME;

	/* Open the BPF object. */
	skel = gethostlatency_bpf__open_opts(bpfkit_open_opts());
	if (!skel)
		return bpfkit_open_failed();

	/* Each function's two programs, in enum gethostlatency_func order. */
	calls[GETHOSTLATENCY_GETADDRINFO] = skel->progs.getaddrinfo_call;
	calls[GETHOSTLATENCY_GETHOSTBYNAME] = skel->progs.gethostbyname_call;
	calls[GETHOSTLATENCY_GETHOSTBYNAME2] = skel->progs.gethostbyname2_call;
	returns[GETHOSTLATENCY_GETADDRINFO] = skel->progs.getaddrinfo_return;
	returns[GETHOSTLATENCY_GETHOSTBYNAME] =
		skel->progs.gethostbyname_return;
	returns[GETHOSTLATENCY_GETHOSTBYNAME2] =
		skel->progs.gethostbyname2_return;

	/* Load and verify. */
	err = bpfkit_load(skel->skeleton);
	if (err)
		goto cleanup;

	/* Open the event channel, then attach at each call and return. */
	for (i = 0; i < NFUNCS; i++) {
		probes[2 * i] = (struct bpfkit_user_probe){
			.prog = calls[i], .binary = libc, .name = func_names[i]
		};
		probes[2 * i + 1] =
			(struct bpfkit_user_probe){ .prog = returns[i],
						    .binary = libc,
						    .name = func_names[i],
						    .retprobe = true };
	}
	err = bpfkit_attach_user(skel->skeleton, probes, 2 * NFUNCS,
				 print_event, NULL, &ch);
	if (err)
		goto cleanup;

	/* Print the header, then lookups until a signal or --duration. */
	bpfkit_print_header("%-*s %-*s %-*s %*s %s\n", PID_W, "PID", COMM_W,
			    "COMM", FUNC_W, "FUNC", LAT_W, "LAT(ms)", "HOST");
	err = bpfkit_run(ch, NULL);

cleanup:
	bpfkit_channel_free(ch);
	gethostlatency_bpf__destroy(skel);
	return bpfkit_exit_code(err);
}
