// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * hello-buffer: print "<pid> <uid> <command> Hello World" for every execve,
 * sent by the BPF side through the perf buffer (Learning eBPF, chapter 2).
 * Its exercises are tools of their own: hello-config (a greeting per user,
 * or by pid parity) and hello-attach (chapter 7: six attach types).
 */
#include <errno.h>
#include "channel.h"
#include "cli.h"
#include "diag.h"
#include "output.h"
#include "run.h"
#include "setup.h"
#include "hello-buffer.h"
#include "hello-buffer.skel.h"

static const struct bpfkit_tool tool = {
	.name = "hello-buffer",
	.doc = "Print pid, uid, command and \"Hello World\" for every execve.\n"
	       "\v"
	       "Examples:\n"
	       "  hello-buffer               # every execve on the system\n"
	       "  hello-buffer -u 1000 -j    # user 1000's, as JSON Lines\n"
	       "  hello-buffer --ringbuf -T  # through the ring buffer, timed\n",
	.options = BPFKIT_OPT_EVENTS,
};

/* Called for each record the perf buffer delivers: print it as one line. */
static enum bpfkit_verdict print_event(void *ctx, const void *data, size_t size)
{
	return hello_buffer_print(data, size);
}

int main(int argc, char **argv)
{
	struct hello_buffer_bpf *skel = NULL;
	struct bpfkit_channel *ch = NULL;
	int err;

	/* Parse options; check privileges, tracefs and kernel BTF. */
	bpfkit_setup(&tool, argc, argv);

	/* Open the BPF object. */
	skel = hello_buffer_bpf__open_opts(bpfkit_open_opts());
	if (!skel)
		return bpfkit_open_failed();

	/* Write filters and buffer settings to .rodata; load and verify. */
	err = bpfkit_load(skel->skeleton);
	if (err)
		goto cleanup;

	/* Open the perf buffer, then attach to the execve tracepoint. */
	err = bpfkit_attach(skel->skeleton, print_event, NULL, &ch);
	if (err)
		goto cleanup;

	/* Poll the buffer, printing events, until a signal or --duration. */
	if (bpfkit_output_timed()) /* the seed's lines have no header */
		bpfkit_print_header("PID UID COMMAND MESSAGE\n");
	err = bpfkit_run(ch, NULL);

cleanup:
	bpfkit_channel_free(ch);
	hello_buffer_bpf__destroy(skel);
	return bpfkit_exit_code(err);
}
