// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * opensnoop: print every open(2), openat(2) and openat2(2) with the process,
 * the new fd or the error, and the path.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include "channel.h"
#include "cli.h"
#include "diag.h"
#include "output.h"
#include "run.h"
#include "setup.h"
#include "tracefs.h"
#include "opensnoop.h"
#include "opensnoop.skel.h"

/* Column widths, for the header and every row. */
enum { PID_W = 7, COMM_W = 15, FD_W = 3, ERR_W = 7, FLAGS_W = 24 };

static struct {
	bool flags; /* -e */
	const char *name; /* -n: path substring */
} env;

static const struct argp_option options[] = {
	{ "extended", 'e', NULL, 0,
	  "Show the open flags, decoded (FLAGS column)", 0 },
	{ "name", 'n', "PATTERN", 0, "Show paths containing PATTERN only", 0 },
	{},
};

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case 'e':
		env.flags = true;
		return 0;
	case 'n':
		if (!*arg)
			return bpfkit_usage_error(
				"invalid -n/--name '': expected a path substring");
		env.name = arg;
		return 0;
	}
	return ARGP_ERR_UNKNOWN;
}

static const struct bpfkit_tool tool = {
	.name = "opensnoop",
	.doc = "Trace open(2), openat(2) and openat2(2): who opened what, and the fd or error.\n"
	       "\v"
	       "Examples:\n"
	       "  opensnoop                  # every open on the system\n"
	       "  opensnoop -x               # failed opens only\n"
	       "  opensnoop -p 181 -e        # process 181, with decoded flags\n"
	       "  opensnoop -n /etc/ -T      # paths containing /etc/, with time\n"
	       "  opensnoop -c nginx -j      # nginx's opens, as JSON Lines\n",
	.options = BPFKIT_OPT_EVENTS | BPFKIT_OPT_FAILED,
	.own_options = options,
	.own_parser = parse_arg,
};

static const char *const call_names[] = {
	[OPENSNOOP_OPEN] = "open",
	[OPENSNOOP_OPENAT] = "openat",
	[OPENSNOOP_OPENAT2] = "openat2",
};

/* The kernel's O_LARGEFILE: glibc defines it as 0 on 64-bit machines. */
#ifdef __aarch64__
#define KERNEL_O_LARGEFILE 0400000
#else
#define KERNEL_O_LARGEFILE 0100000
#endif

/* Flags beside the access mode, in the order strace prints them. */
static const struct {
	__u64 bit;
	const char *name;
} flag_names[] = {
	{ O_CREAT, "O_CREAT" },
	{ O_EXCL, "O_EXCL" },
	{ O_NOCTTY, "O_NOCTTY" },
	{ O_TRUNC, "O_TRUNC" },
	{ O_APPEND, "O_APPEND" },
	{ O_NONBLOCK, "O_NONBLOCK" },
	{ O_SYNC, "O_SYNC" },
	{ O_DSYNC, "O_DSYNC" },
	{ O_ASYNC, "O_ASYNC" },
	{ O_DIRECT, "O_DIRECT" },
	{ KERNEL_O_LARGEFILE, "O_LARGEFILE" },
	{ O_TMPFILE, "O_TMPFILE" },
	{ O_DIRECTORY, "O_DIRECTORY" },
	{ O_NOFOLLOW, "O_NOFOLLOW" },
	{ O_NOATIME, "O_NOATIME" },
	{ O_CLOEXEC, "O_CLOEXEC" },
	{ O_PATH, "O_PATH" },
};

/* Write FLAGS as "O_WRONLY|O_CREAT|..." with unknown bits in hex. */
static void decode_flags(__u64 flags, char *buf, size_t len)
{
	static const char *const modes[] = { "O_RDONLY", "O_WRONLY", "O_RDWR",
					     "O_ACCMODE" };
	size_t i, n;

	n = snprintf(buf, len, "%s", modes[flags & O_ACCMODE]);
	flags &= ~(__u64)O_ACCMODE;
	for (i = 0; i < sizeof(flag_names) / sizeof(flag_names[0]); i++) {
		/* O_SYNC and O_TMPFILE include another flag's bit. */
		if ((flags & flag_names[i].bit) != flag_names[i].bit)
			continue;
		flags &= ~flag_names[i].bit;
		if (n < len)
			n += snprintf(buf + n, len - n, "|%s",
				      flag_names[i].name);
	}
	if (flags && n < len)
		snprintf(buf + n, len - n, "|0x%llx",
			 (unsigned long long)flags);
}

