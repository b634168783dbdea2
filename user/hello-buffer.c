// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * hello-buffer: print "<pid> <uid> <command> <message>" for every execve,
 * sent by the BPF side through the event channel.
 */
#include <stdio.h>
#include <errno.h>
#include "channel.h"
#include "cli.h"
#include "diag.h"
#include "output.h"
#include "run.h"
#include "hello-buffer.h"
#include "hello-buffer.skel.h"

static const struct bpfkit_tool tool = {
	.name = "hello-buffer",
	.doc = "Print pid, uid, command and a greeting for every execve.\n"
	       "\v"
	       "Examples:\n"
	       "  hello-buffer               # every execve on the system\n"
	       "  hello-buffer -u 1000 -j    # user 1000's, as JSON Lines\n",
	.options = BPFKIT_OPT_EVENTS,
};

static void print_event(void *ctx, const void *data, size_t size)
{
	const struct data_t *d = data;
	struct bpfkit_json j;

	if (size < sizeof(*d))
		return;
	if (bpfkit_env.json) {
		bpfkit_json_begin(&j, stdout);
		bpfkit_json_int(&j, "pid", d->pid);
		bpfkit_json_int(&j, "uid", d->uid);
		bpfkit_json_str(&j, "command", d->command, sizeof(d->command));
		bpfkit_json_str(&j, "message", d->message, sizeof(d->message));
		bpfkit_json_end(&j);
		return;
	}
	bpfkit_print_time();
	printf("%d %d %.16s %.12s\n", d->pid, d->uid, d->command, d->message);
}

int main(int argc, char **argv)
{
	struct hello_buffer_bpf *skel = NULL;
	struct bpfkit_channel *ch = NULL;
	int err;

	/* Parse options; check privileges and kernel BTF. */
	bpfkit_parse(&tool, argc, argv);
	err = bpfkit_preflight();
	if (err)
		return bpfkit_exit_code(err);

	/* Open the BPF object. */
	skel = hello_buffer_bpf__open_opts(bpfkit_open_opts());
	if (!skel) {
		err = -errno;
		bpfkit_fail("open BPF object", err);
		goto cleanup;
	}

	/* Write filters and channel settings to .rodata, pick the transport. */
	err = bpfkit_channel_prepare(skel->obj, &skel->rodata->bpfkit_cfg);
	if (err) {
		bpfkit_fail("set up the event channel", err);
		goto cleanup;
	}

	/* Load and verify the program. */
	err = hello_buffer_bpf__load(skel);
	if (err) {
		bpfkit_fail("load BPF program", err);
		goto cleanup;
	}

	/* Open the event channel first, so no event misses its reader. */
	ch = bpfkit_channel_open(skel->obj, print_event, NULL);
	if (!ch) {
		err = -errno;
		bpfkit_fail("open the event channel", err);
		goto cleanup;
	}

	/* Attach to the execve tracepoint. */
	err = hello_buffer_bpf__attach(skel);
	if (err) {
		bpfkit_fail("attach to syscalls:sys_enter_execve", err);
		goto cleanup;
	}

	/* Print events until a signal or --duration. */
	err = bpfkit_run(ch, NULL);

cleanup:
	bpfkit_channel_free(ch);
	hello_buffer_bpf__destroy(skel);
	return bpfkit_exit_code(err);
}
