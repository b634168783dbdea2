// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * execsnoop: print every execve and execveat with its parent, result and
 * arguments, sent by the BPF side once the syscall returns.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "channel.h"
#include "cli.h"
#include "diag.h"
#include "output.h"
#include "run.h"
#include "setup.h"
#include "tracefs.h"
#include "execsnoop.h"
#include "execsnoop.skel.h"

enum {
	OPT_MAX_ARGS = 0x2000,
};

/* Column widths, for the header and every row. */
enum { UID_W = 6, COMM_W = 16, PID_W = 7, RET_W = 7 };

static struct {
	bool failed; /* -x */
	bool print_uid; /* -U */
	bool quote; /* -q */
	const char *line; /* -l */
	unsigned long max_args; /* --max-args */
} env = { .max_args = EXECSNOOP_DEFAULT_ARGS };

static const struct argp_option own_options[] = {
	{ "failed", 'x', NULL, 0, "Include failed execs, with the errno name",
	  0 },
	{ "print-uid", 'U', NULL, 0, "Include a UID column", 0 },
	{ "quote", 'q', NULL, 0, "Put \"quotes\" around each argument", 0 },
	{ "line", 'l', "TEXT", 0,
	  "Only execs with an argument containing TEXT (user space)", 0 },
	{ "max-args", OPT_MAX_ARGS, "N", 0,
	  "Keep at most N arguments, argv[0] included (default 20, max 60)",
	  0 },
	{ "name", 'n', "NAME", 0, "Same as -c (libbpf-tools' spelling)", 0 },
	{},
};

static error_t parse_own(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case 'x':
		env.failed = true;
		return 0;
	case 'U':
		env.print_uid = true;
		return 0;
	case 'q':
		env.quote = true;
		return 0;
	case 'l':
		if (!*arg)
			return bpfkit_usage_error(
				"invalid -l/--line '': expected some text");
		env.line = arg;
		return 0;
	case OPT_MAX_ARGS:
		return bpfkit_parse_ulong("--max-args", arg, 1,
					  EXECSNOOP_MAX_ARGS, &env.max_args);
	case 'n':
		/* Check it under its own name, then hand it on as -c. */
		if (!*arg || strlen(arg) >= BPFKIT_COMM_LEN)
			return bpfkit_usage_error(
				"invalid -n/--name '%s': expected 1 to %d characters",
				arg, BPFKIT_COMM_LEN - 1);
		return state->root_argp->parser('c', arg, state);
	}
	return ARGP_ERR_UNKNOWN;
}

static const struct bpfkit_tool tool = {
	.name = "execsnoop",
	.doc = "Trace execve and execveat: who ran what, with which arguments.\n"
	       "\v"
	       "Examples:\n"
	       "  execsnoop                  # every successful exec\n"
	       "  execsnoop -x               # failed execs too (RET: ENOENT...)\n"
	       "  execsnoop -U -T            # add UID and time columns\n"
	       "  execsnoop -c sh            # execs that run a program named sh\n"
	       "  execsnoop -l --force       # an argument contains \"--force\"\n"
	       "  execsnoop -q --max-args 60 # quoted, up to 60 arguments\n"
	       "  execsnoop -j | jq .args    # JSON Lines\n",
	.options = BPFKIT_OPT_EVENTS,
	.own_options = own_options,
	.own_parser = parse_own,
};

/* The argument strings of a record, bounded by what was received. */
struct args {
	const char *p, *end;
	unsigned long left; /* at most --max-args */
};

static void args_init(struct args *a, const struct execsnoop_event *e,
		      size_t size)
{
	size_t have = size - offsetof(struct execsnoop_event, args);

	a->p = e->args;
	a->end = e->args + (e->args_size < have ? e->args_size : have);
	a->left = env.max_args;
}

/* The next argument and its length, or NULL after the last. */
static const char *args_next(struct args *a, size_t *len)
{
	const char *s = a->p;

	if (!a->left || s >= a->end)
		return NULL;
	*len = strnlen(s, a->end - s);
	a->p = s + *len + 1;
	a->left--;
	return s;
}

