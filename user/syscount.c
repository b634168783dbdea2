// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * syscount: count syscalls per syscall or per process, optionally with their
 * latency; print the top N at each interval and at exit.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include "channel.h"
#include "cli.h"
#include "diag.h"
#include "kernel.h"
#include "metrics.h"
#include "names.h"
#include "output.h"
#include "run.h"
#include "setup.h"
#include "syscount.h"
#include "syscount.skel.h"

/* Column widths, for the header and every row. */
enum {
	PID_W = 7,
	COMM_W = 15,
	SYSCALL_W = 23,
	COUNT_W = 10,
	TOTAL_W = 15,
	AVG_W = 12,
};

static struct {
	bool per_process; /* -P */
	bool latency; /* -L */
	bool failed_only; /* -x */
	int only_errno; /* -e */
	long only_nr; /* -s; -1: all */
	unsigned long top; /* -T; 0: all */
	unsigned long interval; /* -i, seconds; 0: at exit only */
} env = { .only_nr = -1, .top = 10 };

static const struct argp_option options[] = {
	{ "process", 'P', NULL, 0, "Count per process, not per syscall", 0 },
	{ "latency", 'L', NULL, 0,
	  "Also show total and average time in syscalls", 0 },
	{ "top", 'T', "N", 0,
	  "Show the N most frequent only (default 10; 0: all)", 0 },
	{ "interval", 'i', "SECONDS", 0,
	  "Print and reset the counts every SECONDS", 0 },
	{ "failures", 'x', NULL, 0, "Count failed syscalls (ret < 0) only", 0 },
	{ "errno", 'e', "ERRNO", 0,
	  "Count syscalls failing with ERRNO only (ENOENT or 2)", 0 },
	{ "syscall", 's', "NAME", 0, "Count this syscall only (name or number)",
	  0 },
	{},
};

/* Parse an errno given as a name (ENOENT) or a number. */
static int parse_errno(const char *arg, int *out)
{
	unsigned long val;
	int e;

	if (arg[0] >= '0' && arg[0] <= '9') {
		if (bpfkit_parse_ulong("-e/--errno", arg, 1, 4095, &val))
			return EINVAL;
		*out = val;
		return 0;
	}
	for (e = 1; e < 4096; e++) {
		if (strerrorname_np(e) && !strcmp(strerrorname_np(e), arg)) {
			*out = e;
			return 0;
		}
	}
	return bpfkit_usage_error(
		"invalid -e/--errno '%s': expected an errno name (ENOENT) or a number from 1 to 4095",
		arg);
}

/* Parse a syscall given as a name (getppid) or a number. */
static int parse_syscall(const char *arg, long *out)
{
	unsigned long val;

	if (arg[0] >= '0' && arg[0] <= '9') {
		if (bpfkit_parse_ulong("-s/--syscall", arg, 0,
				       bpfkit_syscall_count - 1, &val))
			return EINVAL;
		*out = val;
		return 0;
	}
	*out = bpfkit_syscall_nr(arg);
	if (*out < 0)
		return bpfkit_usage_error(
			"invalid -s/--syscall '%s': no such syscall on this machine",
			arg);
	return 0;
}

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case 'P':
		env.per_process = true;
		return 0;
	case 'L':
		env.latency = true;
		return 0;
	case 'x':
		env.failed_only = true;
		return 0;
	case 'T':
		return bpfkit_parse_ulong("-T/--top", arg, 0, SYSCOUNT_MAX_KEYS,
					  &env.top);
	case 'i':
		return bpfkit_parse_ulong("-i/--interval", arg, 1, 86400,
					  &env.interval);
	case 'e':
		return parse_errno(arg, &env.only_errno);
	case 's':
		return parse_syscall(arg, &env.only_nr);
	}
	return ARGP_ERR_UNKNOWN;
}

