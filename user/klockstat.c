// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * klockstat: kernel lock contention: how long tasks wait for contended
 * kernel locks, as a histogram per lock and caller stack (or per lock).
 */
#include <stdio.h>
#include "cli.h"
#include "diag.h"
#include "histogram.h"
#include "output.h"
#include "setup.h"
#include "stackframes.h"
#include "klockstat.h"
#include "klockstat.skel.h"

enum { OPT_LOCK = 0x2000, OPT_BY_LOCK };

static struct {
	__u64 lock; /* --lock; 0: every lock */
	bool by_lock; /* --by-lock */
} env;

static const struct argp_option options[] = {
	{ "by-lock", OPT_BY_LOCK, NULL, 0,
	  "One histogram per lock, of all its callers (no stacks)", 0 },
	{ "lock", OPT_LOCK, "ADDR", 0,
	  "Trace the lock at this kernel address only (hex, 0x...)", 0 },
	{},
};

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case OPT_BY_LOCK:
		env.by_lock = true;
		return 0;
	case OPT_LOCK:
		return bpfkit_parse_addr("--lock", arg, &env.lock);
	}
	return ARGP_ERR_UNKNOWN;
}

static const struct bpfkit_tool tool = {
	.name = "klockstat",
	.doc = "Summarize kernel lock contention: the time tasks wait for contended kernel\n"
	       "locks, as histograms per lock and caller stack.\n"
	       "\v"
	       "Waits only: lock hold times need fentry/fexit on the lock functions,\n"
	       "which klockstat does not use. Needs lock:contention_begin (Linux 5.19+).\n"
	       "Filters apply to the task that waits.\n"
	       "\n"
	       "Examples:\n"
	       "  klockstat -d 5          # 5 s of the whole machine's contention\n"
	       "  klockstat --by-lock -m  # per lock, in milliseconds\n"
	       "  klockstat -p 185 -j 1   # process 185's waits, JSON every second\n",
	.args_doc = "[INTERVAL [COUNT]]",
	.options = BPFKIT_OPT_FILTERS | BPFKIT_OPT_JSON | BPFKIT_OPT_HIST |
		   BPFKIT_OPT_FRAMES | BPFKIT_OPT_METRICS,
	.own_options = options,
	.own_parser = parse_arg,
	.tracepoints =
		(const struct bpfkit_tracepoint[]){
			{ "lock", "contention_begin", "Linux 5.19+" },
			{ "lock", "contention_end", "Linux 5.19+" },
			{},
		},
};

/* The kind of lock a contention's flags say, as perf lock contention names it. */
static const char *lock_kind(__u32 flags)
{
	static const struct {
		__u32 flags;
		const char *name;
	} kinds[] = {
		{ KLOCKSTAT_F_SPIN, "spinlock" },
		{ KLOCKSTAT_F_SPIN | KLOCKSTAT_F_READ, "rwlock:R" },
		{ KLOCKSTAT_F_SPIN | KLOCKSTAT_F_WRITE, "rwlock:W" },
		{ KLOCKSTAT_F_READ, "rwsem:R" },
		{ KLOCKSTAT_F_WRITE, "rwsem:W" },
		{ KLOCKSTAT_F_RT, "rtmutex" },
		{ KLOCKSTAT_F_RT | KLOCKSTAT_F_READ, "rwlock-rt:R" },
		{ KLOCKSTAT_F_RT | KLOCKSTAT_F_WRITE, "rwlock-rt:W" },
		{ KLOCKSTAT_F_PERCPU | KLOCKSTAT_F_READ, "pcpu-sem:R" },
		{ KLOCKSTAT_F_PERCPU | KLOCKSTAT_F_WRITE, "pcpu-sem:W" },
		{ KLOCKSTAT_F_MUTEX, "mutex" },
		{ KLOCKSTAT_F_MUTEX | KLOCKSTAT_F_SPIN, "mutex" },
	};
	size_t i;

	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (kinds[i].flags == flags)
			return kinds[i].name;
	return "unknown";
}

/* KEY's lock symbol (a static lock's name) and caller stack into FRAMES. */
static int key_frames(const struct klockstat_key *key,
		      const struct bpfkit_frame **frames,
		      const struct bpfkit_frame **sym)
{
	*sym = bpfkit_key_kernel_sym(key->lock);
	return bpfkit_key_stack(0, key->kernel_stack, false, frames);
}

/* A static lock's symbol, when the address is its start; else NULL. */
static const char *lock_name(const struct bpfkit_frame *sym)
{
	return sym->name && !sym->offset ? sym->name : NULL;
}

static void print_key(FILE *f, const void *k, const struct bpfkit_hist *h)
{
	const struct bpfkit_frame *frames[BPFKIT_STACK_DEPTH], *sym;
	const struct klockstat_key *key = k;
	int n = key_frames(key, frames, &sym);

	fprintf(f, "lock = 0x%llx %s", (unsigned long long)key->lock,
		lock_kind(key->flags));
	if (lock_name(sym))
		fprintf(f, " %s", lock_name(sym));
	bpfkit_stack_print(f, frames, n,
			   key->kernel_stack == BPFKIT_STACK_LOST);
}

static void json_key(struct bpfkit_json *j, const void *k,
		     const struct bpfkit_hist *h)
{
	const struct bpfkit_frame *frames[BPFKIT_STACK_DEPTH], *sym;
	const struct klockstat_key *key = k;
	int n = key_frames(key, frames, &sym);
	const char *kind = lock_kind(key->flags);
	char lock[24];

	snprintf(lock, sizeof(lock), "0x%llx", (unsigned long long)key->lock);
	bpfkit_json_str(j, "lock", lock, sizeof(lock));
	bpfkit_json_str(j, "kind", kind, 16);
	if (lock_name(sym))
		bpfkit_json_str(j, "name", lock_name(sym), 256);
	bpfkit_stack_json(j, frames, n, key->kernel_stack == BPFKIT_STACK_LOST);
}

static const struct bpfkit_hist_keys keys = {
	.key_size = sizeof(struct klockstat_key),
	.print_key = print_key,
	.json_key = json_key,
	.metric = "bpfkit_klockstat_lock_wait_seconds",
	.metric_help = "Time tasks waited for contended kernel locks",
};

int main(int argc, char **argv)
{
	struct klockstat_bpf *skel = NULL;
	int err;

	/* Parse options; check privileges, tracefs and the lock tracepoints. */
	bpfkit_setup(&tool, argc, argv);

	/* Open the BPF object. */
	skel = klockstat_bpf__open_opts(bpfkit_open_opts());
	if (!skel)
		return bpfkit_open_failed();
	skel->rodata->target_lock = env.lock;
	skel->rodata->by_lock = env.by_lock;

	/* Load and verify. */
	err = bpfkit_load(skel->skeleton);
	if (err)
		goto cleanup;

	/* Attach to the lock tracepoints; report every interval until COUNT. */
	err = bpfkit_stack_hist_run(skel->skeleton, skel->maps.klockstat_hists,
				    &keys);

cleanup:
	klockstat_bpf__destroy(skel);
	return bpfkit_exit_code(err);
}
