// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The command line every tool shares: common options, parsing, usage errors. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <linux/magic.h>
#include <bpf/btf.h>
#include "blockio.h"
#include "cgroup.h"
#include "cli.h"
#include "diag.h"
#include "run.h"

#ifndef BPFKIT_VERSION
#define BPFKIT_VERSION "unknown"
#endif

/* Keys of the long-only options. */
enum {
	OPT_CGROUP = 0x1000,
	OPT_RINGBUF,
	OPT_PAGES,
	OPT_WAKEUP,
	OPT_LATENCY,
	OPT_BTF,
	OPT_TEST_MAP_ENTRIES,
	OPT_CUMULATIVE,
	OPT_LINEAR,
	OPT_TOP,
	OPT_SVG,
	OPT_METRICS,
	OPT_TEXTFILE,
	OPT_PRINT,
	OPT_METRICS_LABELS,
	OPT_MAX_SERIES,
	OPT_DROP_PRIVILEGES,
	OPT_DISK,
	/* Overload control */
	OPT_RATE_LIMIT,
	OPT_RATE_LIMIT_BY,
	OPT_SAMPLE,
	OPT_SAMPLE_RANDOM,
	OPT_MAX_CPU,
	/* The container room's (container.c) */
	OPT_CONTAINERS,
	OPT_CONTAINER,
	OPT_HOST_ONLY,
	OPT_PER_CONTAINER,
};

/* Histogram tools and event tools serve metrics too. */
#define METRICS_MASK (BPFKIT_OPT_METRICS | BPFKIT_OPT_HIST | BPFKIT_OPT_CHANNEL)

/* The options the kernel applies. */
#define FILTERS_MASK                                                 \
	(BPFKIT_OPT_FILTERS | BPFKIT_OPT_FAMILY | BPFKIT_OPT_PORTS | \
	 BPFKIT_OPT_DISK | BPFKIT_OPT_FAILED)

struct bpfkit_opts bpfkit_opts = {
	.filter = BPFKIT_FILTER_ALL,
	.channel = BPFKIT_CHANNEL_DEFAULTS,
	.cgroup_fd = -1,
	.metrics.max_series = BPFKIT_METRICS_DEFAULT_MAX_SERIES,
	.stacks.min_block_us = 1,
};

