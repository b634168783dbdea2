// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * hello: print "Hello World" for every execve, as the BPF side wrote it to
 * the kernel trace pipe. Every program's bpf_printk() lands in the same
 * pipe, so the BPF side tags its lines with our pid and we keep only those.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "channel.h"
#include "cli.h"
#include "diag.h"
#include "run.h"
#include "setup.h"
#include "tracefs.h"
#include "hello.skel.h"

#define READ_MS 50 /* read the pipe this often, and this long at most */

/* The trace pipe, the unfinished tail of what was read, and what we print. */
struct reader {
	int fd;
	char tag[64]; /* "bpf_trace_printk: hello/<pid>: " */
	char buf[65536];
	size_t len;
	unsigned long printed;
	int err;
};

static struct {
	unsigned long count; /* -n: lines to print; 0: no limit */
} env;

static struct reader reader = { .fd = -1 };

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	if (key == 'n')
		return bpfkit_parse_ulong("-n/--count", arg, 1, ULONG_MAX,
					  &env.count);
	return ARGP_ERR_UNKNOWN;
}

static const struct argp_option options[] = {
	{ "count", 'n', "N", 0, "Stop after N lines", 0 },
	{},
};

static const struct bpfkit_tool tool = {
	.name = "hello",
	.doc = "Print \"Hello World\" from the kernel trace pipe for every execve.\n"
	       "\v"
	       "Examples:\n"
	       "  hello                # every execve on the system\n"
	       "  hello -u 1000 -n 5   # user 1000's first 5 execs, then exit\n",
	.options = BPFKIT_OPT_FILTERS,
	.own_options = options,
	.own_parser = parse_arg,
};

/* Print LINE without leading blanks and without our tag, if it is ours. */
static void print_line(struct reader *r, char *line)
{
	char *tag = strstr(line, r->tag);

	if (!tag || (env.count && r->printed >= env.count))
		return;
	*tag = '\0';
	line += strspn(line, " ");
	printf("%s%s\n", line, tag + strlen(r->tag));
	if (++r->printed == env.count)
		bpfkit_stop();
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Read all that the pipe holds now and print our complete lines: until it
 * is empty, --count is reached, or READ_MS have passed while other
 * programs' lines keep it full. Also after a stop: the last lines wait there.
 */
static int read_pipe(void *ctx)
{
	struct reader *r = ctx;
	double end = now() + READ_MS / 1e3;
	char *line, *nl;
	ssize_t n;

	while ((!env.count || r->printed < env.count) && now() < end) {
		n = read(r->fd, r->buf + r->len, sizeof(r->buf) - r->len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return 0;
		if (n <= 0) {
			r->err = n ? -errno : -EIO;
			bpfkit_fail("read the trace pipe", r->err);
			return 1;
		}
		r->len += n;
		r->buf[r->len] = '\0';
		for (line = r->buf; (nl = strchr(line, '\n')); line = nl + 1) {
			*nl = '\0';
			print_line(r, line);
		}
		/* Keep the unfinished line; drop one that fills the buffer. */
		r->len = r->len - (line - r->buf) < sizeof(r->buf) - 1 ?
				 r->len - (line - r->buf) :
				 0;
		memmove(r->buf, line, r->len);
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct bpfkit_tick tick = {
		.interval_ms = READ_MS,
		.fn = read_pipe,
		.ctx = &reader,
	};
	struct hello_bpf *skel = NULL;
	char path[PATH_MAX];
	int err;

	/* Parse options; check privileges, tracefs and kernel BTF. */
	bpfkit_setup(&tool, argc, argv);

	/* Open the BPF object. */
	skel = hello_bpf__open_opts(bpfkit_open_opts());
	if (!skel)
		return bpfkit_open_failed();

	/* Tag our lines with our pid. */
	skel->rodata->marker = getpid();
	snprintf(reader.tag, sizeof(reader.tag),
		 "bpf_trace_printk: hello/%d: ", getpid());

	/* Write the filters to .rodata (no event channel); load and verify. */
	err = bpfkit_load(skel->skeleton);
	if (err)
		goto cleanup;

	/* Open the trace pipe without blocking, so signals stop us at once. */
	snprintf(path, sizeof(path), "%s/trace_pipe", bpfkit_tracefs());
	reader.fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (reader.fd < 0) {
		err = -errno;
		bpfkit_fail("open the trace pipe", err);
		goto cleanup;
	}

	/* Attach to the execve tracepoint. */
	err = bpfkit_attach(skel->skeleton, NULL, NULL, NULL);
	if (err)
		goto cleanup;

	/* Print our lines until a signal, --duration or --count. */
	err = bpfkit_run(NULL, &tick);

	/* Detach, so that no line of ours follows, and print what is left. */
	hello_bpf__detach(skel);
	if (!err)
		read_pipe(&reader);
	err = err ?: reader.err;

cleanup:
	if (reader.fd >= 0)
		close(reader.fd);
	hello_bpf__destroy(skel);
	return bpfkit_exit_code(err);
}
