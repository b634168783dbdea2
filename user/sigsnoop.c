// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * sigsnoop: print every signal sent, who sent it to whom, and what became of
 * it; kill-family calls that failed before sending one are shown too.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include "channel.h"
#include "cli.h"
#include "diag.h"
#include "names.h"
#include "output.h"
#include "run.h"
#include "setup.h"
#include "tracefs.h"
#include "sigsnoop.h"
#include "sigsnoop.skel.h"

/* Column widths, for the header and every row. */
enum { PID_W = 7, COMM_W = 15, SIG_W = 8 };

static struct {
	bool kill_only; /* -k */
	bool failed_only; /* -x */
	int sig; /* -s; 0: all */
} env;

static const struct argp_option options[] = {
	{ "kill", 'k', NULL, 0,
	  "Show signals sent by kill(2), tkill(2) and tgkill(2) only", 0 },
	{ "failed", 'x', NULL, 0,
	  "Show signals not delivered, and failed kill calls, only", 0 },
	{ "signal", 's', "SIG", 0,
	  "Show this signal only: a name (USR1, SIGUSR1, usr1, RTMIN+1) or number",
	  0 },
	{},
};

/* Parse a signal given as a number or a name, with or without "SIG". */
static int parse_signal(const char *arg, int *out)
{
	char buf[16];
	unsigned long val;
	int sig;

	if (isdigit((unsigned char)arg[0])) {
		if (bpfkit_parse_ulong("-s/--signal", arg, 1, SIGRTMAX, &val))
			return EINVAL;
		*out = val;
		return 0;
	}
	for (sig = 1; sig <= SIGRTMAX; sig++) {
		const char *name = bpfkit_signal_name(sig, buf, sizeof(buf));

		if (!strcasecmp(arg, name) || (!strncasecmp(arg, "SIG", 3) &&
					       !strcasecmp(arg + 3, name))) {
			*out = sig;
			return 0;
		}
	}
	return bpfkit_usage_error(
		"invalid -s/--signal '%s': expected a signal name (USR1, SIGUSR1, RTMIN+1) or a number from 1 to %d",
		arg, SIGRTMAX);
}

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case 'k':
		env.kill_only = true;
		return 0;
	case 'x':
		env.failed_only = true;
		return 0;
	case 's':
		return parse_signal(arg, &env.sig);
	}
	return ARGP_ERR_UNKNOWN;
}

static const struct bpfkit_tool tool = {
	.name = "sigsnoop",
	.doc = "Trace signals: sender, signal, target and result.\n"
	       "\v"
	       "RESULT is DELIVERED, IGNORED, ALREADY_PENDING, OVERFLOW_FAIL or\n"
	       "LOSE_INFO, or the error of a kill call that sent nothing (EPERM).\n"
	       "\n"
	       "Examples:\n"
	       "  sigsnoop                   # every signal on the system\n"
	       "  sigsnoop -k -x             # failed or undelivered kill(2)s\n"
	       "  sigsnoop -s KILL -T        # SIGKILLs, with time\n"
	       "  sigsnoop -p 181 -j         # signals process 181 sends, as JSON\n",
	.options = BPFKIT_OPT_EVENTS,
	.own_options = options,
	.own_parser = parse_arg,
};

static const char *result_name(const struct sigsnoop_event *e)
{
	static const char *const names[] = { "DELIVERED", "IGNORED",
					     "ALREADY_PENDING", "OVERFLOW_FAIL",
					     "LOSE_INFO" };

	if (e->result == SIGSNOOP_FAILED)
		return strerrorname_np(e->err) ?: "EUNKNOWN";
	if (e->result >= 0 && e->result < 5)
		return names[e->result];
	return "UNKNOWN";
}

static enum bpfkit_verdict print_event(void *ctx, const void *data, size_t size)
{
	const struct sigsnoop_event *e = data;
	struct bpfkit_json j;
	char buf[16];
	const char *sig;

