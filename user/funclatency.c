// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * funclatency: the latency of a function of a program or library as a
 * histogram, from a uprobe at its entry and a uretprobe at its return.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "diag.h"
#include "histogram.h"
#include "setup.h"
#include "funclatency.h"
#include "funclatency.skel.h"

static struct {
	const char *binary; /* -b */
	const char *func; /* FUNC */
} env;

static const struct bpfkit_binary_opt binary_opt = {
	.name = "binary",
	.key = 'b',
	.doc = "The program or library FUNC is in (required)",
	.path = &env.binary,
};

static error_t parse_own(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case ARGP_KEY_ARG:
		if (env.func)
			return ARGP_ERR_UNKNOWN; /* INTERVAL, COUNT */
		env.func = arg;
		return 0;
	case ARGP_KEY_END:
		if (!env.func)
			return bpfkit_usage_error(
				"missing FUNC: give -b BINARY and a function of it (nm -D BINARY lists them)");
		if (!env.binary)
			return bpfkit_usage_error(
				"missing -b/--binary: give the program or library %s is in",
				env.func);
		return 0;
	}
	return ARGP_ERR_UNKNOWN;
}

static const struct bpfkit_tool tool = {
	.name = "funclatency",
	.doc = "Summarize the latency of a user-space function as a histogram.\n"
	       "\v"
	       "Latency runs from the function's entry to its return, per call;\n"
	       "a call that recurses into FUNC is timed from its innermost entry.\n"
	       "\n"
	       "Examples:\n"
	       "  funclatency -b /lib/x86_64-linux-gnu/libc.so.6 getaddrinfo\n"
	       "  funclatency -m -b /usr/sbin/nginx ngx_http_process_request 1 10\n"
	       "  funclatency -p 181 -b /usr/bin/python3.11 PyObject_GC_Collect -j\n",
	.args_doc = "FUNC [INTERVAL [COUNT]]",
	.options = BPFKIT_OPT_FILTERS | BPFKIT_OPT_JSON | BPFKIT_OPT_HIST,
	.own_parser = parse_own,
	.binary = &binary_opt,
};

static void print_key(FILE *f, const void *key, const struct bpfkit_hist *h)
{
	fprintf(f, "func = %s", env.func);
}

static void json_key(struct bpfkit_json *j, const void *key,
		     const struct bpfkit_hist *h)
{
	bpfkit_json_str(j, "binary", env.binary, strlen(env.binary));
	bpfkit_json_str(j, "func", env.func, strlen(env.func));
}

static void metric_key(const void *key, const struct bpfkit_hist *h,
		       const char **labels, char *buf, size_t size)
{
	labels[0] = "func";
	labels[1] = env.func;
	labels[2] = NULL;
}

int main(int argc, char **argv)
{
	const struct bpfkit_hist_keys keys = {
		.key_size = sizeof(__u32),
		.print_key = print_key,
		.json_key = json_key,
		.metric = "bpfkit_funclatency_call_seconds",
		.metric_help = "Latency of the traced function's calls",
		.metric_key = metric_key,
	};
	struct bpfkit_user_probe probes[2];
	struct funclatency_bpf *skel = NULL;
	int err;

	/* Parse options; check privileges, tracefs and kernel BTF. */
	bpfkit_setup(&tool, argc, argv);

	/* Open the BPF object. */
	skel = funclatency_bpf__open_opts(bpfkit_open_opts());
	if (!skel)
		return bpfkit_open_failed();

	/* Load and verify. */
	err = bpfkit_load(skel->skeleton);
	if (err)
		goto cleanup;

	/* The function's entry and return, in -p's process only if given. */
	probes[0] = (struct bpfkit_user_probe){
		.prog = skel->progs.func_entry,
		.binary = env.binary,
		.name = env.func,
		.pid = bpfkit_opts.filter.pid,
	};
	probes[1] = probes[0];
	probes[1].prog = skel->progs.func_return;
	probes[1].retprobe = true;
	err = bpfkit_attach_user_probes(skel->skeleton, probes, 2);
	if (err)
		goto cleanup;

	/* Report every interval until COUNT, or once at the end. */
	err = bpfkit_hist_run(skel->skeleton, skel->maps.funclatency_hists,
			      &keys);

cleanup:
	funclatency_bpf__destroy(skel);
	return bpfkit_exit_code(err);
}
