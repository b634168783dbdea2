// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * hello-map: print how many execve calls each uid made, every interval,
 * from a BPF hash map. Options count every syscall (--all-syscalls), only
 * chosen ones (--syscalls, one program each) or key by syscall instead of
 * uid (--by-syscall).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include "channel.h"
#include "cli.h"
#include "diag.h"
#include "metrics.h"
#include "names.h"
#include "output.h"
#include "run.h"
#include "setup.h"
#include "tracefs.h"
#include "hello-map.h"
#include "hello-map.skel.h"

enum {
	OPT_ALL = 0x100,
	OPT_BY_SYSCALL,
	OPT_SYSCALLS,
};

static struct {
	unsigned long interval; /* seconds */
	bool all; /* --all-syscalls */
	bool by_syscall;
	long nrs[HELLO_MAP_SLOTS]; /* --syscalls, or execve */
	int n_nrs;
	int map_fd;
	bool printed; /* an interval was printed: separate the next one */
} env = { .interval = 2 };

struct entry {
	__u32 key;
	__u64 count;
};

/* Parse "execve,openat,write" into env.nrs. */
static int parse_syscalls(char *arg)
{
	char *name, *save = NULL;
	long nr;
	int i;

	for (name = strtok_r(arg, ",", &save); name;
	     name = strtok_r(NULL, ",", &save)) {
		nr = bpfkit_syscall_nr(name);
		if (nr < 0)
			return bpfkit_usage_error(
				"invalid --syscalls: unknown syscall '%s'",
				name);
		for (i = 0; i < env.n_nrs; i++) {
			if (env.nrs[i] == nr)
				return bpfkit_usage_error(
					"invalid --syscalls: '%s' named twice",
					name);
		}
		if (env.n_nrs == HELLO_MAP_SLOTS)
			return bpfkit_usage_error(
				"invalid --syscalls: more than %d syscalls",
				HELLO_MAP_SLOTS);
		env.nrs[env.n_nrs++] = nr;
	}
	if (!env.n_nrs)
		return bpfkit_usage_error(
			"invalid --syscalls: expected names like execve,openat");
	return 0;
}

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case 'i':
		return bpfkit_parse_ulong("-i/--interval", arg, 1, 86400,
					  &env.interval);
	case OPT_ALL:
		env.all = true;
		return 0;
	case OPT_BY_SYSCALL:
		env.by_syscall = true;
		return 0;
	case OPT_SYSCALLS:
		return parse_syscalls(arg);
	case ARGP_KEY_END:
		if (env.all && env.n_nrs)
			return bpfkit_usage_error(
				"--all-syscalls and --syscalls exclude each other");
		/* Count every syscall when keyed by syscall, else execve. */
		if (!env.n_nrs && env.by_syscall)
			env.all = true;
		if (!env.n_nrs && !env.all)
			env.nrs[env.n_nrs++] = bpfkit_syscall_nr("execve");
		return 0;
	}
	return ARGP_ERR_UNKNOWN;
}

static const struct argp_option options[] = {
	{ "interval", 'i', "SECONDS", 0,
	  "Print the counts every SECONDS (default 2)", 0 },
	{ "all-syscalls", OPT_ALL, NULL, 0,
	  "Count every syscall, not only execve", 0 },
	{ "syscalls", OPT_SYSCALLS, "LIST", 0,
	  "Count these syscalls (comma-separated, at most 8)", 0 },
	{ "by-syscall", OPT_BY_SYSCALL, NULL, 0,
	  "Count per syscall instead of per uid (every syscall unless --syscalls)",
	  0 },
	{},
};

static const struct bpfkit_tool tool = {
	.name = "hello-map",
	.doc = "Count execve calls (or other syscalls) per uid in a BPF map and print them\n"
	       "every interval.\n"
	       "\v"
	       "Examples:\n"
	       "  hello-map                          # execve calls per uid\n"
	       "  hello-map --all-syscalls -u 1000   # user 1000's syscalls\n"
	       "  hello-map --by-syscall -c nginx    # nginx's syscalls, by name\n"
	       "  hello-map --syscalls openat,write -j\n",
	.options = BPFKIT_OPT_FILTERS | BPFKIT_OPT_JSON | BPFKIT_OPT_METRICS,
	.own_options = options,
	.own_parser = parse_arg,
};

static int by_key(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	return x->key < y->key ? -1 : x->key > y->key;
}

/* Read up to MAX entries of the counts map into E; returns how many. */
static int read_counts(struct entry *e, int max)
{
	__u32 key, *prev = NULL;
	int n = 0;

	while (n < max && !bpf_map_get_next_key(env.map_fd, prev, &key)) {
		e[n].key = key;
		if (!bpf_map_lookup_elem(env.map_fd, &key, &e[n].count))
			n++;
		prev = &key;
	}
	qsort(e, n, sizeof(*e), by_key);
	return n;
}

/* The label of KEY: a uid, or a syscall name. */
static const char *label(__u32 key, char *buf, size_t size)
{
	const char *name = env.by_syscall ? bpfkit_syscall_name(key) : NULL;

	if (name)
		return name;
	snprintf(buf, size, env.by_syscall ? "syscall_%u" : "%u", key);
	return buf;
}