	if (size < sizeof(*e))
		return BPFKIT_UNREADABLE;
	sig = bpfkit_signal_name(e->sig, buf, sizeof(buf));
	if (bpfkit_output_json()) {
		bpfkit_json_begin(&j, stdout, &e->rec);
		bpfkit_json_task(&j, e->pid, e->tid, e->uid, e->comm);
		bpfkit_json_int(&j, "sig", e->sig);
		bpfkit_json_str(&j, "signal", sig, strlen(sig));
		bpfkit_json_int(&j, "tpid", e->tpid);
		bpfkit_json_str(&j, "tcomm", e->tcomm, sizeof(e->tcomm));
		bpfkit_json_str(&j, "result", result_name(e), 32);
		bpfkit_json_int(&j, "errno", e->err);
		bpfkit_json_int(&j, "code", e->code);
		bpfkit_json_bool(&j, "kill", e->kill);
		bpfkit_json_bool(&j, "group", e->group);
		bpfkit_json_end(&j);
		return BPFKIT_SHOWN;
	}
	bpfkit_print_time(&e->rec);
	printf("%-*u ", PID_W, e->pid);
	bpfkit_print_str(e->comm, sizeof(e->comm), COMM_W);
	printf("%-*s %-*d ", SIG_W, sig, PID_W, e->tpid);
	bpfkit_print_str(e->tcomm[0] ? e->tcomm : "-", sizeof(e->tcomm),
			 COMM_W);
	printf("%s\n", result_name(e));
	return BPFKIT_SHOWN;
}

/* The kills: each one's enter program, and the exit program they share. */
enum { NR_KILLS = 3 };

static void kill_calls(struct sigsnoop_bpf *skel,
		       struct bpfkit_syscall_tp calls[NR_KILLS])
{
	const struct bpfkit_syscall_tp c[NR_KILLS] = {
		{ skel->progs.kill_entry, skel->progs.kill_return, "kill" },
		{ skel->progs.tkill_entry, skel->progs.kill_return, "tkill" },
		{ skel->progs.tgkill_entry, skel->progs.kill_return, "tgkill" },
	};

	memcpy(calls, c, sizeof(c));
}

int main(int argc, char **argv)
{
	struct bpfkit_syscall_tp kills[NR_KILLS];
	struct sigsnoop_bpf *skel = NULL;
	struct bpfkit_channel *ch = NULL;
	int err;

	/* Parse options; check privileges, tracefs and kernel BTF. */
	bpfkit_setup(&tool, argc, argv);

	/* Open the BPF object. */
	skel = sigsnoop_bpf__open_opts(bpfkit_open_opts());
	if (!skel)
		return bpfkit_open_failed();

	/* Set our own filters; keep the kill tracepoints this kernel has. */
	skel->rodata->kill_only = env.kill_only;
	skel->rodata->failed_only = env.failed_only;
	skel->rodata->target_sig = env.sig;
	kill_calls(skel, kills);
	bpfkit_syscall_tps_autoload(kills, NR_KILLS, NULL);

	/* Load and verify. */
	err = bpfkit_load(skel->skeleton);
	if (err)
		goto cleanup;

	/* Open the event channel, then attach to signal_generate and kills. */
	err = bpfkit_attach_syscalls(skel->skeleton, kills, NR_KILLS,
				     print_event, NULL, &ch);
	if (err)
		goto cleanup;

	/* Print the header, then events until a signal or --duration. */
	bpfkit_print_header("%-*s %-*s %-*s %-*s %-*s %s\n", PID_W, "PID",
			    COMM_W, "COMM", SIG_W, "SIG", PID_W, "TPID", COMM_W,
			    "TCOMM", "RESULT");
	err = bpfkit_run(ch, NULL);

cleanup:
	bpfkit_channel_free(ch);
	sigsnoop_bpf__destroy(skel);
	return bpfkit_exit_code(err);
}