static const struct bpfkit_tool tool = {
	.name = "syscount",
	.doc = "Count syscalls per syscall or per process, with optional latency.\n"
	       "\v"
	       "Syscalls are counted when they return, so exit(2) and\n"
	       "exit_group(2) never are.\n"
	       "\n"
	       "Examples:\n"
	       "  syscount                   # top 10 syscalls until Ctrl-C\n"
	       "  syscount -p 181 -L         # process 181, with latency\n"
	       "  syscount -P -i 1 -T 5      # top 5 processes every second\n"
	       "  syscount -x -e ENOENT      # syscalls failing with ENOENT\n"
	       "  syscount -s getppid -P -j  # who calls getppid, as JSON\n",
	.options = BPFKIT_OPT_FILTERS | BPFKIT_OPT_JSON | BPFKIT_OPT_METRICS,
	.own_options = options,
	.own_parser = parse_arg,
};

/* One row of the table: a syscall or a process, summed over CPUs. */
struct row {
	__u32 key;
	struct syscount_val v;
};

struct report {
	int map_fd;
	int ncpus;
	const __u64 *untimed; /* the BPF side's syscount_untimed */
	__u64 untimed_reported;
	struct syscount_val *percpu;
	struct row *rows;
	__u32 *keys;
	unsigned int intervals;
	struct timespec last;
};

/*
 * Sum one key's per-CPU slots into ROW and remove the key; with metrics,
 * keep it: counters never go back.
 */
static int take(struct report *r, __u32 key, struct row *row)
{
	int i;

	if (bpfkit_metrics_enabled()) {
		if (bpf_map_lookup_elem(r->map_fd, &key, r->percpu))
			return -errno;
	} else if (bpf_map_lookup_and_delete_elem(r->map_fd, &key, r->percpu)) {
		/* Kernels before 5.14 cannot do both in one step. */
		if (bpf_map_lookup_elem(r->map_fd, &key, r->percpu))
			return -errno;
		bpf_map_delete_elem(r->map_fd, &key);
	}
	memset(row, 0, sizeof(*row));
	row->key = key;
	for (i = 0; i < r->ncpus; i++) {
		row->v.count += r->percpu[i].count;
		row->v.total_ns += r->percpu[i].total_ns;
		if (!row->v.comm[0])
			memcpy(row->v.comm, r->percpu[i].comm,
			       sizeof(row->v.comm));
	}
	return 0;
}

/* Most frequent first; ties by key, so output is stable. */
static int by_count(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	if (x->v.count != y->v.count)
		return x->v.count < y->v.count ? 1 : -1;
	return x->key < y->key ? -1 : x->key > y->key;
}

static void print_json(struct report *r, int n, double seconds)
{
	__u64 untimed = *r->untimed - r->untimed_reported;
	const char *name;
	int i;

	printf("{\"interval\":%u,\"seconds\":%.3f,", r->intervals, seconds);
	/* With -L: calls of this interval that could not be timed. */
	if (env.latency)
		printf("\"untimed\":%llu,", (unsigned long long)untimed);
	r->untimed_reported += untimed;
	printf("\"%s\":[", env.per_process ? "processes" : "syscalls");
	for (i = 0; i < n; i++) {
		const struct row *w = &r->rows[i];

		printf("%s{", i ? "," : "");
		if (env.per_process) {
			printf("\"pid\":%u,\"comm\":", w->key);
			bpfkit_json_escape(stdout, w->v.comm,
					   sizeof(w->v.comm));
		} else {
			name = bpfkit_syscall_name(w->key);
			printf("\"name\":");
			bpfkit_json_escape(stdout, name ?: "unknown", 32);
			printf(",\"nr\":%u", w->key);
		}
		printf(",\"count\":%llu", (unsigned long long)w->v.count);
		if (env.latency)
			printf(",\"total_ns\":%llu,\"avg_ns\":%llu",
			       (unsigned long long)w->v.total_ns,
			       (unsigned long long)(w->v.total_ns /
						    w->v.count));
		printf("}");
	}
	printf("]}\n");
}

