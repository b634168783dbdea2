// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * runqlen: sample each CPU's run queue length on a timer and summarize it
 * as a histogram, for the whole machine or per CPU.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <bpf/bpf.h>
#include "cli.h"
#include "diag.h"
#include "histogram.h"
#include "kernel.h"
#include "metrics.h"
#include "output.h"
#include "run.h"
#include "sampling.h"
#include "setup.h"
#include "runqlen.h"
#include "runqlen.skel.h"

#define DEFAULT_HZ 99

static struct {
	bool per_cpu; /* -C */
	bool timestamp; /* -T */
	unsigned long hz; /* -F */
	unsigned long interval, count; /* INTERVAL [COUNT] */
	int nargs;
} env = { .hz = DEFAULT_HZ };

static const struct argp_option options[] = {
	{ "cpus", 'C', NULL, 0, "One histogram per CPU", 0 },
	{ "frequency", 'F', "HZ", 0,
	  "Sample each CPU HZ times a second (default 99)", 0 },
	{ "time", 'T', NULL, 0, "Print the time before each interval", 0 },
	{},
};

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case 'C':
		env.per_cpu = true;
		return 0;
	case 'T':
		env.timestamp = true;
		return 0;
	case 'F':
		return bpfkit_parse_ulong("-F/--frequency", arg, 1, 100000,
					  &env.hz);
	case ARGP_KEY_ARG:
		if (env.nargs++ == 0)
			return bpfkit_parse_ulong("INTERVAL", arg, 1, 86400,
						  &env.interval);
		if (env.nargs == 2)
			return bpfkit_parse_ulong("COUNT", arg, 1, ~0UL,
						  &env.count);
		return bpfkit_usage_error(
			"unexpected argument '%s': give [INTERVAL [COUNT]]",
			arg);
	}
	return ARGP_ERR_UNKNOWN;
}

static int fill_metrics(struct bpfkit_metrics *m, void *ctx);

static const struct bpfkit_tool tool = {
	.name = "runqlen",
	.doc = "Summarize run queue length (tasks waiting besides the running one) as a\n"
	       "histogram, sampled on each CPU's timer.\n"
	       "\v"
	       "Examples:\n"
	       "  runqlen              # one histogram until Ctrl-C\n"
	       "  runqlen -C 1 5       # per CPU, every second, 5 times\n"
	       "  runqlen -F 999 -j 10 # 999 samples a second per CPU, JSON every 10 s\n",
	.args_doc = "[INTERVAL [COUNT]]",
	.options = BPFKIT_OPT_JSON | BPFKIT_OPT_METRICS,
	.own_options = options,
	.own_parser = parse_arg,
	.metrics = fill_metrics,
};

/* One bucket per length. */
static const struct bpfkit_hist_cfg cfg = { .unit_ns = 1, .linear_step = 1 };

/* What the report reads: the map, the CPUs, the sums reported so far. */
static struct {
	int fd;
	int ncpus;
	struct bpfkit_hist *now, *before;
	unsigned long intervals;
} rep;

/* H += what A holds beyond B. */
static void add_delta(struct bpfkit_hist *h, const struct bpfkit_hist *a,
		      const struct bpfkit_hist *b)
{
	int i;

	for (i = 0; i < BPFKIT_HIST_SLOTS; i++)
		h->slots[i] += a->slots[i] - b->slots[i];
	h->count += a->count - b->count;
	h->sum_ns += a->sum_ns - b->sum_ns;
}

static void print_hist(int cpu, const struct bpfkit_hist *h)
{
	struct bpfkit_json j;

	if (bpfkit_output_json()) {
		bpfkit_json_begin(&j, stdout, NULL);
		bpfkit_json_uint(&j, "interval", rep.intervals);
		if (cpu >= 0)
			bpfkit_json_int(&j, "cpu", cpu);
		bpfkit_hist_json(&j, &cfg, "runqlen", h);
		bpfkit_json_end(&j);
		return;
	}
	if (cpu >= 0)
		printf("\ncpu = %d\n", cpu);
	bpfkit_hist_print_text(stdout, &cfg, "runqlen", h);
}