/* Every common option, with the BPFKIT_OPT_* bit that offers it (0: always). */
static const struct {
	unsigned int mask;
	struct argp_option opt;
} common_options[] = {
	{ FILTERS_MASK,
	  { NULL, 0, NULL, 0, "Filters (applied in the kernel):", 10 } },
	{ BPFKIT_OPT_PID,
	  { "pid", 'p', "PID", 0, "Trace this process only", 0 } },
	{ BPFKIT_OPT_UID,
	  { "uid", 'u', "UID|USER", 0, "Trace this user only", 0 } },
	{ BPFKIT_OPT_COMM,
	  { "comm", 'c', "NAME", 0, "Trace this command name only", 0 } },
	{ BPFKIT_OPT_CGROUP,
	  { "cgroup", OPT_CGROUP, "PATH", 0,
	    "Trace this cgroup v2 and the cgroups below it only", 0 } },
	/* Containers: with --cgroup, every tool that filters offers them. */
	{ BPFKIT_OPT_CGROUP,
	  { "container", OPT_CONTAINER, "ID|NAME", 0,
	    "Trace this container only (repeatable; waits for one to start)",
	    0 } },
	{ BPFKIT_OPT_CGROUP,
	  { "host-only", OPT_HOST_ONLY, NULL, 0,
	    "Trace what runs in no container only", 0 } },
	{ BPFKIT_OPT_FAMILY,
	  { "ipv4", '4', NULL, 0, "Trace IPv4 only (IPv4-mapped IPv6 too)",
	    0 } },
	{ BPFKIT_OPT_FAMILY, { "ipv6", '6', NULL, 0, "Trace IPv6 only", 0 } },
	{ BPFKIT_OPT_PORTS,
	  { "localport", 'L', "PORTS", 0,
	    "Trace connections on these local ports only (comma-separated)",
	    0 } },
	{ BPFKIT_OPT_PORTS,
	  { "remoteport", 'D', "PORTS", 0,
	    "Trace connections with these remote ports only (comma-separated)",
	    0 } },
	{ BPFKIT_OPT_DISK,
	  { "disk", OPT_DISK, "DISK", 0, "Trace this disk only (sda, loop0)",
	    0 } },
	{ BPFKIT_OPT_FAILED,
	  { "failed", 'x', NULL, 0, "Show failed calls only", 0 } },
	{ BPFKIT_OPT_JSON | BPFKIT_OPT_TIME,
	  { NULL, 0, NULL, 0, "Output:", 20 } },
	{ BPFKIT_OPT_JSON,
	  { "json", 'j', NULL, 0, "Print JSON Lines, one object per record",
	    0 } },
	{ BPFKIT_OPT_TIME,
	  { "time", 'T', NULL, 0, "Include a wall-clock time column", 0 } },
	{ BPFKIT_OPT_TIME,
	  { "timestamp", 't', NULL, 0, "Include seconds since start", 0 } },
	{ BPFKIT_OPT_TIME,
	  { "containers", OPT_CONTAINERS, NULL, 0,
	    "Include a CONTAINER column (name, else id; - for the host)", 0 } },
	{ BPFKIT_OPT_HIST, { NULL, 0, NULL, 0, "Histograms:", 25 } },
	{ BPFKIT_OPT_HIST,
	  { "interval", 'i', "SECONDS", 0,
	    "Print every SECONDS, resetting the histograms (same as INTERVAL)",
	    0 } },
	{ BPFKIT_OPT_INTERVAL,
	  { "interval", 'i', "SECONDS", 0,
	    "Print every SECONDS (same as INTERVAL)", 0 } },
	{ BPFKIT_OPT_HIST,
	  { "time", 'T', NULL, 0, "Print the time before each interval", 0 } },
	{ BPFKIT_OPT_HIST,
	  { "milliseconds", 'm', NULL, 0,
	    "Millisecond buckets (default microseconds)", 0 } },
	{ BPFKIT_OPT_HIST,
	  { "cumulative", OPT_CUMULATIVE, NULL, 0,
	    "Keep counting across intervals instead of resetting", 0 } },
	{ BPFKIT_OPT_HIST,
	  { "linear", OPT_LINEAR, "STEP", 0,
	    "Linear buckets STEP units wide instead of powers of two", 0 } },
	{ BPFKIT_OPT_TASK_HISTS,
	  { "pids", 'P', NULL, 0, "A histogram per process", 0 } },
	{ BPFKIT_OPT_TASK_HISTS,
	  { "tids", 'L', NULL, 0, "A histogram per thread", 0 } },
	{ BPFKIT_OPT_TASK_HISTS,
	  { "per-container", OPT_PER_CONTAINER, NULL, 0,
	    "A histogram per container (and one for the host)", 0 } },
	{ BPFKIT_OPT_TOTALS,
	  { "dist", 'D', NULL, 0, "Show histograms instead of totals", 0 } },
	{ BPFKIT_OPT_TOTALS, { "cpus", 'C', NULL, 0, "Per CPU", 0 } },
	{ BPFKIT_OPT_BLOCK_TIME, { NULL, 0, NULL, 0, "Blocked time:", 24 } },
	{ BPFKIT_OPT_BLOCK_TIME,
	  { "min-block-time", 'm', "US", 0,
	    "Count only blocks of at least US microseconds (default 1)", 0 } },
	{ BPFKIT_OPT_BLOCK_TIME,
	  { "max-block-time", 'M', "US", 0,
	    "Count only blocks of at most US microseconds", 0 } },
	{ BPFKIT_OPT_STACKS, { NULL, 0, NULL, 0, "Stacks:", 26 } },
	{ BPFKIT_OPT_STACKS,
	  { "user-stacks-only", 'U', NULL, 0,
	    "User stacks only (no kernel frames)", 0 } },
	{ BPFKIT_OPT_STACKS,
	  { "kernel-stacks-only", 'K', NULL, 0,
	    "Kernel stacks only (no user frames)", 0 } },
	{ BPFKIT_OPT_STACKS,
	  { "lines", 'L', NULL, 0, "Source file and line of user frames", 0 } },
	{ BPFKIT_OPT_STACKS,
	  { "top", OPT_TOP, "N", 0,
	    "Print the N functions most seen (innermost frames) instead of stacks",
	    0 } },
	{ BPFKIT_OPT_STACKS,
	  { "svg", OPT_SVG, "FILE", 0, "Write a flame graph to FILE too", 0 } },
	{ BPFKIT_OPT_CHANNEL, { NULL, 0, NULL, 0, "Event channel:", 30 } },
	{ BPFKIT_OPT_CHANNEL,
	  { "ringbuf", OPT_RINGBUF, NULL, 0,
	    "Use the BPF ring buffer (kernel 5.8+) instead of the perf buffer",
	    0 } },
	{ BPFKIT_OPT_CHANNEL,
	  { "buffer-pages", OPT_PAGES, "N", 0,
	    "Buffer size in pages per CPU, a power of two (default 64)", 0 } },
	{ BPFKIT_OPT_CHANNEL,
	  { "wakeup", OPT_WAKEUP, "N", 0,
	    "Wake the reader every N records (default 1024)", 0 } },
	{ BPFKIT_OPT_CHANNEL,
	  { "latency", OPT_LATENCY, "MS", 0,
	    "Longest delay before a record is printed (default 100)", 0 } },
	/* Overload control (overload.h): every event tool, no code of its own */
	{ BPFKIT_OPT_CHANNEL,
	  { NULL, 0, NULL, 0,
	    "Overload control (default: every event; what is left out is counted):",
	    31 } },
	{ BPFKIT_OPT_CHANNEL,
	  { "rate-limit", OPT_RATE_LIMIT, "N", 0,
	    "Send at most N events a second (in the kernel; the rest throttled)",
	    0 } },
	{ BPFKIT_OPT_CHANNEL,
	  { "rate-limit-by", OPT_RATE_LIMIT_BY, "KEY", 0,
	    "Apply --rate-limit to each pid, cgroup or comm instead", 0 } },
	{ BPFKIT_OPT_CHANNEL,
	  { "sample", OPT_SAMPLE, "N", 0,
	    "Keep the events of 1 process in N (whole processes)", 0 } },
	{ BPFKIT_OPT_CHANNEL,
	  { "sample-random", OPT_SAMPLE_RANDOM, NULL, 0,
	    "With --sample, keep 1 event in N instead, at random", 0 } },
	{ BPFKIT_OPT_CHANNEL,
	  { "max-cpu", OPT_MAX_CPU, "PERCENT", 0,
	    "Lower the event budget while the tool uses more CPU than this",
	    0 } },
	{ METRICS_MASK, { NULL, 0, NULL, 0, "Prometheus metrics:", 35 } },
	{ METRICS_MASK,
	  { "metrics", OPT_METRICS, "ADDR:PORT", 0,
	    "Serve GET /metrics on ADDR:PORT (:PORT: 127.0.0.1)", 0 } },
	{ METRICS_MASK,
	  { "textfile", OPT_TEXTFILE, "DIR", 0,
	    "Write DIR/bpfkit_TOOL.prom every interval (node_exporter)", 0 } },
	{ METRICS_MASK,
	  { "print", OPT_PRINT, NULL, 0,
	    "With metrics, print the usual output too", 0 } },
	{ METRICS_MASK,
	  { "metrics-labels", OPT_METRICS_LABELS, "LABELS", 0,
	    "Label per-process series with LABELS: pid, comm or pid,comm (default: neither)",
	    0 } },
	{ METRICS_MASK,
	  { "max-series", OPT_MAX_SERIES, "N", 0,
	    "Fold series past the N largest per metric into \"other\" (default 1000)",
	    0 } },
	{ 0, { NULL, 0, NULL, 0, "General:", 40 } },
	{ 0, { "duration", 'd', "SECONDS", 0, "Stop after SECONDS", 0 } },
	{ 0,
	  { "btf", OPT_BTF, "FILE", 0,
	    "Kernel BTF to use when the kernel has none", 0 } },
	{ 0,
	  { "drop-privileges", OPT_DROP_PRIVILEGES, "USER", 0,
	    "Once attached, run as USER with no capabilities", 0 } },
	{ 0,
	  { "test-map-entries", OPT_TEST_MAP_ENTRIES, "MAP=N", OPTION_HIDDEN,
	    "Tests only: size MAP to N entries (e.g. a 1-entry staging map)",
	    0 } },
	{ 0,
	  { "verbose", 'v', NULL, 0,
	    "Show libbpf's log and the start-up phase timings", 0 } },
	{ 0, { "help", 'h', NULL, 0, "Show this help", 0 } },
	{ 0, { "version", 'V', NULL, 0, "Show the version", 0 } },
};

