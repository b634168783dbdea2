// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* One stack of the bpfkit_stacks map, by id, as symbolized frames. */
#include <string.h>
#include <bpf/bpf.h>
#include "stackframes.h"

bool bpfkit_tracing_frame(const struct bpfkit_frame *f)
{
	static const char *const prefixes[] = { "bpf_prog_", "bpf_trace_run",
						"__traceiter_",
						"__bpf_trace_" };
	size_t i;

	for (i = 0; f->name && i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (!strncmp(f->name, prefixes[i], strlen(prefixes[i])))
			return true;
	return false;
}

int bpfkit_stack_frames(int stacks_fd, struct bpfkit_syms *syms, pid_t pid,
			__u64 id, bool user, const struct bpfkit_frame **frames)
{
	struct bpfkit_stack st;
	int depth, skip = 0, n = 0;

	if (id == BPFKIT_STACK_NONE || id == BPFKIT_STACK_LOST ||
	    bpf_map_lookup_elem(stacks_fd, &id, &st))
		return 0;
	for (depth = 0; depth < BPFKIT_STACK_DEPTH && st.ips[depth]; depth++)
		;
	if (!user)
		while (skip < depth && bpfkit_tracing_frame(bpfkit_syms_kernel(
					       syms, st.ips[skip])))
			skip++;
	for (; skip < depth; skip++)
		frames[n++] = user ? bpfkit_syms_user(syms, pid, st.ips[skip]) :
				     bpfkit_syms_kernel(syms, st.ips[skip]);
	return n;
}