static void print_table(struct report *r, int n)
{
	char now[16];
	time_t t = time(NULL);
	int i;

	if (env.interval) {
		strftime(now, sizeof(now), "%H:%M:%S", localtime(&t));
		printf("%s[%s]\n", r->intervals > 1 ? "\n" : "", now);
	}
	if (env.per_process)
		printf("%-*s %-*s %*s", PID_W, "PID", COMM_W, "COMM", COUNT_W,
		       "COUNT");
	else
		printf("%-*s %*s", SYSCALL_W, "SYSCALL", COUNT_W, "COUNT");
	if (env.latency)
		printf(" %*s %*s", TOTAL_W, "TOTAL(us)", AVG_W, "AVG(us)");
	printf("\n");
	for (i = 0; i < n; i++) {
		const struct row *w = &r->rows[i];
		const char *name = bpfkit_syscall_name(w->key);

		if (env.per_process) {
			printf("%-*u ", PID_W, w->key);
			bpfkit_print_str(w->v.comm, sizeof(w->v.comm), COMM_W);
		} else if (name) {
			printf("%-*s ", SYSCALL_W, name);
		} else {
			printf("%-*u ", SYSCALL_W, w->key);
		}
		printf("%*llu", COUNT_W, (unsigned long long)w->v.count);
		if (env.latency)
			printf(" %*.3f %*.3f", TOTAL_W, w->v.total_ns / 1e3,
			       AVG_W, w->v.total_ns / 1e3 / w->v.count);
		printf("\n");
	}
}

/* Take every row out of the map, most frequent first; their number. */
static int take_rows(struct report *r)
{
	__u32 *prev = NULL, key;
	int n = 0, nkeys = 0, i;

	while (nkeys < SYSCOUNT_MAX_KEYS &&
	       !bpf_map_get_next_key(r->map_fd, prev, &key)) {
		r->keys[nkeys] = key;
		prev = &r->keys[nkeys++];
	}
	for (i = 0; i < nkeys; i++)
		if (!take(r, r->keys[i], &r->rows[n]) && r->rows[n].v.count)
			n++;
	qsort(r->rows, n, sizeof(*r->rows), by_count);
	return n;
}

/*
 * A scrape: calls (and with -L seconds) per syscall, or per process with
 * -P, labelled by pid and comm as --metrics-labels asks.
 */
static int fill_metrics(struct bpfkit_metrics *m, void *ctx)
{
	struct report *r = ctx;
	int n = take_rows(r), i, pass, err = 0;
	const char *labels[5];
	char pid[16];

	for (pass = 0; pass < (env.latency ? 2 : 1) && !err; pass++) {
		err = bpfkit_metrics_family(
			m,
			pass ? "bpfkit_syscount_syscall_seconds_total" :
			       "bpfkit_syscount_syscalls_total",
			BPFKIT_COUNTER,
			pass ? "Time spent in syscalls (-L)" :
			       "Syscalls that returned");
		for (i = 0; i < n && !err; i++) {
			const struct row *w = &r->rows[i];
			int k = 0;

			if (!env.per_process) {
				labels[k++] = "syscall";
				labels[k++] = bpfkit_syscall_name(w->key) ?:
						      "unknown";
			}
			if (env.per_process &&
			    bpfkit_metrics_label(BPFKIT_LABEL_PID)) {
				snprintf(pid, sizeof(pid), "%u", w->key);
				labels[k++] = "pid";
				labels[k++] = pid;
			}
			if (env.per_process &&
			    bpfkit_metrics_label(BPFKIT_LABEL_COMM)) {
				labels[k++] = "comm";
				labels[k++] = w->v.comm;
			}
			labels[k] = NULL;
			err = bpfkit_metrics_add(m, labels,
						 pass ? w->v.total_ns / 1e9 :
							w->v.count);
		}
	}
	return err;
}

/* Take every row out of the map, sort, print the top ones. */
static int report(void *ctx)
{
	struct report *r = ctx;
	int n = take_rows(r);

	if (env.top && (unsigned long)n > env.top)
		n = env.top;
	r->intervals++;
	if (bpfkit_output_json())
		print_json(r, n, bpfkit_lap(&r->last));
	else
		print_table(r, n);
	return 0;
}

