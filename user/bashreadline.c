// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * bashreadline: print every command line typed into bash, from a uretprobe
 * on readline() in the bash binary (resolved by its symbol).
 */
#include <errno.h>
#include <stdio.h>
#include "channel.h"
#include "cli.h"
#include "diag.h"
#include "output.h"
#include "run.h"
#include "setup.h"
#include "bashreadline.h"
#include "bashreadline.skel.h"

/* Column widths, for the header and every row. */
enum { PID_W = 7, UID_W = 7, COMM_W = 15 };

static struct {
	const char *shell; /* --shell: the binary holding readline() */
} env = {
	.shell = "/bin/bash",
};

static const struct bpfkit_binary_opt shell_opt = {
	.name = "shell",
	.key = 's',
	.doc = "The bash (or the libreadline.so it links) to trace; default /bin/bash",
	.path = &env.shell,
};

static const struct bpfkit_tool tool = {
	.name = "bashreadline",
	.doc = "Print the command lines typed into bash (its readline() calls).\n"
	       "\v"
	       "Examples:\n"
	       "  bashreadline                 # every interactive bash\n"
	       "  bashreadline -T -u alice     # alice's lines, with the time\n"
	       "  bashreadline -s /usr/local/bin/bash -j  # another bash, JSON\n",
	.options = BPFKIT_OPT_EVENTS,
	.binary = &shell_opt,
};

static enum bpfkit_verdict print_event(void *ctx, const void *data, size_t size)
{
	const struct bashreadline_event *e = data;
	size_t len;
	struct bpfkit_json j;

	if (size < sizeof(*e))
		return BPFKIT_UNREADABLE;
	len = e->len < sizeof(e->line) ? e->len : sizeof(e->line) - 1;
	if (bpfkit_output_json()) {
		bpfkit_json_begin(&j, stdout, &e->rec);
		bpfkit_json_uint(&j, "pid", e->pid);
		bpfkit_json_uint(&j, "uid", e->uid);
		bpfkit_json_str(&j, "comm", e->comm, sizeof(e->comm));
		bpfkit_json_str(&j, "line", e->line, len);
		bpfkit_json_end(&j);
		return BPFKIT_SHOWN;
	}
	bpfkit_print_time(&e->rec);
	printf("%-*u %-*u ", PID_W, e->pid, UID_W, e->uid);
	bpfkit_print_str(e->comm, sizeof(e->comm), COMM_W);
	bpfkit_col_escape(stdout, e->line, len, false);
	putchar('\n');
	return BPFKIT_SHOWN;
}

int main(int argc, char **argv)
{
	struct bashreadline_bpf *skel = NULL;
	struct bpfkit_channel *ch = NULL;
	struct bpfkit_user_probe probe;
	int err;

	/* Parse options; check privileges, tracefs and kernel BTF. */
	bpfkit_setup(&tool, argc, argv);

	/* Open the BPF object. */
	skel = bashreadline_bpf__open_opts(bpfkit_open_opts());
	if (!skel)
		return bpfkit_open_failed();

	/* Load and verify. */
	err = bpfkit_load(skel->skeleton);
	if (err)
		goto cleanup;

	/* Open the event channel, then attach at readline()'s return. */
	probe = (struct bpfkit_user_probe){
		.prog = skel->progs.readline_return,
		.binary = env.shell,
		.name = "readline",
		.retprobe = true,
	};
	err = bpfkit_attach_user(skel->skeleton, &probe, 1, print_event, NULL,
				 &ch);
	if (err)
		goto cleanup;

	/* Print the header, then lines until a signal or --duration. */
	bpfkit_print_header("%-*s %-*s %-*s %s\n", PID_W, "PID", UID_W, "UID",
			    COMM_W, "COMM", "LINE");
	err = bpfkit_run(ch, NULL);

cleanup:
	bpfkit_channel_free(ch);
	bashreadline_bpf__destroy(skel);
	return bpfkit_exit_code(err);
}