#define MAX_OPTIONS 96

static const struct bpfkit_tool *cur_tool;
static bool error_reported; /* by a parser, in one line of its own */

int bpfkit_parse_ulong(const char *name, const char *arg, unsigned long min,
		       unsigned long max, unsigned long *out)
{
	unsigned long val;
	char *end;

	errno = 0;
	val = strtoul(arg, &end, 10);
	if (!*arg || *end || arg[0] == '-' || arg[0] == '+' || errno ||
	    val < min || val > max)
		return bpfkit_usage_error(
			"invalid %s '%s': expected a whole number from %lu to %lu",
			name, arg, min, max);
	*out = val;
	return 0;
}

int bpfkit_parse_ports(const char *name, const char *arg,
		       struct bpfkit_ports *ports)
{
	const char *p = arg;
	unsigned long port;
	char *end;

	ports->n = 0;
	do {
		errno = 0;
		port = strtoul(p, &end, 10);
		if (*p < '0' || *p > '9' || errno || port < 1 || port > 65535 ||
		    (*end && *end != ','))
			return bpfkit_usage_error(
				"invalid %s '%s': expected ports 1-65535 separated by commas, e.g. 80,443",
				name, arg);
		if (ports->n == BPFKIT_PORTS_MAX)
			return bpfkit_usage_error(
				"invalid %s '%s': at most %d ports", name, arg,
				BPFKIT_PORTS_MAX);
		ports->port[ports->n++] = port;
		p = end + 1;
	} while (*end);
	return 0;
}

/*
 * Look NAME up in /etc/passwd itself: getpwnam() would pull glibc's NSS
 * modules into static binaries, which break on hosts with another glibc.
 */
static int uid_of_user(const char *name, __u32 *uid)
{
	FILE *f = fopen("/etc/passwd", "re");
	struct passwd *pw;
	int err = -ENOENT;

	if (!f)
		return -errno;
	while ((pw = fgetpwent(f))) {
		if (!strcmp(pw->pw_name, name)) {
			*uid = pw->pw_uid;
			err = 0;
			break;
		}
	}
	fclose(f);
	return err;
}

