// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * futexctn: user-space lock contention: how long threads wait on futexes
 * (pthread mutexes, condition variables, ...), as a histogram per
 * process, lock address and user stack.
 */
#include <stdio.h>
#include "cli.h"
#include "diag.h"
#include "histogram.h"
#include "output.h"
#include "setup.h"
#include "stackframes.h"
#include "futexctn.h"
#include "futexctn.skel.h"

enum { OPT_LOCK = 0x2000 };

static struct {
	__u64 lock; /* --lock; 0: every futex */
} env;

static const struct argp_option options[] = {
	{ "lock", OPT_LOCK, "ADDR", 0,
	  "Trace the futex at this user address only (hex, 0x...)", 0 },
	{},
};

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	if (key != OPT_LOCK)
		return ARGP_ERR_UNKNOWN;
	return bpfkit_parse_addr("--lock", arg, &env.lock);
}

static const struct bpfkit_tool tool = {
	.name = "futexctn",
	.doc = "Summarize futex wait times (user-space lock contention) as histograms per\n"
	       "process, lock address and user stack.\n"
	       "\v"
	       "Waits are FUTEX_WAIT, FUTEX_WAIT_BITSET, FUTEX_LOCK_PI(2) and\n"
	       "FUTEX_WAIT_REQUEUE_PI calls that slept (not those that found the value\n"
	       "changed, EAGAIN). Stacks are walked by frame pointers.\n"
	       "\n"
	       "Examples:\n"
	       "  futexctn -p 185          # process 185's contention until Ctrl-C\n"
	       "  futexctn -m 5 1          # milliseconds, once after 5 s\n"
	       "  futexctn --lock 0x55d0c0a8e040 -p 185 -j  # one lock, JSON\n",
	.args_doc = "[INTERVAL [COUNT]]",
	.options = BPFKIT_OPT_FILTERS | BPFKIT_OPT_JSON | BPFKIT_OPT_HIST |
		   BPFKIT_OPT_FRAMES | BPFKIT_OPT_METRICS,
	.own_options = options,
	.own_parser = parse_arg,
};

/* KEY's user stack, innermost first, into FRAMES; how many. */
static int key_frames(const struct futexctn_key *key,
		      const struct bpfkit_frame **frames)
{
	return bpfkit_key_stack(key->pid, key->user_stack, true, frames);
}

static void print_key(FILE *f, const void *k, const struct bpfkit_hist *h)
{
	const struct bpfkit_frame *frames[BPFKIT_STACK_DEPTH];
	const struct futexctn_key *key = k;
	int n = key_frames(key, frames);

	fprintf(f, "pid = %u ", key->pid);
	bpfkit_col_escape(f, h->name, sizeof(h->name), false);
	fprintf(f, " lock = 0x%llx", (unsigned long long)key->lock);
	bpfkit_stack_print(f, frames, n, key->user_stack == BPFKIT_STACK_LOST);
}

static void json_key(struct bpfkit_json *j, const void *k,
		     const struct bpfkit_hist *h)
{
	const struct bpfkit_frame *frames[BPFKIT_STACK_DEPTH];
	const struct futexctn_key *key = k;
	int n = key_frames(key, frames);
	char lock[24];

	snprintf(lock, sizeof(lock), "0x%llx", (unsigned long long)key->lock);
	bpfkit_json_uint(j, "pid", key->pid);
	bpfkit_json_str(j, "comm", h->name, sizeof(h->name));
	bpfkit_json_str(j, "lock", lock, sizeof(lock));
	bpfkit_stack_json(j, frames, n, key->user_stack == BPFKIT_STACK_LOST);
}

static const struct bpfkit_hist_keys keys = {
	.key_size = sizeof(struct futexctn_key),
	.print_key = print_key,
	.json_key = json_key,
	.metric = "bpfkit_futexctn_futex_wait_seconds",
	.metric_help = "Time threads waited on futexes",
};

int main(int argc, char **argv)
{
	struct futexctn_bpf *skel = NULL;
	int err;

	/* Parse options; check privileges, tracefs and kernel BTF. */
	bpfkit_setup(&tool, argc, argv);

	/* Open the BPF object. */
	skel = futexctn_bpf__open_opts(bpfkit_open_opts());
	if (!skel)
		return bpfkit_open_failed();
	skel->rodata->target_lock = env.lock;

	/* Load and verify. */
	err = bpfkit_load(skel->skeleton);
	if (err)
		goto cleanup;

	/* Attach to the futex syscalls; report every interval until COUNT. */
	err = bpfkit_stack_hist_run(skel->skeleton, skel->maps.futexctn_hists,
				    &keys);

cleanup:
	futexctn_bpf__destroy(skel);
	return bpfkit_exit_code(err);
}
