// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * syncsnoop: print every sync(2), fsync(2), fdatasync(2), syncfs(2),
 * msync(2) and sync_file_range(2) with the process, the result and the
 * time it took.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "channel.h"
#include "cli.h"
#include "diag.h"
#include "output.h"
#include "run.h"
#include "setup.h"
#include "tracefs.h"
#include "syncsnoop.h"
#include "syncsnoop.skel.h"

/* Column widths, for the header and every row. */
enum { CALL_W = 15, ARG_W = 14, RET_W = 7, LAT_W = 12 };

static const struct bpfkit_tool tool = {
	.name = "syncsnoop",
	.doc = "Trace sync(2), fsync(2), fdatasync(2), syncfs(2), msync(2) and sync_file_range(2), with their latency.\n"
	       "\v"
	       "Examples:\n"
	       "  syncsnoop              # every sync call on the system\n"
	       "  syncsnoop -p 181 -T    # process 181, with time\n"
	       "  syncsnoop -c postgres -j  # postgres's, as JSON Lines\n",
	.options = BPFKIT_OPT_EVENTS,
};

static const char *const call_names[SYNCSNOOP_CALLS] = {
	[SYNCSNOOP_SYNC] = "sync",
	[SYNCSNOOP_FSYNC] = "fsync",
	[SYNCSNOOP_FDATASYNC] = "fdatasync",
	[SYNCSNOOP_SYNCFS] = "syncfs",
	[SYNCSNOOP_MSYNC] = "msync",
	[SYNCSNOOP_SYNC_FILE_RANGE] = "sync_file_range",
};

static const char *call_name(__u32 call)
{
	return call < SYNCSNOOP_CALLS ? call_names[call] : "?";
}

static const char *error_name(__s32 ret)
{
	return ret >= 0 ? "0" : strerrorname_np(-(long)ret) ?: "?";
}

static void print_json(const struct syncsnoop_event *e)
{
	struct bpfkit_json j;

	bpfkit_json_begin(&j, stdout, &e->rec);
	bpfkit_json_task(&j, e->pid, e->tid, e->uid, e->comm);
	bpfkit_json_str(&j, "call", call_name(e->call), CALL_W);
	if (e->call == SYNCSNOOP_MSYNC)
		bpfkit_json_uint(&j, "addr", e->arg);
	else if (e->call != SYNCSNOOP_SYNC)
		bpfkit_json_int(&j, "fd", (int)e->arg);
	bpfkit_json_int(&j, "ret", e->ret < 0 ? -1 : e->ret);
	bpfkit_json_int(&j, "errno", e->ret < 0 ? -(long)e->ret : 0);
	bpfkit_json_uint(&j, "latency_ns", e->latency_ns);
	bpfkit_json_end(&j);
}

static enum bpfkit_verdict print_event(void *ctx, const void *data, size_t size)
{
	const struct syncsnoop_event *e = data;
	char arg[32];

	if (size < sizeof(*e))
		return BPFKIT_UNREADABLE;
	if (bpfkit_output_json()) {
		print_json(e);
		return BPFKIT_SHOWN;
	}
	if (e->call == SYNCSNOOP_MSYNC)
		snprintf(arg, sizeof(arg), "0x%llx",
			 (unsigned long long)e->arg);
	else if (e->call == SYNCSNOOP_SYNC)
		snprintf(arg, sizeof(arg), "-");
	else
		snprintf(arg, sizeof(arg), "%d", (int)e->arg);
	bpfkit_print_time(&e->rec);
	bpfkit_print_task(e->pid, e->comm);
	printf("%-*s %*s %*s %*.3f\n", CALL_W, call_name(e->call), ARG_W, arg,
	       RET_W, error_name(e->ret), LAT_W, e->latency_ns / 1e6);
	return BPFKIT_SHOWN;
}

/* The sync calls: each one's enter program, and the exit they share. */
enum { NR_CALLS = 6 };

static void sync_calls(struct syncsnoop_bpf *skel,
		       struct bpfkit_syscall_tp calls[NR_CALLS])
{
	const struct bpfkit_syscall_tp c[NR_CALLS] = {
		{ skel->progs.sync_enter, skel->progs.sync_exit, "sync" },
		{ skel->progs.fsync_enter, skel->progs.sync_exit, "fsync" },
		{ skel->progs.fdatasync_enter, skel->progs.sync_exit,
		  "fdatasync" },
		{ skel->progs.syncfs_enter, skel->progs.sync_exit, "syncfs" },
		{ skel->progs.msync_enter, skel->progs.sync_exit, "msync" },
		{ skel->progs.sync_file_range_enter, skel->progs.sync_exit,
		  "sync_file_range" },
	};

	memcpy(calls, c, sizeof(c));
}

int main(int argc, char **argv)
{
	struct bpfkit_syscall_tp calls[NR_CALLS];
	struct syncsnoop_bpf *skel = NULL;
	struct bpfkit_channel *ch = NULL;
	int err;

	/* Parse options; check privileges, tracefs and kernel BTF. */
	bpfkit_setup(&tool, argc, argv);

	/* Open the BPF object. */
	skel = syncsnoop_bpf__open_opts(bpfkit_open_opts());
	if (!skel)
		return bpfkit_open_failed();

	/* Keep the tracepoints this kernel has. */
	sync_calls(skel, calls);
	err = bpfkit_syscall_tps_autoload(
		calls, NR_CALLS,
		"sys_enter_sync and the other sync calls' tracepoints");
	if (err)
		goto cleanup;

	/* Load and verify. */
	err = bpfkit_load(skel->skeleton);
	if (err)
		goto cleanup;

	/* Open the event channel, then attach to the sync syscalls. */
	err = bpfkit_attach_syscalls(skel->skeleton, calls, NR_CALLS,
				     print_event, NULL, &ch);
	if (err)
		goto cleanup;

	/* Print the header, then events until the end. */
	bpfkit_print_header("%-*s %-*s %-*s %*s %*s %*s\n", BPFKIT_PID_W, "PID",
			    BPFKIT_COMM_W, "COMM", CALL_W, "CALL", ARG_W,
			    "FD/ADDR", RET_W, "ERR", LAT_W, "LAT(ms)");
	err = bpfkit_run(ch, NULL);

cleanup:
	bpfkit_channel_free(ch);
	syncsnoop_bpf__destroy(skel);
	return bpfkit_exit_code(err);
}
