// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * exitsnoop: print every process exit (every thread exit with --threads)
 * with its parent, lifetime and exit code or terminating signal.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "channel.h"
#include "cli.h"
#include "diag.h"
#include "names.h"
#include "output.h"
#include "run.h"
#include "setup.h"
#include "exitsnoop.h"
#include "exitsnoop.skel.h"

enum {
	OPT_THREADS = 0x2000,
};

/* Column widths, for the header and every row. */
enum { COMM_W = 16, PID_W = 7, AGE_W = 7 };

static struct {
	bool failed; /* -x */
	bool threads; /* --threads */
} env;

static const struct argp_option own_options[] = {
	{ "failed", 'x', NULL, 0,
	  "Only exits with a non-zero code or by a signal", 0 },
	{ "threads", OPT_THREADS, NULL, 0,
	  "Report every thread exit, not only the last one of a process", 0 },
	{},
};

static error_t parse_own(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case 'x':
		env.failed = true;
		return 0;
	case OPT_THREADS:
		env.threads = true;
		return 0;
	}
	return ARGP_ERR_UNKNOWN;
}

static const struct bpfkit_tool tool = {
	.name = "exitsnoop",
	.doc = "Trace process exits: exit code or signal, parent and lifetime.\n"
	       "\v"
	       "Examples:\n"
	       "  exitsnoop                  # every process exit\n"
	       "  exitsnoop -x               # only failures and signal deaths\n"
	       "  exitsnoop --threads -p 42  # every thread of process 42\n"
	       "  exitsnoop -T -c nginx      # nginx exits, with the time\n"
	       "  exitsnoop -j               # JSON Lines\n",
	.options = BPFKIT_OPT_EVENTS,
	.own_options = own_options,
	.own_parser = parse_own,
};

/* "0", "code 42", "signal 9 (KILL)" or "signal 11 (SEGV) core". */
static void describe(int status, char *buf, size_t len)
{
	int sig = status & 0x7f;
	char name[16];

	if (!sig)
		snprintf(buf, len, status >> 8 ? "code %d" : "%d",
			 (status >> 8) & 0xff);
	else
		snprintf(buf, len, "signal %d (%s)%s", sig,
			 bpfkit_signal_name(sig, name, sizeof(name)),
			 status & 0x80 ? " core" : "");
}

static void print_json(const void *event)
{
	const struct exitsnoop_event *e = event;
	int sig = e->exit_code & 0x7f;
	char buf[16];
	const char *name = bpfkit_signal_name(sig, buf, sizeof(buf));
	struct bpfkit_json j;

	bpfkit_json_begin(&j, stdout, &e->rec);
	bpfkit_json_int(&j, "pid", e->pid);
	bpfkit_json_int(&j, "tid", e->tid);
	bpfkit_json_int(&j, "ppid", e->ppid);
	bpfkit_json_int(&j, "uid", e->uid);
	bpfkit_json_str(&j, "comm", e->comm, sizeof(e->comm));
	bpfkit_json_uint(&j, "age_ns", e->age_ns);
	bpfkit_json_int(&j, "status", e->exit_code);
	bpfkit_json_int(&j, "exit_code", sig ? 0 : (e->exit_code >> 8) & 0xff);
	bpfkit_json_int(&j, "signal", sig);
	if (sig)
		bpfkit_json_str(&j, "signal_name", name, strlen(name));
	bpfkit_json_bool(&j, "core_dumped", sig && (e->exit_code & 0x80));
	if (env.threads)
		bpfkit_json_int(&j, "threads_left", e->threads_left);
	bpfkit_json_end(&j);
}

static void print_row(const void *event)
{
	const struct exitsnoop_event *e = event;
	char exit[32];

	describe(e->exit_code, exit, sizeof(exit));
	bpfkit_print_time(&e->rec);
	bpfkit_print_str(e->comm, sizeof(e->comm), COMM_W);
	printf("%-*u %-*u %-*u %*.3f %s\n", PID_W, e->pid, PID_W, e->ppid,
	       PID_W, e->tid, AGE_W, e->age_ns / 1e9, exit);
}

static struct bpfkit_printer printer = {
	.size = sizeof(struct exitsnoop_event),
	.text = print_row,
	.json = print_json,
};

int main(int argc, char **argv)
{
	struct bpfkit_channel *ch = NULL;
	struct exitsnoop_bpf *skel = NULL;
	int err;

	/* Parse options; check privileges, tracefs and kernel BTF. */
	bpfkit_setup(&tool, argc, argv);

	/* Open the BPF object. */
	skel = exitsnoop_bpf__open_opts(bpfkit_open_opts());
	if (!skel)
		return bpfkit_open_failed();

	/* Choose process or thread exits, all or failed ones only. */
	skel->rodata->threads = env.threads;
	skel->rodata->failed_only = env.failed;

	/* Load and verify. */
	err = bpfkit_load(skel->skeleton);
	if (err)
		goto cleanup;

	/* Open the event channel, then attach to sched:sched_process_exit. */
	err = bpfkit_attach(skel->skeleton, bpfkit_print_event, &printer, &ch);
	if (err)
		goto cleanup;

	/* Print the header, then events until a signal or --duration. */
	bpfkit_print_header("%-*s %-*s %-*s %-*s %*s %s\n", COMM_W, "PCOMM",
			    PID_W, "PID", PID_W, "PPID", PID_W, "TID", AGE_W,
			    "AGE(s)", "EXIT");
	err = bpfkit_run(ch, NULL);

cleanup:
	bpfkit_channel_free(ch);
	exitsnoop_bpf__destroy(skel);
	return bpfkit_exit_code(err);
}