/*
 * E's flags, with EXECSNOOP_MORE_ARGS also when it holds more than
 * --max-args arguments (all of them were read from the new image).
 */
static __u32 event_flags(const struct execsnoop_event *e, size_t size)
{
	struct args a;
	size_t len;

	args_init(&a, e, size);
	while (args_next(&a, &len))
		;
	return e->flags | (a.p < a.end ? EXECSNOOP_MORE_ARGS : 0);
}

/* Why a record is incomplete, for JSON "truncated". */
static const struct {
	__u32 flag;
	const char *reason;
} cut_reasons[] = {
	{ EXECSNOOP_PATH_UNREADABLE, "path-unreadable" },
	{ EXECSNOOP_ARGS_UNREADABLE, "args-unreadable" },
	{ EXECSNOOP_MORE_ARGS, "max-args" },
	{ EXECSNOOP_LONG_ARGS, "long-args" },
	{ EXECSNOOP_LONG_ARG, "long-arg" },
	{ EXECSNOOP_LONG_PATH, "long-path" },
};

/* "truncated": false, or its reasons as one string: "max-args,long-arg". */
static void json_truncated(struct bpfkit_json *j, __u32 flags)
{
	char buf[128];
	size_t i, n = 0;

	for (i = 0; i < sizeof(cut_reasons) / sizeof(cut_reasons[0]); i++)
		if (flags & cut_reasons[i].flag)
			n += snprintf(buf + n, sizeof(buf) - n, "%s%s",
				      n ? "," : "", cut_reasons[i].reason);
	if (n)
		bpfkit_json_str(j, "truncated", buf, n);
	else
		bpfkit_json_bool(j, "truncated", false);
}

/* -l: does the path or an argument contain the text? */
static bool line_matches(const struct execsnoop_event *e, size_t size)
{
	const char *s;
	struct args a;
	size_t len;

	if (!env.line)
		return true;
	if (memmem(e->path, strnlen(e->path, sizeof(e->path)), env.line,
		   strlen(env.line)))
		return true;
	args_init(&a, e, size);
	while ((s = args_next(&a, &len)))
		if (memmem(s, len, env.line, strlen(env.line)))
			return true;
	return false;
}

/* One word of ARGS: control bytes escaped; with -q, quoted. */
static void put_word(const char *s, size_t len, bool was_cut)
{
	putchar(' ');
	if (env.quote)
		putchar('"');
	bpfkit_col_escape(stdout, s, len, env.quote);
	if (was_cut)
		fputs("...", stdout);
	if (env.quote)
		putchar('"');
}

/* Was argument S, of length LEN, cut to EXECSNOOP_ARG_LEN - 1 bytes? */
static bool arg_cut(const struct execsnoop_event *e, size_t len)
{
	return (e->flags & EXECSNOOP_LONG_ARG) && len == EXECSNOOP_ARG_LEN - 1;
}

static void print_json(const struct execsnoop_event *e, size_t size)
{
	const char *name = strerrorname_np(-(long)e->ret);
	struct bpfkit_json j;
	const char *s;
	struct args a;
	size_t len;

	bpfkit_json_begin(&j, stdout, &e->rec);
	bpfkit_json_str(&j, "syscall",
			e->flags & EXECSNOOP_EXECVEAT ? "execveat" : "execve",
			16);
	bpfkit_json_int(&j, "pid", e->pid);
	bpfkit_json_int(&j, "tid", e->tid);
	bpfkit_json_int(&j, "ppid", e->ppid);
	bpfkit_json_int(&j, "uid", e->uid);
	bpfkit_json_str(&j, "comm", e->comm, sizeof(e->comm));
	bpfkit_json_int(&j, "ret", e->ret);
	if (e->ret)
		bpfkit_json_str(&j, "errno", name ? name : "unknown", 32);
	if (e->flags & EXECSNOOP_EXECVEAT)
		bpfkit_json_int(&j, "fd", e->fd);
	bpfkit_json_str(&j, "path", e->path, sizeof(e->path));
	bpfkit_json_bool(&j, "fd_path", e->flags & EXECSNOOP_FD_PATH);
	bpfkit_json_array_begin(&j, "args");
	args_init(&a, e, size);
	while ((s = args_next(&a, &len)))
		bpfkit_json_str(&j, NULL, s, len);
	bpfkit_json_array_end(&j);
	json_truncated(&j, event_flags(e, size));
	bpfkit_json_end(&j);
}

