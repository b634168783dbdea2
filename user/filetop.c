// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * filetop: the files processes read and write most, by bytes or calls,
 * printed every interval.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <bpf/bpf.h>
#include "cli.h"
#include "diag.h"
#include "metrics.h"
#include "output.h"
#include "run.h"
#include "setup.h"
#include "tracefs.h"
#include "filetop.h"
#include "filetop.skel.h"

/* Column widths, for the header and every row. */
enum { CALLS_W = 7, KB_W = 9 };

/* What -s sorts by. */
enum sort_key { SORT_ALL, SORT_READS, SORT_WRITES, SORT_RBYTES, SORT_WBYTES };

static const char *const sort_names[] = {
	[SORT_ALL] = "all",	  [SORT_READS] = "reads",
	[SORT_WRITES] = "writes", [SORT_RBYTES] = "rbytes",
	[SORT_WBYTES] = "wbytes",
};

static struct {
	bool all_files; /* -a */
	enum sort_key sort; /* -s */
	unsigned long rows; /* -r; 0: all */
	unsigned long interval; /* -i, seconds */
} env = { .rows = 20, .interval = 1 };

static const struct argp_option options[] = {
	{ "all", 'a', NULL, 0,
	  "Count every kind of file (sockets, pipes, devices), not regular files only",
	  0 },
	{ "sort", 's', "KEY", 0,
	  "Sort by KEY: all (bytes read and written, the default), reads, writes, rbytes or wbytes",
	  0 },
	{ "rows", 'r', "N", 0, "Show the top N rows (default 20; 0: all)", 0 },
	{ "interval", 'i', "SECONDS", 0,
	  "Print and reset the counts every SECONDS (default 1)", 0 },
	{},
};

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	size_t i;

	switch (key) {
	case 'a':
		env.all_files = true;
		return 0;
	case 's':
		for (i = 0; i < sizeof(sort_names) / sizeof(sort_names[0]); i++)
			if (!strcmp(arg, sort_names[i])) {
				env.sort = i;
				return 0;
			}
		return bpfkit_usage_error(
			"invalid -s/--sort '%s': expected all, reads, writes, rbytes or wbytes",
			arg);
	case 'r':
		return bpfkit_parse_ulong("-r/--rows", arg, 0, FILETOP_MAX_KEYS,
					  &env.rows);
	case 'i':
		return bpfkit_parse_ulong("-i/--interval", arg, 1, 86400,
					  &env.interval);
	}
	return ARGP_ERR_UNKNOWN;
}

static const struct bpfkit_tool tool = {
	.name = "filetop",
	.doc = "Top files by reads and writes (bytes and calls), per process, every interval.\n"
	       "\v"
	       "Counts read, readv, pread64, preadv, preadv2, write, writev,\n"
	       "pwrite64, pwritev and pwritev2 calls that returned 0 or more, on\n"
	       "regular files unless -a. I/O through mmap, io_uring, sendfile,\n"
	       "splice or copy_file_range is not seen.\n"
	       "\n"
	       "Examples:\n"
	       "  filetop                 # top 20 files every second\n"
	       "  filetop -p 181 -i 5     # process 181, every 5 seconds\n"
	       "  filetop -a -s writes    # every kind of file, by write calls\n"
	       "  filetop -r 5 -j         # the top 5, as JSON Lines\n",
	.options = BPFKIT_OPT_FILTERS | BPFKIT_OPT_JSON | BPFKIT_OPT_METRICS,
	.own_options = options,
	.own_parser = parse_arg,
};

/* One row: a process's file. */
struct row {
	struct filetop_key key;
	struct filetop_val v;
};

struct report {
	int map_fd;
	struct row *rows;
	struct filetop_key *keys;
	unsigned int intervals;
	struct timespec then;
};

static __u64 sort_value(const struct row *r)
{
	switch (env.sort) {
	case SORT_READS:
		return r->v.reads;
	case SORT_WRITES:
		return r->v.writes;
	case SORT_RBYTES:
		return r->v.read_bytes;
	case SORT_WBYTES:
		return r->v.write_bytes;
	default:
		return r->v.read_bytes + r->v.write_bytes;
	}
}

/* Largest first; ties by pid, then inode, so output is stable. */
static int by_sort_key(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	__u64 vx = sort_value(x), vy = sort_value(y);

	if (vx != vy)
		return vx < vy ? 1 : -1;
	if (x->key.pid != y->key.pid)
		return x->key.pid < y->key.pid ? -1 : 1;
	return x->key.ino < y->key.ino ? -1 : x->key.ino > y->key.ino;
}

/*
 * Take every row out of the map (with metrics, leave them: counters never
 * go back), sorted; their number.
 */