/* Print every count, sorted by key: one block, or one JSON object. */
static int print_counts(void *ctx)
{
	static struct entry e[HELLO_MAP_KEYS];
	struct bpfkit_json j;
	char buf[32];
	int i, n = read_counts(e, HELLO_MAP_KEYS);

	if (bpfkit_output_json()) {
		bpfkit_json_begin(&j, stdout, NULL);
		for (i = 0; i < n; i++)
			bpfkit_json_uint(&j, label(e[i].key, buf, sizeof(buf)),
					 e[i].count);
		bpfkit_json_end(&j);
		return 0;
	}
	if (env.printed)
		putchar('\n');
	env.printed = true;
	for (i = 0; i < n; i++)
		printf("%s%s: %llu\n", env.by_syscall ? "" : "ID ",
		       label(e[i].key, buf, sizeof(buf)), e[i].count);
	return 0;
}

/* Every count, for a scrape: per uid, or per syscall. */
static int fill_metrics(struct bpfkit_metrics *m, void *ctx)
{
	static struct entry e[HELLO_MAP_KEYS];
	int i, n = read_counts(e, HELLO_MAP_KEYS), err;
	char buf[32];

	err = bpfkit_metrics_family(m, "bpfkit_hello_map_syscalls_total",
				    BPFKIT_COUNTER,
				    env.by_syscall ?
					    "Syscalls entered, by syscall" :
					    "Syscalls entered, by uid");
	for (i = 0; i < n && !err; i++)
		err = bpfkit_metrics_add(
			m,
			(const char *[]){ env.by_syscall ? "syscall" : "uid",
					  label(e[i].key, buf, sizeof(buf)),
					  NULL },
			e[i].count);
	return err;
}

/* Turn off the programs this run does not use. */
static void select_programs(struct hello_map_bpf *skel,
			    struct bpf_program **slots)
{
	int i;

	bpf_program__set_autoload(skel->progs.count_all, env.all);
	for (i = env.n_nrs; i < HELLO_MAP_SLOTS; i++)
		bpf_program__set_autoload(slots[i], false);
}

/* Attach count_all, or one slot program per chosen syscall. */
static int attach(struct hello_map_bpf *skel, struct bpf_program **slots,
		  struct bpf_link **links)
{
	const char *name;
	char tp[64];
	int i, err;

	if (env.all) {
		links[0] = bpf_program__attach(skel->progs.count_all);
		err = links[0] ? 0 : -errno;
		if (err)
			bpfkit_fail("attach to raw tracepoint sys_enter", err);
		return err;
	}
	for (i = 0; i < env.n_nrs; i++) {
		name = bpfkit_syscall_name(env.nrs[i]);
		snprintf(tp, sizeof(tp), "sys_enter_%s", name);
		links[i] = bpf_program__attach_tracepoint(slots[i], "syscalls",
							  tp);
		if (!links[i]) {
			err = -errno;
			bpfkit_error(
				"failed to attach to syscalls:%s: %s%s", tp,
				strerror(-err),
				bpfkit_tracepoint_exists("syscalls", tp) ?
					"" :
					" (this kernel has no such tracepoint)");
			return err;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct bpfkit_tick tick = { .fn = print_counts };
	struct bpf_link *links[HELLO_MAP_SLOTS] = {};
	struct bpf_program *slots[HELLO_MAP_SLOTS];
	struct hello_map_bpf *skel = NULL;
	char name[32];
	int i, err;

	/* Parse options; check privileges, tracefs and kernel BTF. */
	bpfkit_setup(&tool, argc, argv);
	tick.interval_ms = env.interval * 1000;

	/* Open the BPF object and find its per-syscall programs. */
	skel = hello_map_bpf__open_opts(bpfkit_open_opts());
	if (!skel)
		return bpfkit_open_failed();
	for (i = 0; i < HELLO_MAP_SLOTS; i++) {
		snprintf(name, sizeof(name), "count_syscall%d", i);
		slots[i] = bpf_object__find_program_by_name(skel->obj, name);
	}

	/* Choose the key and load only the programs this run attaches. */
	skel->rodata->by_syscall = env.by_syscall;
	select_programs(skel, slots);

	/* Write the filters to .rodata (no event channel); load and verify. */
	err = bpfkit_load(skel->skeleton);
	if (err)
		goto cleanup;
	env.map_fd = bpf_map__fd(skel->maps.counts);

	/* Attach to the chosen syscalls. */
	err = attach(skel, slots, links);
	if (err)
		goto cleanup;

	/* Print (or serve) the counts until a signal or --duration. */
	bpfkit_metrics_object(skel->obj);
	bpfkit_metrics_source(fill_metrics, NULL);
	err = bpfkit_run(NULL, &tick);
	print_counts(NULL);

cleanup:
	for (i = 0; i < HELLO_MAP_SLOTS; i++)
		bpf_link__destroy(links[i]);
	hello_map_bpf__destroy(skel);
	return bpfkit_exit_code(err);
}