/* Print what the CPUs sampled since the last report. */
static int report(void *ctx)
{
	struct bpfkit_hist sum = {};
	char buf[16];
	time_t t;
	int cpu;

	if (bpf_map_lookup_elem(rep.fd, &(__u32){ 0 }, rep.now)) {
		bpfkit_fail("read the histograms", -errno);
		return -errno;
	}
	rep.intervals++;
	if (env.timestamp && !bpfkit_output_json()) {
		t = time(NULL);
		strftime(buf, sizeof(buf), "%H:%M:%S", localtime(&t));
		printf("%s\n", buf);
	}
	for (cpu = 0; cpu < rep.ncpus; cpu++) {
		struct bpfkit_hist h = {};

		if (!rep.now[cpu].count)
			continue; /* offline */
		add_delta(env.per_cpu ? &h : &sum, &rep.now[cpu],
			  &rep.before[cpu]);
		if (env.per_cpu)
			print_hist(cpu, &h);
	}
	if (!env.per_cpu)
		print_hist(-1, &sum);
	memcpy(rep.before, rep.now, rep.ncpus * sizeof(*rep.now));
	if (env.count && rep.intervals >= env.count)
		return 1;
	return bpfkit_output_flush();
}

/* A scrape: every CPU's samples since start, by length (the last: or more). */
static int fill_metrics(struct bpfkit_metrics *m, void *ctx)
{
	char cpu_s[16], len_s[16];
	int cpu, i, err;

	err = bpfkit_metrics_family(
		m, "bpfkit_runqlen_samples_total", BPFKIT_COUNTER,
		"Timer samples of each CPU's run queue, by its length (tasks waiting)");
	if (err || bpf_map_lookup_elem(rep.fd, &(__u32){ 0 }, rep.now))
		return err ?: -errno;
	for (cpu = 0; cpu < rep.ncpus; cpu++) {
		snprintf(cpu_s, sizeof(cpu_s), "%d", cpu);
		for (i = 0; i < BPFKIT_HIST_SLOTS && !err; i++) {
			if (!rep.now[cpu].slots[i])
				continue;
			snprintf(len_s, sizeof(len_s), "%d%s", i,
				 i == RUNQLEN_MAX ? "+" : "");
			err = bpfkit_metrics_add(
				m,
				(const char *[]){ "cpu", cpu_s, "length", len_s,
						  NULL },
				rep.now[cpu].slots[i]);
		}
	}
	return err;
}

int main(int argc, char **argv)
{
	struct bpfkit_sampling sampling = {};
	struct bpfkit_tick tick = { .fn = report };
	struct runqlen_bpf *skel = NULL;
	int err;

	/* Parse options; check privileges and kernel BTF. */
	bpfkit_setup(&tool, argc, argv);

	/* Open the BPF object. */
	skel = runqlen_bpf__open_opts(bpfkit_open_opts());
	if (!skel)
		return bpfkit_open_failed();

	/* Load and verify. */
	err = bpfkit_load(skel->skeleton);
	if (err)
		goto cleanup;

	rep.fd = bpf_map__fd(skel->maps.runqlen_hists);
	rep.ncpus = libbpf_num_possible_cpus();
	rep.now = calloc(rep.ncpus, sizeof(*rep.now));
	rep.before = calloc(rep.ncpus, sizeof(*rep.before));
	if (rep.ncpus <= 0 || !rep.now || !rep.before) {
		err = -ENOMEM;
		bpfkit_fail("allocate the histograms", err);
		goto cleanup;
	}

	/* Sample every CPU on its timer (idle ones too); report. */
	err = bpfkit_attach_timer_sampling(skel->progs.sample, env.hz,
					   &sampling);
	if (err)
		goto cleanup;
	tick.interval_ms = env.interval * 1000;
	err = bpfkit_run(NULL, env.interval ? &tick : NULL);
	bpfkit_detach_sampling(&sampling);
	/* The last, partial interval (or the only report). */
	if (!err && (!env.count || rep.intervals < env.count))
		err = report(NULL) < 0 ? -EIO : 0;

cleanup:
	bpfkit_detach_sampling(&sampling);
	free(rep.now);
	free(rep.before);
	runqlen_bpf__destroy(skel);
	return bpfkit_exit_code(err);
}
