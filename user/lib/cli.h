/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The command line every tool shares, above every room with options. A tool
 * declares which common options it offers and adds its own; bpfkit_parse()
 * fills bpfkit_opts and hands each room its part, or prints one line naming
 * the bad option (bpfkit_usage_error(), diag.h) and exits with
 * BPFKIT_EXIT_USAGE.
 */
#ifndef BPFKIT_CLI_H
#define BPFKIT_CLI_H

#include <argp.h>
#include <stdbool.h>
#include "bpfkit/filter.h"
#include "channel.h"
#include "container.h"
#include "histogram.h"
#include "metrics.h"
#include "net.h"
#include "output.h"
#include "privs.h"
#include "stacks.h"
#include "tracefs.h"

/* Common options a tool may offer (-d, -v, -h, -V and --btf always are). */
enum {
	BPFKIT_OPT_PID = 1 << 0, /* -p PID */
	BPFKIT_OPT_UID = 1 << 1, /* -u UID|USER */
	BPFKIT_OPT_COMM = 1 << 2, /* -c NAME */
	BPFKIT_OPT_CGROUP = 1 << 3, /* --cgroup PATH */
	BPFKIT_OPT_JSON = 1 << 4, /* -j */
	BPFKIT_OPT_TIME = 1 << 5, /* -T, -t */
	BPFKIT_OPT_CHANNEL = 1 << 6, /* --ringbuf, --buffer-pages, ... */
	/* -i, [INTERVAL [COUNT]], -T, -m, --cumulative, --linear */
	BPFKIT_OPT_HIST = 1 << 7,
	/* --metrics, --textfile, --print, --metrics-labels, --max-series */
	BPFKIT_OPT_METRICS = 1 << 8,
	BPFKIT_OPT_FAMILY = 1 << 9, /* -4, -6 */
	BPFKIT_OPT_STACKS = 1 << 10, /* -U, -K, -L, --top, --svg */
	BPFKIT_OPT_BLOCK_TIME = 1 << 11, /* -m, -M: blocks timed */
	BPFKIT_OPT_FAILED = 1 << 12, /* -x: failed calls only */
	BPFKIT_OPT_PORTS = 1 << 13, /* -L, -D: local and remote ports */
	BPFKIT_OPT_DISK = 1 << 14, /* --disk DISK */
	BPFKIT_OPT_TASK_HISTS = 1 << 15, /* -P, -L: per process or thread */
	/* -D, -C: totals per key, or histograms (-D); per CPU (-C) */
	BPFKIT_OPT_TOTALS = 1 << 16,
	/* -i, [INTERVAL [COUNT]] without histograms: a report every interval */
	BPFKIT_OPT_INTERVAL = 1 << 17,
	/* names stack frames as it prints them: no --drop-privileges */
	BPFKIT_OPT_FRAMES = 1 << 18,
	BPFKIT_OPT_FILTERS = BPFKIT_OPT_PID | BPFKIT_OPT_UID | BPFKIT_OPT_COMM |
			     BPFKIT_OPT_CGROUP,
	BPFKIT_OPT_EVENTS = BPFKIT_OPT_FILTERS | BPFKIT_OPT_JSON |
			    BPFKIT_OPT_TIME | BPFKIT_OPT_CHANNEL |
			    BPFKIT_OPT_METRICS,
};

/* A map's size set before load (--test-map-entries, for tests only). */
struct bpfkit_map_size {
	const char *map; /* the map's name in the BPF object; NULL: none */
	unsigned int entries;
};

/* What the common options say, after parsing, grouped by the room they go to. */
struct bpfkit_opts {
	const char *tool; /* the tool's name, for messages */
	struct bpfkit_filter filter; /* -p, -u, -c, --cgroup: BPF's .rodata */
	int cgroup_fd; /* --cgroup: the directory, for bpfkit_cgroup; -1: none */
	struct bpfkit_channel_opts channel; /* --ringbuf, --buffer-pages, ... */
	struct bpfkit_output_opts output; /* -j, -T, -t */
	struct bpfkit_hist_opts hist; /* -i, COUNT, -T, -m, ... */
	struct bpfkit_metrics_opts metrics; /* --metrics, --textfile, ... */
	struct bpfkit_net_opts net; /* -4, -6 */
	struct bpfkit_stacks_opts stacks; /* -U, -K, -L, --top, --svg, -m, -M */
	bool failed_only; /* -x: the tool's, for its .rodata */
	__u32 disk; /* --disk: its dev_t; 0: every disk */
	double duration; /* -d: seconds to run; 0: until a signal */
	bool verbose; /* -v: libbpf's own log */
	const char *btf_path; /* --btf: kernel BTF for kernels without one */
	struct bpfkit_drop_opts drop; /* --drop-privileges: bpfkit_run()'s */
	struct bpfkit_map_size test_map; /* --test-map-entries: setup's */
	/* --containers, --container, --host-only: the container room's */
	struct bpfkit_container_opts containers;
};

extern struct bpfkit_opts bpfkit_opts;

/*
 * A user-probe tool's option naming the program or library its probes go
 * in: the command line checks that the file is ELF (bpfkit_parse_elf())
 * and sets *path to it, which keeps the tool's default when not given.
 */
struct bpfkit_binary_opt {
	const char *name; /* the long option, e.g. "shell" */
	int key; /* the short one, e.g. 's' */
	const char *doc; /* its --help text */
	const char **path;
};

/* What a tool tells the command line about itself. */
struct bpfkit_tool {
	const char *name;
	const char *doc; /* argp doc: one line, '\v', examples */
	const char *args_doc; /* positional arguments, or NULL */
	unsigned int options; /* BPFKIT_OPT_* offered */
	const struct argp_option *own_options; /* NULL-terminated, or NULL */
	argp_parser_t own_parser; /* handles own options, or NULL */
	const struct bpfkit_binary_opt *binary; /* first of its own, or NULL */
	/* Checked before anything loads; ended by {}, or NULL. */
	const struct bpfkit_tracepoint *tracepoints;
	/*
	 * -C/--count's help (what the tool counts, e.g. "Count connects per
	 * destination, printed at exit"), or NULL: no -C. With -C, events are
	 * counted, not printed (bpfkit_output_counts()).
	 */
	const char *counts;
	/* Its own series of a scrape (--metrics, --textfile), or NULL. */
	bpfkit_metrics_fill_fn metrics;
};

/*
 * Parse argv into bpfkit_opts, then hand the diagnostics, output and run
 * loop their parts; on a usage error print one line and
 * exit(BPFKIT_EXIT_USAGE).
 */
void bpfkit_parse(const struct bpfkit_tool *tool, int argc, char **argv);

/* Parse a whole decimal number in [min, max] for option NAME. */
int bpfkit_parse_ulong(const char *name, const char *arg, unsigned long min,
		       unsigned long max, unsigned long *out);

/*
 * Parse ARG, a comma-separated list of ports (1-65535), for option NAME
 * into PORTS (the network tools' -P, -L, -D).
 */
int bpfkit_parse_ports(const char *name, const char *arg,
		       struct bpfkit_ports *ports);

/* Parse a uid given as a number or a user name. */
int bpfkit_parse_uid(const char *name, const char *arg, __u32 *uid);

/*
 * Check that ARG, for option NAME, is a readable ELF file (a program or a
 * library to put user probes in), and set PATH to it.
 */
int bpfkit_parse_elf(const char *name, const char *arg, const char **path);

#endif /* BPFKIT_CLI_H */
