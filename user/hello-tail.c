// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * hello-tail: report program executions and timer syscalls, dispatched by
 * tail calls: a raw tracepoint on every syscall entry jumps through a
 * program array indexed by syscall number, which this side fills.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include "channel.h"
#include "cli.h"
#include "diag.h"
#include "names.h"
#include "output.h"
#include "run.h"
#include "setup.h"
#include "hello-tail.h"
#include "hello-tail.skel.h"

#define OPT_ALL 0x100

/* Column widths, for the header and every row. */
enum { PID_W = 7, UID_W = 7, COMM_W = 16 };

static struct {
	bool all; /* --all */
} env;

static const char *const messages[] = {
	[HELLO_TAIL_EXEC] = "Executing a program",
	[HELLO_TAIL_TIMER_CREATE] = "Creating a timer",
	[HELLO_TAIL_TIMER_DELETE] = "Deleting a timer",
	[HELLO_TAIL_TIMER_OTHER] = "Some other timer operation",
	[HELLO_TAIL_OTHER] = "Another syscall",
};

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	if (key != OPT_ALL)
		return ARGP_ERR_UNKNOWN;
	env.all = true;
	return 0;
}

static const struct argp_option options[] = {
	{ "all", OPT_ALL, NULL, 0, "Also report every other syscall, by name",
	  0 },
	{},
};

static const struct bpfkit_tool tool = {
	.name = "hello-tail",
	.doc = "Report program executions and timer syscalls, dispatched by BPF tail calls.\n"
	       "\v"
	       "Examples:\n"
	       "  hello-tail                # execs and timer syscalls\n"
	       "  hello-tail --all -p 1234  # every syscall of process 1234\n",
	.options = BPFKIT_OPT_EVENTS,
	.own_options = options,
	.own_parser = parse_arg,
};

/* The syscall's name, or its number when this architecture has no name. */
static const char *syscall_name(long nr, char *buf, size_t size)
{
	const char *name = bpfkit_syscall_name(nr);

	if (name)
		return name;
	snprintf(buf, size, "%ld", nr);
	return buf;
}

static enum bpfkit_verdict print_event(void *ctx, const void *data, size_t size)
{
	const struct hello_tail_event *e = data;
	const char *message, *name;
	struct bpfkit_json j;
	char buf[24];

	if (size < sizeof(*e) || e->kind < HELLO_TAIL_EXEC ||
	    e->kind > HELLO_TAIL_OTHER)
		return BPFKIT_UNREADABLE;
	message = messages[e->kind];
	name = syscall_name(e->nr, buf, sizeof(buf));
	if (bpfkit_output_json()) {
		bpfkit_json_begin(&j, stdout, &e->rec);
		bpfkit_json_int(&j, "pid", e->pid);
		bpfkit_json_int(&j, "uid", e->uid);
		bpfkit_json_str(&j, "comm", e->comm, sizeof(e->comm));
		bpfkit_json_str(&j, "syscall", name, strlen(name));
		bpfkit_json_int(&j, "nr", e->nr);
		bpfkit_json_str(&j, "message", message, strlen(message));
		bpfkit_json_end(&j);
		return BPFKIT_SHOWN;
	}
	bpfkit_print_time(&e->rec);
	printf("%-*d %-*d ", PID_W, e->pid, UID_W, e->uid);
	bpfkit_print_str(e->comm, sizeof(e->comm), COMM_W);
	if (e->kind == HELLO_TAIL_OTHER)
		printf("%s: %s\n", message, name);
	else
		printf("%s\n", message);
	return BPFKIT_SHOWN;
}

/* The target program for syscall NAME, or NULL to leave it to dispatch. */
static struct bpf_program *target(struct hello_tail_bpf *skel, const char *name)
{
	if (!strcmp(name, "execve") || !strcmp(name, "execveat"))
		return skel->progs.hello_exec;
	if (!strcmp(name, "timer_create"))
		return skel->progs.hello_timer_create;
	if (!strcmp(name, "timer_delete"))
		return skel->progs.hello_timer_delete;
	if (!strncmp(name, "timer_", 6))
		return skel->progs.hello_timer_other;
	return NULL;
}

/* Put each handled syscall's program at its number in the program array. */
static int fill_programs(struct hello_tail_bpf *skel)
{
	int map_fd = bpf_map__fd(skel->maps.programs);
	struct bpf_program *prog;
	__u32 nr;
	int fd;

	for (nr = 0; nr < (__u32)bpfkit_syscall_count; nr++) {
		if (!bpfkit_syscall_table[nr])
			continue;
		prog = target(skel, bpfkit_syscall_table[nr]);
		fd = prog ? bpf_program__fd(prog) : -1;
		if (fd >= 0 && bpf_map_update_elem(map_fd, &nr, &fd, BPF_ANY))
			return -errno;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct hello_tail_bpf *skel = NULL;
	struct bpfkit_channel *ch = NULL;
	int err;

	/* Parse options; check privileges, tracefs and kernel BTF. */
	bpfkit_setup(&tool, argc, argv);

	/* Open the BPF object. */
	skel = hello_tail_bpf__open_opts(bpfkit_open_opts());
	if (!skel)
		return bpfkit_open_failed();

	/* Set --all, skip our own syscalls, size the array to the syscalls. */
	skel->rodata->report_all = env.all;
	skel->rodata->self_pid = getpid();
	err = bpf_map__set_max_entries(skel->maps.programs,
				       bpfkit_syscall_count);
	if (err) {
		bpfkit_fail("size the program array", err);
		goto cleanup;
	}

	/* Attach only the dispatcher: the targets run by tail call. */
	bpf_program__set_autoattach(skel->progs.hello_exec, false);
	bpf_program__set_autoattach(skel->progs.hello_timer_create, false);
	bpf_program__set_autoattach(skel->progs.hello_timer_delete, false);
	bpf_program__set_autoattach(skel->progs.hello_timer_other, false);

	/* Load and verify. */
	err = bpfkit_load(skel->skeleton);
	if (err)
		goto cleanup;

	/* Fill the program array before any syscall reaches the dispatcher. */
	err = fill_programs(skel);
	if (err) {
		bpfkit_fail("fill the program array", err);
		goto cleanup;
	}

	/* Open the event channel, then attach the dispatcher to sys_enter. */
	err = bpfkit_attach(skel->skeleton, print_event, NULL, &ch);
	if (err)
		goto cleanup;

	/* Print the header, then events until a signal or --duration. */
	bpfkit_print_header("%-*s %-*s %-*s %s\n", PID_W, "PID", UID_W, "UID",
			    COMM_W, "COMM", "MESSAGE");
	err = bpfkit_run(ch, NULL);

cleanup:
	bpfkit_channel_free(ch);
	hello_tail_bpf__destroy(skel);
	return bpfkit_exit_code(err);
}
