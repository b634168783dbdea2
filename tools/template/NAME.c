// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * @NAME@: print pid, parent pid, uid and command at every @TRACEPOINT@.
 *
 * Made by tools/new-tool from tools/template/. To trace more, add a field to
 * struct @IDENT@_event (include/@NAME@.h), fill it in bpf/@NAME@.bpf.c and
 * print it in print_event() below; filters, JSON, time columns and loss
 * accounting come from the shared library.
 */
#include <errno.h>
#include <stdio.h>
#include "channel.h"
#include "cli.h"
#include "diag.h"
#include "output.h"
#include "run.h"
#include "setup.h"
#include "@NAME@.h"
#include "@NAME@.skel.h"

/* Column widths, for the header and every row. */
enum { PID_W = 7, PPID_W = 7, UID_W = 7 };

/* user probes only: */
/* The tool's own options. */
static struct {
	const char *binary; /* -b: the program or library with the probe */
} env = {
	.binary = "@BINARY@",
};

/* -b FILE: checked to be a program or library, then set in env.binary. */
static const struct bpfkit_binary_opt binary_opt = {
	.name = "binary",
	.key = 'b',
	.doc = "Trace this program or library instead of @BINARY@",
	.path = &env.binary,
};

/* end of user probes only */
/* The tool's name, its --help text and the options it offers. */
static const struct bpfkit_tool tool = {
	.name = "@NAME@",
	.doc = "Print pid, parent pid, uid and command at every @TRACEPOINT@.\n"
	       "\v"
	       "Examples:\n"
	       "  @NAME@             # every process on the system\n"
	       "  @NAME@ -p 181 -j   # process 181 only, as JSON Lines\n",
	.options = BPFKIT_OPT_EVENTS,
	/* user probes only: */
	.binary = &binary_opt,
	/* end of user probes only */
};

/* Print one record from the kernel, as columns or as JSON. */
static enum bpfkit_verdict print_event(void *ctx, const void *data, size_t size)
{
	const struct @IDENT@_event *e = data;
	struct bpfkit_json j;

	/*
	 * A short record is unreadable (the summary counts it lost); longer
	 * ones are perf's padding. Return BPFKIT_FILTERED for a record a
	 * user-space filter of yours leaves out.
	 */
	if (size < sizeof(*e))
		return BPFKIT_UNREADABLE;
	if (bpfkit_output_json()) {
		bpfkit_json_begin(&j, stdout, &e->rec);
		bpfkit_json_uint(&j, "pid", e->pid);
		bpfkit_json_uint(&j, "ppid", e->ppid);
		bpfkit_json_uint(&j, "uid", e->uid);
		bpfkit_json_str(&j, "comm", e->comm, sizeof(e->comm));
		bpfkit_json_end(&j);
		return BPFKIT_SHOWN;
	}
	bpfkit_print_time(&e->rec);
	printf("%-*u %-*u %-*u ", PID_W, e->pid, PPID_W, e->ppid, UID_W,
	       e->uid);
	/* Kernel strings go through the escaping helper, never raw printf. */
	bpfkit_col_escape(stdout, e->comm, sizeof(e->comm), false);
	putchar('\n');
	return BPFKIT_SHOWN;
}

int main(int argc, char **argv)
{
	struct @IDENT@_bpf *skel = NULL;
	struct bpfkit_channel *ch = NULL;
	/* user probes only: */
	struct bpfkit_user_probe probe;
	/* end of user probes only */
	int err;

	/*
	 * Parse the command line (a bad option exits with status 2), then
	 * check privileges, tracefs and kernel BTF (exits with status 1).
	 */
	bpfkit_setup(&tool, argc, argv);

	/* Open the BPF object the skeleton embeds. */
	skel = @IDENT@_bpf__open_opts(bpfkit_open_opts());
	if (!skel)
		return bpfkit_open_failed();

	/*
	 * Set the tool's own .rodata here, e.g. skel->rodata->min_ns = 10,
	 * and choose programs with bpf_program__set_autoload(): both only
	 * work before load.
	 */

	/*
	 * Write the filters and channel settings into .rodata, then load:
	 * the kernel's verifier checks the program now. Each helper prints
	 * its own one-line error, so a failure only needs the jump.
	 */
	err = bpfkit_load(skel->skeleton);
	if (err)
		goto cleanup;

	/* Fill maps here, after load and before any event can arrive. */

	/* tracepoints only: */
	/*
	 * Open the event channel, then attach to @TRACEPOINT@: events start
	 * to flow, and none is missed since the reader already exists.
	 *
	 * A program whose target is known only now, e.g. SEC("kprobe") on a
	 * kernel function found at run time, is attached by hand with
	 * bpfkit_attach_target() instead (as hello-attach does), after
	 * checking that this kernel can attach it (ksyms.h):
	 *
	 *	struct bpfkit_target t = { skel->progs.handle, func,
	 *				   "attach to FUNC" };
	 *
	 *	if (!bpfkit_kprobes_available())
	 *		... say so in one line and goto cleanup ...
	 *	err = bpfkit_attach_target(skel->skeleton, &t, print_event,
	 *				   NULL, &ch);
	 */
	err = bpfkit_attach(skel->skeleton, print_event, NULL, &ch);
	/* end of tracepoints only */
	/* user probes only: */
	/*
	 * Open the event channel, then attach to @PROBE_DESC@ in the
	 * binary: every process that maps it is traced, from now on. A
	 * binary without it is refused in one line.
	 */
	probe = (struct bpfkit_user_probe){
		.prog = skel->progs.handle,
		.binary = env.binary,
		.provider = @PROVIDER_C@,
		.name = "@PROBE@",
	};
	err = bpfkit_attach_user(skel->skeleton, &probe, 1, print_event, NULL,
				 &ch);
	/* end of user probes only */
	if (err)
		goto cleanup;

	/* Print the column header after the time columns'; -j prints none. */
	bpfkit_print_header("%-*s %-*s %-*s %s\n", PID_W, "PID", PPID_W, "PPID",
			    UID_W, "UID", "COMM");

	/* Poll and print until Ctrl-C or -d, then print the summary. */
	err = bpfkit_run(ch, NULL);

cleanup:
	/* Detach and free everything; each call accepts NULL. */
	bpfkit_channel_free(ch);
	@IDENT@_bpf__destroy(skel);
	return bpfkit_exit_code(err);
}
