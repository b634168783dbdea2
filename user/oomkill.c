// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * oomkill: print every OOM kill: the victim's pid, comm, uid, memory and
 * oom_score_adj, and the task that ran the OOM killer.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "channel.h"
#include "cli.h"
#include "diag.h"
#include "kernel.h"
#include "output.h"
#include "run.h"
#include "setup.h"
#include "tracefs.h"
#include "oomkill.h"
#include "oomkill.skel.h"

/* Column widths, for the header and every row. */
enum { PID_W = 7, COMM_W = 15, UID_W = 7, KB_W = 10, ADJ_W = 7 };

/*
 * The common filters select by the task that ran the OOM killer (for a
 * cgroup's OOM, one of its tasks); no channel options, as kills come one
 * at a time.
 */
static const struct bpfkit_tool tool = {
	.name = "oomkill",
	.doc = "Trace OOM kills (oom:mark_victim): the victim's pid, comm, uid and memory, and who triggered it.\n"
	       "\v"
	       "Examples:\n"
	       "  oomkill                    # every OOM kill, as it happens\n"
	       "  oomkill -T                 # with wall-clock time\n"
	       "  oomkill -j                 # as JSON Lines\n"
	       "  oomkill --cgroup /sys/fs/cgroup/app   # kills that app's tasks triggered\n",
	.options = BPFKIT_OPT_FILTERS | BPFKIT_OPT_JSON | BPFKIT_OPT_TIME |
		   BPFKIT_OPT_METRICS,
	.tracepoints =
		(const struct bpfkit_tracepoint[]){
			{ "oom", "mark_victim", "it came in Linux 4.8" },
			{} },
};

static void print_json(const void *event)
{
	const struct oomkill_event *e = event;
	struct bpfkit_json j;

	bpfkit_json_begin(&j, stdout, &e->rec);
	bpfkit_json_int(&j, "pid", e->pid);
	if (e->known & OOMKILL_COMM)
		bpfkit_json_str(&j, "comm", e->comm, sizeof(e->comm));
	if (e->known & OOMKILL_UID)
		bpfkit_json_int(&j, "uid", e->uid);
	if (e->known & OOMKILL_MEM) {
		bpfkit_json_uint(&j, "total_vm_kb", e->total_vm_kb);
		bpfkit_json_uint(&j, "anon_rss_kb", e->anon_rss_kb);
		bpfkit_json_uint(&j, "file_rss_kb", e->file_rss_kb);
		bpfkit_json_uint(&j, "shmem_rss_kb", e->shmem_rss_kb);
	}
	if (e->known & OOMKILL_ADJ)
		bpfkit_json_int(&j, "oom_score_adj", e->oom_score_adj);
	bpfkit_json_bool(&j, "from_task", e->known & OOMKILL_FROM_TASK);
	bpfkit_json_int(&j, "trigger_pid", e->trigger_pid);
	bpfkit_json_int(&j, "trigger_tid", e->trigger_tid);
	bpfkit_json_str(&j, "trigger_comm", e->trigger_comm,
			sizeof(e->trigger_comm));
	bpfkit_json_end(&j);
}

static void print_row(const void *event)
{
	const struct oomkill_event *e = event;

	bpfkit_print_time(&e->rec);
	printf("%-*u ", PID_W, e->pid);
	bpfkit_print_str(e->known & OOMKILL_COMM ? e->comm : "-",
			 sizeof(e->comm), COMM_W);
	if (e->known & OOMKILL_UID)
		printf("%-*u ", UID_W, e->uid);
	else
		printf("%-*s ", UID_W, "-");
	if (e->known & OOMKILL_MEM)
		printf("%*llu %*llu ", KB_W, (unsigned long long)e->total_vm_kb,
		       KB_W,
		       (unsigned long long)(e->anon_rss_kb + e->file_rss_kb +
					    e->shmem_rss_kb));
	else
		printf("%*s %*s ", KB_W, "-", KB_W, "-");
	if (e->known & OOMKILL_ADJ)
		printf("%*d ", ADJ_W, e->oom_score_adj);
	else
		printf("%*s ", ADJ_W, "-");
	printf("%-*u ", PID_W, e->trigger_pid);
	bpfkit_col_escape(stdout, e->trigger_comm, sizeof(e->trigger_comm),
			  false);
	putchar('\n');
}

static struct bpfkit_printer printer = {
	.size = sizeof(struct oomkill_event),
	.text = print_row,
	.json = print_json,
};

/*
 * Does this kernel's oom:mark_victim record carry the victim's comm, uid,
 * memory and oom_score_adj (Linux 6.9 on, and stable backports), as the
 * BPF side's bpfkit_mark_victim_full() finds? Then the victim's task is
 * never read, and its SIGKILL need not be watched. Asked of libbpf's
 * parse of the kernel BTF (--btf's).
 */
static bool record_full(void)
{
	const struct btf *btf = bpfkit_kernel_btf(bpfkit_opts.btf_path);
	const struct btf_member *m;
	const struct btf_type *t;
	int id, i;

	id = btf ? btf__find_by_name_kind(btf, "trace_event_raw_mark_victim",
					  BTF_KIND_STRUCT) :
		   -ENOENT;
	if (id < 0)
		return false;
	t = btf__type_by_id(btf, id);
	for (i = 0, m = btf_members(t); i < btf_vlen(t); i++, m++)
		if (!strcmp(btf__name_by_offset(btf, m->name_off),
			    "__data_loc_comm"))
			return true;
	return false;
}

/* log2 of the page size in KiB: 2 for 4 KiB pages. */
static __u32 page_kb_shift(void)
{
	long kb = sysconf(_SC_PAGESIZE) / 1024;
	__u32 shift = 0;

	while (kb > 1) {
		kb >>= 1;
		shift++;
	}
	return shift;
}

int main(int argc, char **argv)
{
	struct oomkill_bpf *skel = NULL;
	struct bpfkit_channel *ch = NULL;
	int err;

	/* Parse options; check privileges, tracefs and kernel BTF. */
	bpfkit_setup(&tool, argc, argv);

	/* Open the BPF object. */
	skel = oomkill_bpf__open_opts(bpfkit_open_opts());
	if (!skel)
		return bpfkit_open_failed();

	/*
	 * Pages to kB; where the record lacks the victim's fields, they are
	 * read from its task: watch SIGKILLs to know which task that is.
	 */
	skel->rodata->page_kb_shift = page_kb_shift();
	if (record_full())
		bpf_program__set_autoload(skel->progs.signal_generate, false);

	/* Load and verify. */
	err = bpfkit_load(skel->skeleton);
	if (err)
		goto cleanup;

	/* Open the event channel, then attach to the OOM killer. */
	err = bpfkit_attach(skel->skeleton, bpfkit_print_event, &printer, &ch);
	if (err)
		goto cleanup;

	/* Print the header, then events until the end. */
	bpfkit_print_header("%-*s %-*s %-*s %*s %*s %*s %-*s TCOMM\n", PID_W,
			    "PID", COMM_W, "COMM", UID_W, "UID", KB_W,
			    "TOTAL_KB", KB_W, "RSS_KB", ADJ_W, "OOM_ADJ", PID_W,
			    "TPID");
	err = bpfkit_run(ch, NULL);

cleanup:
	bpfkit_channel_free(ch);
	oomkill_bpf__destroy(skel);
	return bpfkit_exit_code(err);
}
