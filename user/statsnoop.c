// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * statsnoop: print every stat(2), lstat(2), fstatat(2) and statx(2) with the
 * process, the result and the path.
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
#include "statsnoop.h"
#include "statsnoop.skel.h"

/* Column widths, for the header and every row. */
enum { PID_W = 7, COMM_W = 15, RET_W = 3, ERR_W = 7, CALL_W = 10 };

static const struct bpfkit_tool tool = {
	.name = "statsnoop",
	.doc = "Trace stat(2), lstat(2), fstatat(2) and statx(2): who looked up which path, and the result.\n"
	       "\v"
	       "Examples:\n"
	       "  statsnoop                  # every stat-family call on the system\n"
	       "  statsnoop -x               # failed calls only\n"
	       "  statsnoop -p 181 -T        # process 181, with time\n"
	       "  statsnoop -c make -j       # make's calls, as JSON Lines\n",
	.options = BPFKIT_OPT_EVENTS | BPFKIT_OPT_FAILED,
};

static const char *const call_names[STATSNOOP_CALLS] = {
	[STATSNOOP_STAT] = "stat",
	[STATSNOOP_LSTAT] = "lstat",
	[STATSNOOP_FSTATAT] = "fstatat",
	[STATSNOOP_STATX] = "statx",
};

static const char *call_name(__u32 call)
{
	return call < STATSNOOP_CALLS ? call_names[call] : "?";
}

static const char *error_name(__s32 ret)
{
	return ret >= 0 ? "0" : strerrorname_np(-(long)ret) ?: "?";
}

static void print_json(const struct statsnoop_event *e, size_t path_len)
{
	struct bpfkit_json j;

	bpfkit_json_begin(&j, stdout, &e->rec);
	bpfkit_json_task(&j, e->pid, e->tid, e->uid, e->comm);
	bpfkit_json_str(&j, "syscall", call_name(e->call), CALL_W);
	bpfkit_json_int(&j, "ret", e->ret < 0 ? -1 : e->ret);
	bpfkit_json_int(&j, "errno", e->ret < 0 ? -(long)e->ret : 0);
	if (e->ret < 0)
		bpfkit_json_str(&j, "error", error_name(e->ret), 32);
	if (e->dfd != AT_FDCWD)
		bpfkit_json_int(&j, "dfd", e->dfd);
	bpfkit_json_uint(&j, "flags", e->flags);
	bpfkit_json_str(&j, "path", e->path, path_len);
	bpfkit_json_end(&j);
}

static enum bpfkit_verdict print_event(void *ctx, const void *data, size_t size)
{
	const size_t head = offsetof(struct statsnoop_event, path);
	const struct statsnoop_event *e = data;
	size_t path_len;

	/* Accept a header and any part of the path; perf may pad the end. */
	if (size <= head)
		return BPFKIT_UNREADABLE;
	path_len = size - head < STATSNOOP_PATH_MAX ? size - head :
						      STATSNOOP_PATH_MAX;
	path_len = strnlen(e->path, path_len);
	if (bpfkit_output_json()) {
		print_json(e, path_len);
		return BPFKIT_SHOWN;
	}
	bpfkit_print_time(&e->rec);
	printf("%-*u ", PID_W, e->pid);
	bpfkit_print_str(e->comm, sizeof(e->comm), COMM_W);
	printf("%*d %-*s %-*s ", RET_W, e->ret < 0 ? -1 : e->ret, ERR_W,
	       error_name(e->ret), CALL_W, call_name(e->call));
	/* An empty path with AT_EMPTY_PATH is fstat(2) by another name. */
	if (!path_len && (e->flags & AT_EMPTY_PATH))
		printf("(fd %d)", e->dfd);
	else
		bpfkit_col_escape(stdout, e->path, path_len, false);
	putchar('\n');
	return BPFKIT_SHOWN;
}

/* The stat calls: each one's enter program, and the exit they share. */
enum { NR_STATS = 7 };

static void stat_calls(struct statsnoop_bpf *skel,
		       struct bpfkit_syscall_tp calls[NR_STATS])
{
	const struct bpfkit_syscall_tp c[NR_STATS] = {
		{ skel->progs.newstat_enter, skel->progs.stat_exit, "newstat" },
		{ skel->progs.stat_enter, skel->progs.stat_exit, "stat" },
		{ skel->progs.newlstat_enter, skel->progs.stat_exit,
		  "newlstat" },
		{ skel->progs.lstat_enter, skel->progs.stat_exit, "lstat" },
		{ skel->progs.newfstatat_enter, skel->progs.stat_exit,
		  "newfstatat" },
		{ skel->progs.fstatat64_enter, skel->progs.stat_exit,
		  "fstatat64" },
		{ skel->progs.statx_enter, skel->progs.stat_exit, "statx" },
	};

	memcpy(calls, c, sizeof(c));
}

int main(int argc, char **argv)
{
	struct bpfkit_syscall_tp stats[NR_STATS];
	struct statsnoop_bpf *skel = NULL;
	struct bpfkit_channel *ch = NULL;
	int err;

	/* Parse options; check privileges, tracefs and kernel BTF. */
	bpfkit_setup(&tool, argc, argv);

	/* Open the BPF object. */
	skel = statsnoop_bpf__open_opts(bpfkit_open_opts());
	if (!skel)
		return bpfkit_open_failed();

	/* Set our own filter and keep the tracepoints this kernel has. */
	skel->rodata->failed_only = bpfkit_opts.failed_only;
	stat_calls(skel, stats);
	err = bpfkit_syscall_tps_autoload(stats, NR_STATS,
					  "sys_enter_*stat* tracepoints");
	if (err)
		goto cleanup;

	/* Load and verify. */
	err = bpfkit_load(skel->skeleton);
	if (err)
		goto cleanup;

	/* Open the event channel, then attach to the stat syscalls. */
	err = bpfkit_attach_syscalls(skel->skeleton, stats, NR_STATS,
				     print_event, NULL, &ch);
	if (err)
		goto cleanup;

	/* Print the header, then events until the end. */
	bpfkit_print_header("%-*s %-*s %*s %-*s %-*s PATH\n", PID_W, "PID",
			    COMM_W, "COMM", RET_W, "RET", ERR_W, "ERR", CALL_W,
			    "CALL");
	err = bpfkit_run(ch, NULL);

cleanup:
	bpfkit_channel_free(ch);
	statsnoop_bpf__destroy(skel);
	return bpfkit_exit_code(err);
}