int bpfkit_parse_uid(const char *name, const char *arg, __u32 *uid)
{
	unsigned long val;
	char *end;

	if (!*arg)
		return bpfkit_usage_error(
			"invalid %s '': expected a uid or user name", name);
	if (arg[0] >= '0' && arg[0] <= '9') {
		errno = 0;
		val = strtoul(arg, &end, 10);
		if (*end || errno || val >= BPFKIT_ANY_UID)
			return bpfkit_usage_error(
				"invalid %s '%s': expected a uid from 0 to %u or a user name",
				name, arg, BPFKIT_ANY_UID - 1);
		*uid = val;
		return 0;
	}
	if (uid_of_user(arg, uid))
		return bpfkit_usage_error(
			"invalid %s '%s': no such user in /etc/passwd (give the numeric uid)",
			name, arg);
	return 0;
}

int bpfkit_parse_elf(const char *name, const char *arg, const char **path)
{
	unsigned char magic[4];
	struct stat st;
	ssize_t n;
	int fd;

	if (!*arg)
		return bpfkit_usage_error(
			"invalid %s '': expected the path of a program or library",
			name);
	fd = open(arg, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return bpfkit_usage_error(
			"invalid %s '%s': %s; give the path of a program or library",
			name, arg, strerror(errno));
	n = fstat(fd, &st) ? -1 : S_ISREG(st.st_mode) ? read(fd, magic, 4) : -1;
	close(fd);
	if (n != 4 || memcmp(magic,
			     "\x7f"
			     "ELF",
			     4))
		return bpfkit_usage_error(
			"invalid %s '%s': not an ELF program or library; give the path of one",
			name, arg);
	*path = arg;
	return 0;
}

static int parse_pid(const char *arg, __u32 *pid)
{
	unsigned long val;
	int err;

	err = bpfkit_parse_ulong("-p/--pid", arg, 1, INT_MAX, &val);
	if (err)
		return err;
	if (kill(val, 0) && errno == ESRCH)
		return bpfkit_usage_error(
			"invalid -p/--pid '%s': no such process", arg);
	*pid = val;
	return 0;
}

static int parse_comm(const char *arg, char *comm)
{
	size_t len = strlen(arg);

	if (!len || len >= BPFKIT_COMM_LEN)
		return bpfkit_usage_error(
			"invalid -c/--comm '%s': expected 1 to %d characters (the kernel keeps %d)",
			arg, BPFKIT_COMM_LEN - 1, BPFKIT_COMM_LEN - 1);
	memcpy(comm, arg, len + 1);
	return 0;
}

static int parse_duration(const char *arg, double *out)
{
	char *end;
	double val;

	errno = 0;
	val = strtod(arg, &end);
	if (!*arg || *end || errno || !(val > 0) || val > 31536000)
		return bpfkit_usage_error(
			"invalid -d/--duration '%s': expected seconds, more than 0 and at most 31536000",
			arg);
	*out = val;
	return 0;
}

static int parse_interval(const char *name, const char *arg,
			  struct bpfkit_hist_opts *hist)
{
	if (hist->interval)
		return bpfkit_usage_error(
			"invalid %s '%s': the interval is already given; use either -i or INTERVAL",
			name, arg);
	return bpfkit_parse_ulong(name, arg, 1, 86400, &hist->interval);
}

/* [INTERVAL [COUNT]]: an interval, unless -i gave it, then a count. */
static int parse_hist_arg(const char *arg, struct bpfkit_hist_opts *hist)
{
	if (!hist->interval)
		return parse_interval("INTERVAL", arg, hist);
	if (hist->count)
		return bpfkit_usage_error(
			"unexpected argument '%s': expected at most [INTERVAL [COUNT]]; see '%s --help'",
			arg, bpfkit_opts.tool);
	return bpfkit_parse_ulong("COUNT", arg, 1, 1000000000, &hist->count);
}

static int parse_pages(const char *arg, unsigned int *pages)
{
	unsigned long val;
	int err;

	err = bpfkit_parse_ulong("--buffer-pages", arg, 1, 65536, &val);
	if (err)
		return err;
	if (val & (val - 1))
		return bpfkit_usage_error(
			"invalid --buffer-pages '%s': expected a power of two",
			arg);
	*pages = val;
	return 0;
}

/* The file must hold BTF that libbpf can read. */
static int parse_btf(const char *arg, const char **path)
{
	struct btf *btf;

	if (access(arg, R_OK))
		return bpfkit_usage_error("invalid --btf '%s': %s", arg,
					  strerror(errno));
	btf = btf__parse(arg, NULL);
	if (!btf)
		return bpfkit_usage_error(
			"invalid --btf '%s': not a BTF file (make one with 'make min-btf')",
			arg);
	btf__free(btf);
	*path = arg;
	return 0;
}

/*
 * --drop-privileges USER: a user name getpwnam() knows; not for tools that
 * name stack frames.
 */
static int parse_drop(const char *arg, struct bpfkit_drop_opts *drop)
{
	struct passwd *pw;

	if (cur_tool->options & (BPFKIT_OPT_STACKS | BPFKIT_OPT_FRAMES))
		return bpfkit_usage_error(
			"--drop-privileges does not fit %s: it names stack frames as it prints them, from /proc/kallsyms and other users' processes, which USER cannot read; run it without",
			bpfkit_opts.tool);
	errno = 0;
	pw = getpwnam(arg);
	if (!pw)
		return bpfkit_usage_error(
			"invalid --drop-privileges '%s': %s; give a user name from 'getent passwd', e.g. nobody",
			arg, errno ? strerror(errno) : "no such user");
	drop->user = arg;
	drop->uid = pw->pw_uid;
	drop->gid = pw->pw_gid;
	return 0;
}

static int parse_metrics(const char *arg, const char **listen)
{
	struct sockaddr_storage ss;
	unsigned int len;

	if (bpfkit_metrics_parse_listen(arg, &ss, &len))
		return bpfkit_usage_error(
			"invalid --metrics '%s': expected ADDR:PORT, such as 127.0.0.1:9435, [::1]:9435 or :9435 (loopback)",
			arg);
	*listen = arg;
	return 0;
}

static int parse_textfile(const char *arg, const char **dir)
{
	struct stat st;

	if (stat(arg, &st) || !S_ISDIR(st.st_mode) || access(arg, W_OK))
		return bpfkit_usage_error(
			"invalid --textfile '%s': %s; give a writable directory, such as node_exporter's --collector.textfile.directory",
			arg, errno ? strerror(errno) : "not a directory");
	*dir = arg;
	return 0;
}

/* --metrics-labels pid,comm: any of them, comma-separated. */
static int parse_labels(const char *arg, unsigned int *labels)
{
	const char *p = arg;
	size_t len;

	*labels = 0;
	do {
		len = strcspn(p, ",");
		if (len == 3 && !strncmp(p, "pid", 3))
			*labels |= BPFKIT_LABEL_PID;
		else if (len == 4 && !strncmp(p, "comm", 4))
			*labels |= BPFKIT_LABEL_COMM;
		else if (len == 9 && !strncmp(p, "container", 9))
			*labels |= BPFKIT_LABEL_CONTAINER;
		else
			return bpfkit_usage_error(
				"invalid --metrics-labels '%s': expected pid, comm, container or a list of them (pid,comm)",
				arg);
		p += len;
	} while (*p++ == ',');
	return 0;
}

/* --test-map-entries MAP=N: the test-only override of a map's size. */
static int parse_test_map(char *arg, struct bpfkit_map_size *size)
{
	char *eq = strchr(arg, '=');
	unsigned long val;
	int err;

	if (!eq || eq == arg)
		return bpfkit_usage_error(
			"invalid --test-map-entries '%s': expected MAP=N, e.g. execs=1",
			arg);
	err = bpfkit_parse_ulong("--test-map-entries", eq + 1, 1, 1 << 24,
				 &val);
	if (err)
		return err;
	*eq = '\0';
	size->map = arg;
	size->entries = val;
	return 0;
}

/* --svg FILE: a file that can be made or replaced, written at exit. */
static int parse_svg(const char *arg, const char **path)
{
	char *dir = strdup(arg), *slash;
	struct stat st;
	int err = 0;

	if (!dir)
		return ENOMEM;
	slash = strrchr(dir, '/');
	if (slash)
		slash[slash == dir] = '\0';
	if (!*arg || (!stat(arg, &st) && !S_ISREG(st.st_mode)))
		err = bpfkit_usage_error(
			"invalid --svg '%s': not a regular file; give the path of the SVG file to write",
			arg);
	else if (access(slash ? dir : ".", W_OK))
		err = bpfkit_usage_error(
			"invalid --svg '%s': %s: %s; give a path in a writable directory",
			arg, slash ? dir : ".", strerror(errno));
	free(dir);
	*path = arg;
	return err;
}

static int parse_stacks(int key, char *arg, struct bpfkit_stacks_opts *st)
{
	switch (key) {
	case 'U':
	case 'K':
		if ((key == 'U' && st->kernel_only) ||
		    (key == 'K' && st->user_only))
			return bpfkit_usage_error(
				"-U and -K are exclusive; give one of them, or neither for both stacks");
		st->user_only |= key == 'U';
		st->kernel_only |= key == 'K';
		return 0;
	case 'L':
		st->lines = true;
		return 0;
	case OPT_TOP:
		return bpfkit_parse_ulong("--top", arg, 1, 1000000, &st->top);
	case OPT_SVG:
		return parse_svg(arg, &st->svg);
	}
	return ARGP_ERR_UNKNOWN;
}

/* -P or -L (KEY): a histogram per process or thread, not both. */
static int parse_hist_by(int key, enum bpfkit_hist_by *by)
{
	if (*by != BPFKIT_HIST_ALL)
		return bpfkit_usage_error(
			"-P, -L and --per-container are exclusive; give one of them");
	*by = key == 'P' ? BPFKIT_HIST_PROCESS : BPFKIT_HIST_THREAD;
	if (key == OPT_PER_CONTAINER)
		*by = BPFKIT_HIST_CONTAINER;
	return 0;
}

/* -4 or -6 (KEY), which exclude each other. */
static int parse_family(int key, __u16 *family)
{
	__u16 want = key == '4' ? AF_INET : AF_INET6;

	if (*family && *family != want)
		return bpfkit_usage_error(
			"-4 and -6 exclude each other; give one (neither traces both)");
	*family = want;
	return 0;
}

static int parse_common(int key, char *arg, struct argp_state *state)
{
	struct bpfkit_opts *opts = &bpfkit_opts;
	unsigned long val;
	int err;

	switch (key) {
	case 'p':
		return parse_pid(arg, &opts->filter.pid);
	case 'u':
		return bpfkit_parse_uid("-u/--uid", arg, &opts->filter.uid);
	case 'c':
		return parse_comm(arg, opts->filter.comm);
	case OPT_CGROUP:
		return bpfkit_cgroup_open(arg, &opts->filter.cgroup_id,
					  &opts->cgroup_fd);
	case '4':
	case '6':
		return parse_family(key, &opts->net.family);
	case 'x':
		opts->failed_only = true;
		return 0;
	case OPT_DISK:
		return bpfkit_disk_dev("--disk", arg, &opts->disk) ? EINVAL : 0;
	case OPT_CONTAINERS:
		opts->containers.column = true;
		return 0;
	case OPT_CONTAINER:
		return bpfkit_container_opt(&opts->containers, arg) ? EINVAL :
								      0;
	case OPT_HOST_ONLY:
		opts->containers.host_only = true;
		return 0;
	case 'j':
		opts->output.json = true;
		return 0;
	case 'T':
		opts->output.wall_time = true;
		opts->hist.timestamp = true;
		return 0;
	case 't':
		opts->output.rel_time = true;
		return 0;
	case OPT_RINGBUF:
		opts->channel.transport = BPFKIT_RING_BUFFER;
		return 0;
	case OPT_PAGES:
		return parse_pages(arg, &opts->channel.pages);
	case OPT_WAKEUP:
		err = bpfkit_parse_ulong("--wakeup", arg, 1, 1000000, &val);
		opts->channel.wakeup = val;
		return err;
	case OPT_LATENCY:
		err = bpfkit_parse_ulong("--latency", arg, 1, 60000, &val);
		opts->channel.latency_ms = val;
		return err;
	case OPT_RATE_LIMIT:
		return bpfkit_parse_ulong("--rate-limit", arg, 1,
					  BPFKIT_MAX_RATE,
					  &opts->channel.overload.rate);
	case OPT_RATE_LIMIT_BY:
		return bpfkit_parse_rate_by(arg, &opts->channel.overload.by);
	case OPT_SAMPLE:
		return bpfkit_parse_ulong("--sample", arg, 2, 1000000,
					  &opts->channel.overload.sample);
	case OPT_SAMPLE_RANDOM:
		opts->channel.overload.sample_random = true;
		return 0;
	case OPT_MAX_CPU:
		return bpfkit_parse_ulong("--max-cpu", arg, 1, 100,
					  &opts->channel.overload.max_cpu);
	case 'i':
		return parse_interval("-i/--interval", arg, &opts->hist);
	case 'm':
		if (cur_tool->options & BPFKIT_OPT_BLOCK_TIME)
			return bpfkit_parse_ulong("-m/--min-block-time", arg, 1,
						  86400000000UL,
						  &opts->stacks.min_block_us);
		opts->hist.millis = true;
		return 0;
	case 'M':
		return bpfkit_parse_ulong("-M/--max-block-time", arg, 1,
					  86400000000UL,
					  &opts->stacks.max_block_us);
	case OPT_CUMULATIVE:
		opts->hist.cumulative = true;
		return 0;
	case OPT_LINEAR:
		return bpfkit_parse_ulong("--linear", arg, 1, 1000000,
					  &opts->hist.linear_step);
	case 'D':
		if (cur_tool->options & BPFKIT_OPT_PORTS)
			return bpfkit_parse_ports("-D/--remoteport", arg,
						  &opts->net.rports);
		opts->hist.dist = true;
		return 0;
	case 'C':
		opts->hist.per_cpu = true;
		return 0;
	case 'L':
		if (cur_tool->options & BPFKIT_OPT_PORTS)
			return bpfkit_parse_ports("-L/--localport", arg,
						  &opts->net.lports);
		if (cur_tool->options & BPFKIT_OPT_TASK_HISTS)
			return parse_hist_by(key, &opts->hist.by);
		return parse_stacks(key, arg, &opts->stacks);
	case 'P':
	case OPT_PER_CONTAINER:
		return parse_hist_by(key, &opts->hist.by);
	case 'U':
	case 'K':
	case OPT_TOP:
	case OPT_SVG:
		return parse_stacks(key, arg, &opts->stacks);
	case OPT_METRICS:
		return parse_metrics(arg, &opts->metrics.listen);
	case OPT_TEXTFILE:
		errno = 0;
		return parse_textfile(arg, &opts->metrics.textfile_dir);
	case OPT_PRINT:
		opts->metrics.print = true;
		return 0;
	case OPT_METRICS_LABELS:
		return parse_labels(arg, &opts->metrics.labels);
	case OPT_MAX_SERIES:
		return bpfkit_parse_ulong("--max-series", arg, 1, 1000000,
					  &opts->metrics.max_series);
	case 'd':
		return parse_duration(arg, &opts->duration);
	case OPT_BTF:
		return parse_btf(arg, &opts->btf_path);
	case OPT_DROP_PRIVILEGES:
		return parse_drop(arg, &opts->drop);
	case OPT_TEST_MAP_ENTRIES:
		return parse_test_map(arg, &opts->test_map);
	case 'v':
		opts->verbose = true;
		opts->stacks.verbose = true;
		return 0;
	case 'h':
		argp_help(state->root_argp, stdout, ARGP_HELP_STD_HELP,
			  (char *)opts->tool);
		exit(BPFKIT_EXIT_OK);
	case 'V':
		printf("%s (bpfkit %s)\n", opts->tool, BPFKIT_VERSION);
		exit(BPFKIT_EXIT_OK);
	}
	return ARGP_ERR_UNKNOWN;
}

/* Is KEY a common option this tool offers? Its own may reuse the key. */
static bool offers_common(const struct bpfkit_tool *tool, int key)
{
	size_t i;

	for (i = 0; i < sizeof(common_options) / sizeof(common_options[0]);
	     i++) {
		const struct argp_option *o = &common_options[i].opt;
		unsigned int mask = common_options[i].mask;

		if (o->key == key && o->name &&
		    (!mask || (mask & tool->options)))
			return true;
	}
	return false;
}

/* Name the argument getopt refused: unknown, or missing its value. */
static void report_bad_option(const struct argp_option *opts,
			      struct argp_state *state)
{
	const char *bad = state->argv[state->next - 1];
	const struct argp_option *o;

	for (o = opts; o->name || o->key || o->doc; o++) {
		bool is_long = bad[1] == '-' && o->name &&
			       !strcmp(bad + 2, o->name);
		bool is_short = bad[1] != '-' && o->key == bad[1] && !bad[2];

		if (o->arg && (is_long || is_short)) {
			bpfkit_usage_error("option '%s' needs a value (%s)",
					   bad, o->arg);
			return;
		}
	}
	bpfkit_usage_error("unknown option '%s'; see '%s --help'", bad,
			   bpfkit_opts.tool);
}

/*
 * Give each room its part of the options; the channel's goes at load, the
 * run's --drop-privileges at the run.
 */
static void hand_out(const struct bpfkit_opts *opts)
{
	bpfkit_setup_logging(opts->verbose);
	bpfkit_output_init(&opts->output);
	bpfkit_hist_init(&opts->hist);
	bpfkit_metrics_init(&opts->metrics);
	bpfkit_net_init(&opts->net);
	bpfkit_run_init(opts->duration);
	bpfkit_container_init(&opts->containers);
}

/*
 * The examples after '\v' in a tool's doc start with its name; run under
 * another one (installed as bpfkit-NAME), --help shows that name there.
 */
static char *help_filter(int key, const char *text, void *input)
{
	const char *name = cur_tool->name, *as = bpfkit_opts.tool;
	size_t len = strlen(name), size;
	const char *line, *eol;
	char *out;
	FILE *f;

	if (key != ARGP_KEY_HELP_POST_DOC || !text || !strcmp(name, as))
		return (char *)text;
	f = open_memstream(&out, &size);
	if (!f)
		return (char *)text;
	for (line = text; *line; line = *eol ? eol + 1 : eol) {
		eol = strchrnul(line, '\n');
		if (!strncmp(line, "  ", 2) && !strncmp(line + 2, name, len) &&
		    (line[2 + len] == ' ' || line + 2 + len == eol)) {
			fprintf(f, "  %s", as);
			line += 2 + len;
		}
		fprintf(f, "%.*s%s", (int)(eol - line), line, *eol ? "\n" : "");
	}
	fclose(f);
	return out;
}

/* The name the tool runs as, for messages: argv[0]'s last component. */
static const char *run_name(const struct bpfkit_tool *tool, char **argv)
{
	const char *base;

	if (!argv[0])
		return tool->name;
	base = strrchr(argv[0], '/');
	base = base ? base + 1 : argv[0];
	return *base ? base : tool->name;
}

static error_t parse_key(int key, char *arg, struct argp_state *state)
{
	const struct bpfkit_stacks_opts *st = &bpfkit_opts.stacks;
	const struct bpfkit_tool *tool = cur_tool;
	int err;

	if (key == ARGP_KEY_END && (tool->options & BPFKIT_OPT_CHANNEL) &&
	    bpfkit_overload_check(&bpfkit_opts.channel.overload))
		return EINVAL;
	if (key == ARGP_KEY_END && (tool->options & BPFKIT_OPT_BLOCK_TIME) &&
	    st->max_block_us && st->max_block_us < st->min_block_us)
		return bpfkit_usage_error(
			"-M/--max-block-time %lu is below -m/--min-block-time %lu; give a maximum at least the minimum",
			st->max_block_us, st->min_block_us);
	if (offers_common(tool, key)) {
		err = parse_common(key, arg, state);
		if (err != ARGP_ERR_UNKNOWN)
			return err;
	}
	if (tool->binary && key == tool->binary->key) {
		char name[64];

		snprintf(name, sizeof(name), "-%c/--%s", key,
			 tool->binary->name);
		return bpfkit_parse_elf(name, arg, tool->binary->path);
	}
	if (tool->counts && key == 'C') {
		bpfkit_opts.output.counts = true;
		return 0;
	}
	err = tool->own_parser ? tool->own_parser(key, arg, state) :
				 ARGP_ERR_UNKNOWN;
	if (err == ARGP_ERR_UNKNOWN && key == ARGP_KEY_ARG &&
	    (tool->options & (BPFKIT_OPT_HIST | BPFKIT_OPT_INTERVAL)))
		return parse_hist_arg(arg, &bpfkit_opts.hist);
	if (err == ARGP_ERR_UNKNOWN && key == ARGP_KEY_ARG)
		return bpfkit_usage_error(
			"unexpected argument '%s'; see '%s --help'", arg,
			bpfkit_opts.tool);
	return err;
}

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	error_t err;

	if (key == ARGP_KEY_ERROR) {
		if (!error_reported)
			report_bad_option(state->root_argp->options, state);
		return 0;
	}
	err = parse_key(key, arg, state);
	/* A parser's error is one it has reported, in a line of its own. */
	error_reported |= err && err != ARGP_ERR_UNKNOWN;
	return err;
}

