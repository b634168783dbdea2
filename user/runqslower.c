// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * runqslower: print each run-queue wait at or above a threshold, with the
 * task that waited and the task it took the CPU from.
 */
#include <errno.h>
#include <stdio.h>
#include "channel.h"
#include "cli.h"
#include "diag.h"
#include "output.h"
#include "run.h"
#include "setup.h"
#include "tracefs.h"
#include "runqslower.h"
#include "runqslower.skel.h"

/* Column widths, for the header and every row. */
enum { TID_W = 7, LAT_W = 10, CPU_W = 3, PREV_W = 8 };

#define DEFAULT_MIN_US 10000
#define MAX_MIN_US 3600000000UL /* an hour */

static struct {
	unsigned long min_us; /* MIN_US */
	bool have_min; /* given on the command line */
} env = { .min_us = DEFAULT_MIN_US };

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	if (key != ARGP_KEY_ARG)
		return ARGP_ERR_UNKNOWN;
	if (env.have_min)
		return bpfkit_usage_error(
			"one MIN_US only, got a second: '%s'; see 'runqslower --help'",
			arg);
	env.have_min = true;
	return bpfkit_parse_ulong("MIN_US", arg, 0, MAX_MIN_US, &env.min_us);
}

static const struct bpfkit_tool tool = {
	.name = "runqslower",
	.doc = "Trace run queue waits (wakeup or preemption to running) of at least MIN_US\n"
	       "microseconds (default 10000), with the task that waited and the one it\n"
	       "took the CPU from.\n"
	       "\v"
	       "Filters apply to the task that waits.\n"
	       "\n"
	       "Examples:\n"
	       "  runqslower              # waits of 10 ms or more\n"
	       "  runqslower 1000         # waits of 1 ms or more\n"
	       "  runqslower -p 185 5000  # process 185's waits of 5 ms or more\n"
	       "  runqslower -j -T 0      # every wait, as JSON Lines with times\n",
	.args_doc = "[MIN_US]",
	.options = BPFKIT_OPT_EVENTS,
	.own_parser = parse_arg,
};

static enum bpfkit_verdict print_event(void *ctx, const void *data, size_t size)
{
	const struct runqslower_event *e = data;
	struct bpfkit_json j;

	if (size < sizeof(*e))
		return BPFKIT_UNREADABLE;
	if (bpfkit_output_json()) {
		bpfkit_json_begin(&j, stdout, &e->rec);
		bpfkit_json_uint(&j, "pid", e->pid);
		bpfkit_json_uint(&j, "tid", e->tid);
		bpfkit_json_str(&j, "comm", e->comm, sizeof(e->comm));
		bpfkit_json_uint(&j, "wait_ns", e->wait_ns);
		bpfkit_json_uint(&j, "cpu", e->cpu);
		bpfkit_json_uint(&j, "prev_pid", e->prev_pid);
		bpfkit_json_uint(&j, "prev_tid", e->prev_tid);
		bpfkit_json_str(&j, "prev_comm", e->prev_comm,
				sizeof(e->prev_comm));
		bpfkit_json_end(&j);
		return BPFKIT_SHOWN;
	}
	bpfkit_print_time(&e->rec);
	bpfkit_print_task(e->pid, e->comm);
	printf("%-*u %*llu %-*u ", TID_W, e->tid, LAT_W,
	       (unsigned long long)e->wait_ns / 1000, CPU_W, e->cpu);
	printf("%-*u ", PREV_W, e->prev_pid);
	bpfkit_print_str(e->prev_comm, sizeof(e->prev_comm), BPFKIT_COMM_W);
	printf("%u\n", e->prev_tid);
	return BPFKIT_SHOWN;
}

int main(int argc, char **argv)
{
	struct runqslower_bpf *skel = NULL;
	struct bpfkit_channel *ch = NULL;
	int err;

	/* Parse options; check privileges, tracefs and kernel BTF. */
	bpfkit_setup(&tool, argc, argv);

	/* Open the BPF object. */
	skel = runqslower_bpf__open_opts(bpfkit_open_opts());
	if (!skel)
		return bpfkit_open_failed();

	/* The threshold; tp_btf programs if they load, runqlat's way. */
	skel->rodata->min_ns = env.min_us * 1000;
	bpfkit_tp_btf_autoload(
		(struct bpf_program *const[]){ skel->progs.wakeup_btf,
					       skel->progs.wakeup_new_btf,
					       skel->progs.switch_btf },
		(struct bpf_program *const[]){ skel->progs.wakeup_raw,
					       skel->progs.wakeup_new_raw,
					       skel->progs.switch_raw },
		3, bpfkit_opts.btf_path, "sched_switch");

	/* Load and verify. */
	err = bpfkit_load(skel->skeleton);
	if (err)
		goto cleanup;

	/* Open the event channel, then attach to the sched tracepoints. */
	err = bpfkit_attach(skel->skeleton, print_event, NULL, &ch);
	if (err)
		goto cleanup;

	/* Print the header, then events until a signal or --duration. */
	bpfkit_print_header("%-*s %-*s %-*s %*s %-*s %-*s %-*s %s\n",
			    BPFKIT_PID_W, "PID", BPFKIT_COMM_W, "COMM", TID_W,
			    "TID", LAT_W, "LAT(us)", CPU_W, "CPU", PREV_W,
			    "PREV_PID", BPFKIT_COMM_W, "PREV_COMM", "PREV_TID");
	err = bpfkit_run(ch, NULL);

cleanup:
	bpfkit_channel_free(ch);
	runqslower_bpf__destroy(skel);
	return bpfkit_exit_code(err);
}