/* Tell the BPF side which syscalls never return and which start tasks. */
static void set_kinds(volatile __u8 *kind)
{
	static const struct {
		const char *name;
		__u8 kind;
	} kinds[] = {
		{ "exit", SYSCOUNT_NO_RETURN },
		{ "exit_group", SYSCOUNT_NO_RETURN },
		{ "fork", SYSCOUNT_FORK },
		{ "vfork", SYSCOUNT_FORK },
		{ "clone", SYSCOUNT_FORK },
		{ "clone3", SYSCOUNT_FORK },
	};
	size_t i;
	long nr;

	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		nr = bpfkit_syscall_nr(kinds[i].name);
		if (nr >= 0 && nr < SYSCOUNT_MAX_NR)
			kind[nr] = kinds[i].kind;
	}
}

int main(int argc, char **argv)
{
	struct report r = { .ncpus = libbpf_num_possible_cpus() };
	struct bpfkit_tick tick = { .fn = report, .ctx = &r };
	struct syscount_bpf *skel = NULL;
	int err;

	/* Parse options; check privileges, tracefs and kernel BTF. */
	bpfkit_setup(&tool, argc, argv);

	/* Open the BPF object. */
	skel = syscount_bpf__open_opts(bpfkit_open_opts());
	if (!skel)
		return bpfkit_open_failed();

	/* Set our own options; time syscalls at entry only with -L. */
	skel->rodata->per_process = env.per_process;
	skel->rodata->latency = env.latency;
	skel->rodata->failed_only = env.failed_only;
	skel->rodata->only_errno = env.only_errno;
	skel->rodata->only_nr = env.only_nr;
	set_kinds(skel->rodata->syscount_kind);
	bpf_program__set_autoload(skel->progs.sys_enter, env.latency);
	/* Without -L no start time is kept: do not allocate 65536 slots. */
	if (!env.latency)
		bpf_map__set_max_entries(skel->maps.syscount_start, 1);
	/* Counts take memory as keys come, where the kernel allows it. */
	bpfkit_sparse_map(skel->maps.syscount_counts);

	/* Write the common filters to .rodata; load and verify. */
	err = bpfkit_load(skel->skeleton);
	if (err)
		goto cleanup;

	/* Make room to read the counts map. */
	r.map_fd = bpf_map__fd(skel->maps.syscount_counts);
	r.untimed = &skel->bss->syscount_untimed;
	r.percpu = calloc(r.ncpus, sizeof(*r.percpu));
	r.rows = calloc(SYSCOUNT_MAX_KEYS, sizeof(*r.rows));
	r.keys = calloc(SYSCOUNT_MAX_KEYS, sizeof(*r.keys));
	if (!r.percpu || !r.rows || !r.keys) {
		err = -ENOMEM;
		bpfkit_fail("allocate the report", err);
		goto cleanup;
	}

	/* Attach to raw_syscalls:sys_exit (and sys_enter with -L). */
	err = bpfkit_attach(skel->skeleton, NULL, NULL, NULL);
	if (err)
		goto cleanup;

	/* Count until a signal or --duration, reporting every interval. */
	clock_gettime(CLOCK_MONOTONIC, &r.last);
	tick.interval_ms = env.interval * 1000;
	bpfkit_metrics_source(fill_metrics, &r);
	err = bpfkit_run(NULL, env.interval ? &tick : NULL);

	/* Report what was counted since the last interval. */
	if (!err)
		report(&r);
	if (skel->bss->syscount_missed)
		bpfkit_error("%llu syscalls not counted: more than %d keys",
			     (unsigned long long)skel->bss->syscount_missed,
			     SYSCOUNT_MAX_KEYS);
	if (skel->bss->syscount_untimed)
		bpfkit_error(
			"%llu syscalls could not be timed, so are not counted: they began before tracing did, or their start times were evicted",
			(unsigned long long)skel->bss->syscount_untimed);

cleanup:
	free(r.percpu);
	free(r.rows);
	free(r.keys);
	syscount_bpf__destroy(skel);
	return bpfkit_exit_code(err);
}