static void print_json(const struct opensnoop_event *e, size_t path_len,
		       const char *flags)
{
	struct bpfkit_json j;

	bpfkit_json_begin(&j, stdout, &e->rec);
	bpfkit_json_task(&j, e->pid, e->tid, e->uid, e->comm);
	bpfkit_json_str(
		&j, "syscall",
		e->call <= OPENSNOOP_OPENAT2 ? call_names[e->call] : "?", 8);
	bpfkit_json_int(&j, "fd", e->ret < 0 ? -1 : e->ret);
	bpfkit_json_int(&j, "errno", e->ret < 0 ? -(long)e->ret : 0);
	if (e->ret < 0)
		bpfkit_json_str(&j, "error",
				strerrorname_np(-(long)e->ret) ?: "?", 32);
	bpfkit_json_uint(&j, "flags", e->flags);
	if (flags)
		bpfkit_json_str(&j, "flag_names", flags, strlen(flags));
	if (e->flags & (O_CREAT | __O_TMPFILE))
		bpfkit_json_uint(&j, "mode", e->mode);
	bpfkit_json_str(&j, "path", e->path, path_len);
	bpfkit_json_end(&j);
}

static enum bpfkit_verdict print_event(void *ctx, const void *data, size_t size)
{
	const size_t head = offsetof(struct opensnoop_event, path);
	const struct opensnoop_event *e = data;
	size_t path_len;
	char flags[256], err[16];

	/* Accept a header and any part of the path; perf may pad the end. */
	if (size <= head)
		return BPFKIT_UNREADABLE;
	path_len = size - head < OPENSNOOP_PATH_MAX ? size - head :
						      OPENSNOOP_PATH_MAX;
	path_len = strnlen(e->path, path_len);
	if (env.name && !memmem(e->path, path_len, env.name, strlen(env.name)))
		return BPFKIT_FILTERED;
	if (env.flags)
		decode_flags(e->flags, flags, sizeof(flags));
	if (bpfkit_output_json()) {
		print_json(e, path_len, env.flags ? flags : NULL);
		return BPFKIT_SHOWN;
	}
	snprintf(err, sizeof(err), "%s",
		 e->ret >= 0			? "0" :
		 strerrorname_np(-(long)e->ret) ?:
						  "?");
	bpfkit_print_time(&e->rec);
	printf("%-*u ", PID_W, e->pid);
	bpfkit_print_str(e->comm, sizeof(e->comm), COMM_W);
	printf("%*d %-*s ", FD_W, e->ret < 0 ? -1 : e->ret, ERR_W, err);
	if (env.flags)
		printf("%-*s ", FLAGS_W, flags);
	bpfkit_col_escape(stdout, e->path, path_len, false);
	putchar('\n');
	return BPFKIT_SHOWN;
}

/* The opens: each one's enter program, and the exit program they share. */
enum { NR_OPENS = 3 };

static void open_calls(struct opensnoop_bpf *skel,
		       struct bpfkit_syscall_tp calls[NR_OPENS])
{
	const struct bpfkit_syscall_tp c[NR_OPENS] = {
		{ skel->progs.open_enter, skel->progs.open_exit, "open" },
		{ skel->progs.openat_enter, skel->progs.open_exit, "openat" },
		{ skel->progs.openat2_enter, skel->progs.open_exit, "openat2" },
	};

	memcpy(calls, c, sizeof(c));
}

int main(int argc, char **argv)
{
	struct bpfkit_syscall_tp opens[NR_OPENS];
	struct opensnoop_bpf *skel = NULL;
	struct bpfkit_channel *ch = NULL;
	int err;

	/* Parse options; check privileges, tracefs and kernel BTF. */
	bpfkit_setup(&tool, argc, argv);

	/* Open the BPF object. */
	skel = opensnoop_bpf__open_opts(bpfkit_open_opts());
	if (!skel)
		return bpfkit_open_failed();

	/* Set our own filter and keep the tracepoints this kernel has. */
	skel->rodata->failed_only = bpfkit_opts.failed_only;
	open_calls(skel, opens);
	err = bpfkit_syscall_tps_autoload(opens, NR_OPENS,
					  "sys_enter_open* tracepoints");
	if (err)
		goto cleanup;

	/* Load and verify. */
	err = bpfkit_load(skel->skeleton);
	if (err)
		goto cleanup;

	/* Open the event channel, then attach to the open syscalls. */
	err = bpfkit_attach_syscalls(skel->skeleton, opens, NR_OPENS,
				     print_event, NULL, &ch);
	if (err)
		goto cleanup;

	/* Print the header (-e adds FLAGS), then events until the end. */
	bpfkit_print_header("%-*s %-*s %*s %-*s %-*sPATH\n", PID_W, "PID",
			    COMM_W, "COMM", FD_W, "FD", ERR_W, "ERR",
			    env.flags ? FLAGS_W + 1 : 0,
			    env.flags ? "FLAGS" : "");
	err = bpfkit_run(ch, NULL);

cleanup:
	bpfkit_channel_free(ch);
	opensnoop_bpf__destroy(skel);
	return bpfkit_exit_code(err);
}