static void print_columns(const struct execsnoop_event *e, size_t size)
{
	const char *name = strerrorname_np(-(long)e->ret);
	__u32 flags = event_flags(e, size);
	char ret[16];
	const char *s;
	struct args a;
	size_t len;

	if (!e->ret)
		snprintf(ret, sizeof(ret), "0");
	else if (name)
		snprintf(ret, sizeof(ret), "%s", name);
	else
		snprintf(ret, sizeof(ret), "%d", e->ret);

	bpfkit_print_time(&e->rec);
	if (env.print_uid)
		printf("%-*u ", UID_W, e->uid);
	bpfkit_print_str(e->comm, sizeof(e->comm), COMM_W);
	printf("%-*u %-*u %-*s", PID_W, e->pid, PID_W, e->ppid, RET_W, ret);

	/* The path run first (argv[0] if it is empty), then argv[1..]. */
	args_init(&a, e, size);
	s = args_next(&a, &len);
	if (e->path[0])
		put_word(e->path, strnlen(e->path, sizeof(e->path)),
			 e->flags & EXECSNOOP_LONG_PATH);
	else if (s)
		put_word(s, len, arg_cut(e, len));
	while ((s = args_next(&a, &len)))
		put_word(s, len, arg_cut(e, len));
	if (flags & (EXECSNOOP_MORE_ARGS | EXECSNOOP_LONG_ARGS))
		fputs(" ...", stdout);
	if (flags & EXECSNOOP_PATH_UNREADABLE)
		fputs(" [path unreadable]", stdout);
	if (flags & EXECSNOOP_ARGS_UNREADABLE)
		fputs(" [args unreadable]", stdout);
	putchar('\n');
}

static enum bpfkit_verdict print_event(void *ctx, const void *data, size_t size)
{
	const struct execsnoop_event *e = data;

	if (size < offsetof(struct execsnoop_event, args))
		return BPFKIT_UNREADABLE;
	if (!line_matches(e, size))
		return BPFKIT_FILTERED;
	if (bpfkit_output_json())
		print_json(e, size);
	else
		print_columns(e, size);
	return BPFKIT_SHOWN;
}

int main(int argc, char **argv)
{
	struct bpfkit_channel *ch = NULL;
	struct execsnoop_bpf *skel = NULL;
	int err;

	/* Parse options; check privileges, tracefs and kernel BTF. */
	bpfkit_setup(&tool, argc, argv);

	/* Open the BPF object. */
	skel = execsnoop_bpf__open_opts(bpfkit_open_opts());
	if (!skel)
		return bpfkit_open_failed();

	/* Set how many arguments to keep and whether failures count. */
	skel->rodata->max_args = env.max_args;
	skel->rodata->include_failed = env.failed;

	/* Load and verify. */
	err = bpfkit_load(skel->skeleton);
	if (err)
		goto cleanup;

	/* Open the event channel, then attach to execve/execveat (one exit). */
	err = bpfkit_attach_syscalls(
		skel->skeleton,
		(const struct bpfkit_syscall_tp[]){
			{ skel->progs.enter_execve, skel->progs.exit_exec,
			  "execve" },
			{ skel->progs.enter_execveat, skel->progs.exit_exec,
			  "execveat" } },
		2, print_event, NULL, &ch);
	if (err)
		goto cleanup;

	/* Print the header (-U adds UID), then events until the end. */
	bpfkit_print_header("%-*s%-*s %-*s %-*s %-*s %s\n",
			    env.print_uid ? UID_W + 1 : 0,
			    env.print_uid ? "UID" : "", COMM_W, "PCOMM", PID_W,
			    "PID", PID_W, "PPID", RET_W, "RET", "ARGS");
	err = bpfkit_run(ch, NULL);

cleanup:
	bpfkit_channel_free(ch);
	execsnoop_bpf__destroy(skel);
	return bpfkit_exit_code(err);
}