void bpfkit_parse(const struct bpfkit_tool *tool, int argc, char **argv)
{
	static struct argp_option options[MAX_OPTIONS];
	const struct argp_option *own;
	struct argp argp = {
		.options = options,
		.parser = parse_opt,
		.args_doc = tool->args_doc,
		.doc = tool->doc,
		.help_filter = help_filter,
	};
	size_t i, n = 0;

	cur_tool = tool;
	bpfkit_opts.tool = argc > 0 ? run_name(tool, argv) : tool->name;
	bpfkit_set_tool_name(bpfkit_opts.tool);
	bpfkit_setup_logging(false);

	/* The tool's own options first, then the common ones it offers. */
	if (tool->binary)
		options[n++] = (struct argp_option){
			.name = tool->binary->name,
			.key = tool->binary->key,
			.arg = "FILE",
			.doc = tool->binary->doc,
		};
	for (own = tool->own_options;
	     own && (own->name || own->key || own->doc); own++)
		options[n++] = *own;
	if (tool->counts)
		options[n++] = (struct argp_option){
			.name = "count",
			.key = 'C',
			.doc = tool->counts,
		};
	for (i = 0; i < sizeof(common_options) / sizeof(common_options[0]);
	     i++) {
		unsigned int mask = common_options[i].mask;

		if (!mask || (mask & tool->options))
			options[n++] = common_options[i].opt;
	}

	if (argp_parse(&argp, argc, argv, ARGP_NO_ERRS | ARGP_NO_HELP, NULL,
		       NULL))
		exit(BPFKIT_EXIT_USAGE);
	bpfkit_opts.metrics.tool = tool->name;
	/* Counters never go back: with metrics, histograms are cumulative. */
	if (bpfkit_opts.metrics.listen || bpfkit_opts.metrics.textfile_dir)
		bpfkit_opts.hist.cumulative = true;
	/* --metrics-labels container: the task histograms per container. */
	if (bpfkit_opts.metrics.labels & BPFKIT_LABEL_CONTAINER) {
		if (!(tool->options & BPFKIT_OPT_TASK_HISTS) ||
		    bpfkit_opts.hist.by == BPFKIT_HIST_PROCESS ||
		    bpfkit_opts.hist.by == BPFKIT_HIST_THREAD) {
			bpfkit_usage_error(
				"--metrics-labels container goes with the task histograms of runqlat and cpudist, without -P or -L");
			exit(BPFKIT_EXIT_USAGE);
		}
		bpfkit_opts.hist.by = BPFKIT_HIST_CONTAINER;
		bpfkit_hist_init(&bpfkit_opts.hist);
	}
	/* --container, --host-only: the kernel asks user space, or knows. */
	if (bpfkit_opts.containers.nselect &&
	    bpfkit_opts.containers.host_only) {
		bpfkit_usage_error(
			"--container and --host-only exclude each other; give one");
		exit(BPFKIT_EXIT_USAGE);
	}
	if (bpfkit_opts.containers.nselect || bpfkit_opts.containers.host_only)
		bpfkit_opts.filter.containers =
			(tool->options & BPFKIT_OPT_CHANNEL) ?
				BPFKIT_CONTAINERS_ASK :
				BPFKIT_CONTAINERS_KNOWN;
	if (bpfkit_opts.metrics.print && !bpfkit_opts.metrics.listen &&
	    !bpfkit_opts.metrics.textfile_dir) {
		bpfkit_usage_error(
			"--print goes with --metrics or --textfile; give one of them, or drop --print");
		exit(BPFKIT_EXIT_USAGE);
	}
	hand_out(&bpfkit_opts);
}
