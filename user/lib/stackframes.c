// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Histogram tools keyed by stack ids: their run, their keys' stacks. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include "diag.h"
#include "setup.h"
#include "stackframes.h"

/* The run's: the stack map and the symbolizer. */
static struct {
	int stacks_fd;
	struct bpfkit_syms *syms;
} run = { .stacks_fd = -1 };

int bpfkit_stack_hist_run(struct bpf_object_skeleton *s, struct bpf_map *map,
			  const struct bpfkit_hist_keys *keys)
{
	const struct bpfkit_syms_opts opts = {};
	int err;

	run.stacks_fd =
		bpf_object__find_map_fd_by_name(*s->obj, "bpfkit_stacks");
	if (run.stacks_fd < 0) {
		bpfkit_fail("find the stack map (bpfkit/stacks.bpf.h)",
			    run.stacks_fd);
		return run.stacks_fd;
	}
	run.syms = bpfkit_syms_new(&opts);
	if (!run.syms) {
		bpfkit_fail("make a symbolizer", -ENOMEM);
		return -ENOMEM;
	}
	err = bpfkit_hist_run(s, map, keys);
	bpfkit_syms_free(run.syms);
	run.syms = NULL;
	return err;
}

int bpfkit_key_stack(pid_t pid, __u64 id, bool user,
		     const struct bpfkit_frame **frames)
{
	struct bpfkit_stack st;
	int depth, skip = 0, n = 0;

	if (id == BPFKIT_STACK_NONE || id == BPFKIT_STACK_LOST ||
	    bpf_map_lookup_elem(run.stacks_fd, &id, &st))
		return 0;
	if (user)
		bpfkit_syms_add_pid(run.syms, pid);
	for (depth = 0; depth < BPFKIT_STACK_DEPTH && st.ips[depth]; depth++)
		;
	if (!user)
		while (skip < depth && bpfkit_tracing_frame(bpfkit_syms_kernel(
					       run.syms, st.ips[skip])))
			skip++;
	for (; skip < depth; skip++)
		frames[n++] =
			user ? bpfkit_syms_user(run.syms, pid, st.ips[skip]) :
			       bpfkit_syms_kernel(run.syms, st.ips[skip]);
	return n;
}

const struct bpfkit_frame *bpfkit_key_kernel_sym(__u64 addr)
{
	return bpfkit_syms_kernel(run.syms, addr);
}

void bpfkit_stack_print(FILE *f, const struct bpfkit_frame **frames, int n,
			bool lost)
{
	int i;

	if (lost)
		fprintf(f, "\n    [stack lost: the stack map was full]");
	for (i = 0; i < n; i++)
		fprintf(f, "\n    %s", frames[i]->label);
}

void bpfkit_stack_json(struct bpfkit_json *j,
		       const struct bpfkit_frame **frames, int n, bool lost)
{
	int i;

	bpfkit_json_bool(j, "stack_lost", lost);
	bpfkit_json_array_begin(j, "stack");
	for (i = 0; i < n; i++)
		bpfkit_json_str(j, NULL, frames[i]->label, 256);
	bpfkit_json_array_end(j);
}

int bpfkit_parse_addr(const char *name, const char *arg, __u64 *addr)
{
	char *end;

	errno = 0;
	*addr = strtoull(arg, &end, 16);
	if (errno || end == arg || *end || !*addr)
		return bpfkit_usage_error(
			"invalid %s '%s': expected a non-zero hex address (0x7f00...)",
			name, arg);
	return 0;
}
