// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * pyimport: print every module import a Python 3 process makes, found or
 * not, with the time it took, from CPython's USDT probes
 * python:import__find__load__start and __done. The model of a USDT tool:
 * the probes are found in the binary's SDT notes (readelf -n) at run time.
 */
#include <errno.h>
#include <stdio.h>
#include "channel.h"
#include "cli.h"
#include "diag.h"
#include "output.h"
#include "run.h"
#include "setup.h"
#include "pyimport.h"
#include "pyimport.skel.h"

/* Column widths, for the header and every row. */
enum { PID_W = 7, COMM_W = 15, LAT_W = 10, FOUND_W = 5 };

static struct {
	const char *python; /* --python: the binary with the probes */
} env = {
	.python = "/usr/bin/python3",
};

static const struct bpfkit_binary_opt python_opt = {
	.name = "python",
	.key = 'P',
	.doc = "The Python interpreter (or libpython) to trace; default /usr/bin/python3",
	.path = &env.python,
};

static const struct bpfkit_tool tool = {
	.name = "pyimport",
	.doc = "Print the modules Python processes import, with the time each took.\n"
	       "\v"
	       "Examples:\n"
	       "  pyimport                     # every python3 on the system\n"
	       "  pyimport -p 181 -j           # process 181's imports, as JSON\n"
	       "  pyimport -P /usr/bin/python3.11-dbg  # another interpreter\n",
	.options = BPFKIT_OPT_EVENTS,
	.binary = &python_opt,
};

static enum bpfkit_verdict print_event(void *ctx, const void *data, size_t size)
{
	const struct pyimport_event *e = data;
	struct bpfkit_json j;

	if (size < sizeof(*e))
		return BPFKIT_UNREADABLE;
	if (bpfkit_output_json()) {
		bpfkit_json_begin(&j, stdout, &e->rec);
		bpfkit_json_task(&j, e->pid, e->tid, e->uid, e->comm);
		bpfkit_json_str(&j, "module", e->module, sizeof(e->module));
		bpfkit_json_bool(&j, "found", e->found);
		bpfkit_json_uint(&j, "latency_ns", e->latency_ns);
		bpfkit_json_end(&j);
		return BPFKIT_SHOWN;
	}
	bpfkit_print_time(&e->rec);
	printf("%-*u ", PID_W, e->pid);
	bpfkit_print_str(e->comm, sizeof(e->comm), COMM_W);
	printf("%*.3f %-*s ", LAT_W, e->latency_ns / 1e6, FOUND_W,
	       e->found ? "yes" : "no");
	bpfkit_col_escape(stdout, e->module, sizeof(e->module), false);
	putchar('\n');
	return BPFKIT_SHOWN;
}

int main(int argc, char **argv)
{
	struct bpfkit_user_probe probes[2];
	struct bpfkit_channel *ch = NULL;
	struct pyimport_bpf *skel = NULL;
	int err;

	/* Parse options; check privileges, tracefs and kernel BTF. */
	bpfkit_setup(&tool, argc, argv);

	/* Open the BPF object. */
	skel = pyimport_bpf__open_opts(bpfkit_open_opts());
	if (!skel)
		return bpfkit_open_failed();

	/* Load and verify. */
	err = bpfkit_load(skel->skeleton);
	if (err)
		goto cleanup;

	/*
	 * Open the event channel, then attach to both USDT probes; libbpf
	 * reads their addresses and arguments from the SDT notes and turns
	 * on their semaphores, so CPython starts to fire them.
	 */
	probes[0] = (struct bpfkit_user_probe){
		.prog = skel->progs.import_start,
		.binary = env.python,
		.provider = "python",
		.name = "import__find__load__start",
	};
	probes[1] = (struct bpfkit_user_probe){
		.prog = skel->progs.import_done,
		.binary = env.python,
		.provider = "python",
		.name = "import__find__load__done",
	};
	err = bpfkit_attach_user(skel->skeleton, probes, 2, print_event, NULL,
				 &ch);
	if (err)
		goto cleanup;

	/* Print the header, then imports until a signal or --duration. */
	bpfkit_print_header("%-*s %-*s %*s %-*s %s\n", PID_W, "PID", COMM_W,
			    "COMM", LAT_W, "LAT(ms)", FOUND_W, "FOUND",
			    "MODULE");
	err = bpfkit_run(ch, NULL);

cleanup:
	bpfkit_channel_free(ch);
	pyimport_bpf__destroy(skel);
	return bpfkit_exit_code(err);
}