static int take_rows(struct report *r)
{
	struct filetop_key *prev = NULL, key;
	int n = 0, nkeys = 0, i;

	while (nkeys < FILETOP_MAX_KEYS &&
	       !bpf_map_get_next_key(r->map_fd, prev, &key)) {
		r->keys[nkeys] = key;
		prev = &r->keys[nkeys++];
	}
	for (i = 0; i < nkeys; i++) {
		r->rows[n].key = r->keys[i];
		if (bpf_map_lookup_elem(r->map_fd, &r->keys[i], &r->rows[n].v))
			continue;
		if (!bpfkit_metrics_enabled())
			bpf_map_delete_elem(r->map_fd, &r->keys[i]);
		n++;
	}
	qsort(r->rows, n, sizeof(*r->rows), by_sort_key);
	return n;
}

static const char type_letters[] = { [FILETOP_REGULAR] = 'R',
				     [FILETOP_SOCKET] = 'S',
				     [FILETOP_OTHER] = 'O' };

static char type_letter(__u32 type)
{
	return type <= FILETOP_OTHER ? type_letters[type] : '?';
}

static void print_json(struct report *r, int n, double seconds)
{
	struct bpfkit_json j;
	char type[2] = "";
	int i;

	bpfkit_json_begin(&j, stdout, NULL);
	bpfkit_json_uint(&j, "interval", r->intervals);
	bpfkit_json_double(&j, "seconds", seconds);
	bpfkit_json_array_begin(&j, "files");
	for (i = 0; i < n; i++) {
		const struct row *w = &r->rows[i];

		type[0] = type_letter(w->v.type);
		bpfkit_json_object_begin(&j, NULL);
		bpfkit_json_uint(&j, "pid", w->key.pid);
		bpfkit_json_str(&j, "comm", w->v.comm, sizeof(w->v.comm));
		bpfkit_json_uint(&j, "reads", w->v.reads);
		bpfkit_json_uint(&j, "writes", w->v.writes);
		bpfkit_json_uint(&j, "read_bytes", w->v.read_bytes);
		bpfkit_json_uint(&j, "write_bytes", w->v.write_bytes);
		bpfkit_json_str(&j, "type", type, 1);
		bpfkit_json_uint(&j, "dev", w->key.dev);
		bpfkit_json_uint(&j, "ino", w->key.ino);
		bpfkit_json_str(&j, "file", w->v.name, sizeof(w->v.name));
		bpfkit_json_object_end(&j);
	}
	bpfkit_json_array_end(&j);
	bpfkit_json_end(&j);
}

static void print_table(struct report *r, int n)
{
	char now[16];
	time_t t = time(NULL);
	int i;

	strftime(now, sizeof(now), "%H:%M:%S", localtime(&t));
	printf("%s[%s]\n", r->intervals > 1 ? "\n" : "", now);
	printf("%-*s %-*s %*s %*s %*s %*s T FILE\n", BPFKIT_PID_W, "PID",
	       BPFKIT_COMM_W, "COMM", CALLS_W, "READS", CALLS_W, "WRITES", KB_W,
	       "R_KB", KB_W, "W_KB");
	for (i = 0; i < n; i++) {
		const struct row *w = &r->rows[i];

		bpfkit_print_task(w->key.pid, w->v.comm);
		printf("%*llu %*llu %*llu %*llu %c ", CALLS_W,
		       (unsigned long long)w->v.reads, CALLS_W,
		       (unsigned long long)w->v.writes, KB_W,
		       (unsigned long long)w->v.read_bytes / 1024, KB_W,
		       (unsigned long long)w->v.write_bytes / 1024,
		       type_letter(w->v.type));
		bpfkit_col_escape(stdout, w->v.name, sizeof(w->v.name), false);
		putchar('\n');
	}
}

/* Take the rows, print the top ones. */
static int report(void *ctx)
{
	struct report *r = ctx;
	int n = take_rows(r);
	struct timespec now;
	double s;

	clock_gettime(CLOCK_MONOTONIC, &now);
	s = now.tv_sec - r->then.tv_sec + (now.tv_nsec - r->then.tv_nsec) / 1e9;
	r->then = now;
	if (env.rows && (unsigned long)n > env.rows)
		n = env.rows;
	r->intervals++;
	if (bpfkit_output_json())
		print_json(r, n, s);
	else
		print_table(r, n);
	return 0;
}

/*
 * A scrape: calls and bytes per file, labelled by file name and type, and
 * by pid and comm as --metrics-labels asks.
 */
static int fill_metrics(struct bpfkit_metrics *m, void *ctx)
{
	static const struct {
		const char *name, *help;
	} families[] = {
		{ "bpfkit_filetop_reads_total", "Read calls that returned" },
		{ "bpfkit_filetop_writes_total", "Write calls that returned" },
		{ "bpfkit_filetop_read_bytes_total", "Bytes read" },
		{ "bpfkit_filetop_written_bytes_total", "Bytes written" },
	};
	struct report *r = ctx;
	int n = take_rows(r), i, f, err = 0;
	const char *labels[9];
	char pid[16], type[2] = "";
	__u64 value;

	for (f = 0; f < 4 && !err; f++) {
		err = bpfkit_metrics_family(m, families[f].name, BPFKIT_COUNTER,
					    families[f].help);
		for (i = 0; i < n && !err; i++) {
			const struct row *w = &r->rows[i];
			int k = 0;

			type[0] = type_letter(w->v.type);
			labels[k++] = "file";
			labels[k++] = w->v.name;
			labels[k++] = "type";
			labels[k++] = type;
			bpfkit_metrics_task_labels(labels, k, "pid", w->key.pid,
						   w->v.comm, pid, sizeof(pid));
			value = f == 0 ? w->v.reads :
				f == 1 ? w->v.writes :
				f == 2 ? w->v.read_bytes :
					 w->v.write_bytes;
			err = bpfkit_metrics_add(m, labels, value);
		}
	}
	return err;
}

/* The calls counted: each one's enter and exit programs. */
enum { NR_CALLS = 10 };

static void io_calls(struct filetop_bpf *skel,
		     struct bpfkit_syscall_tp calls[NR_CALLS])
{
	const struct bpfkit_syscall_tp c[NR_CALLS] = {
		{ skel->progs.read_enter, skel->progs.read_exit, "read" },
		{ skel->progs.readv_enter, skel->progs.readv_exit, "readv" },
		{ skel->progs.pread64_enter, skel->progs.pread64_exit,
		  "pread64" },
		{ skel->progs.preadv_enter, skel->progs.preadv_exit, "preadv" },
		{ skel->progs.preadv2_enter, skel->progs.preadv2_exit,
		  "preadv2" },
		{ skel->progs.write_enter, skel->progs.write_exit, "write" },
		{ skel->progs.writev_enter, skel->progs.writev_exit, "writev" },
		{ skel->progs.pwrite64_enter, skel->progs.pwrite64_exit,
		  "pwrite64" },
		{ skel->progs.pwritev_enter, skel->progs.pwritev_exit,
		  "pwritev" },
		{ skel->progs.pwritev2_enter, skel->progs.pwritev2_exit,
		  "pwritev2" },
	};

	memcpy(calls, c, sizeof(c));
}

int main(int argc, char **argv)
{
	struct report r = {};
	struct bpfkit_tick tick = { .fn = report, .ctx = &r };
	struct bpfkit_syscall_tp calls[NR_CALLS];
	struct filetop_bpf *skel = NULL;
	int err;

	/* Parse options; check privileges, tracefs and kernel BTF. */
	bpfkit_setup(&tool, argc, argv);

	/* Open the BPF object. */
	skel = filetop_bpf__open_opts(bpfkit_open_opts());
	if (!skel)
		return bpfkit_open_failed();

	/* Set our own options; keep the tracepoints this kernel has. */
	skel->rodata->all_files = env.all_files;
	io_calls(skel, calls);
	err = bpfkit_syscall_tps_autoload(
		calls, NR_CALLS,
		"sys_enter_read and the other read and write calls' tracepoints");
	if (err)
		goto cleanup;

	/* Write the common filters to .rodata; load and verify. */
	err = bpfkit_load(skel->skeleton);
	if (err)
		goto cleanup;

	/* Make room to read the counts map. */
	r.map_fd = bpf_map__fd(skel->maps.filetop_counts);
	r.rows = calloc(FILETOP_MAX_KEYS, sizeof(*r.rows));
	r.keys = calloc(FILETOP_MAX_KEYS, sizeof(*r.keys));
	if (!r.rows || !r.keys) {
		err = -ENOMEM;
		bpfkit_fail("allocate the report", err);
		goto cleanup;
	}

	/* Attach to the calls' entries and exits. */
	err = bpfkit_attach(skel->skeleton, NULL, NULL, NULL);
	if (err)
		goto cleanup;

	/* Count until a signal or -d, reporting every interval. */
	clock_gettime(CLOCK_MONOTONIC, &r.then);
	tick.interval_ms = env.interval * 1000;
	bpfkit_metrics_source(fill_metrics, &r);
	err = bpfkit_run(NULL, &tick);

	/* Report what was counted since the last interval. */
	if (!err)
		report(&r);
	if (skel->bss->filetop_missed)
		bpfkit_error(
			"%llu calls not counted: more than %d files, or no room to stage them",
			(unsigned long long)skel->bss->filetop_missed,
			FILETOP_MAX_KEYS);

cleanup:
	free(r.rows);
	free(r.keys);
	filetop_bpf__destroy(skel);
	return bpfkit_exit_code(err);
}
