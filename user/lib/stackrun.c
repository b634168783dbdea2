// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The stack tools' steps: sampling every CPU, and their run. */
#include <errno.h>
#include "cli.h"
#include "diag.h"
#include "setup.h"
#include "stackrun.h"

int bpfkit_stacks_run(struct bpf_object_skeleton *s,
		      struct bpfkit_sampling *sampling,
		      const struct bpfkit_stacks_unit *unit)
{
	const struct bpfkit_stack_stats *stats;
	struct bpfkit_stacks *r = NULL;
	struct bpfkit_tick tick;
	int err;

	stats = bpfkit_object_var(s, ".bss", "bpfkit_stack_stats",
				  sizeof(*stats));
	if (!stats) {
		err = -errno;
		bpfkit_fail("find the stack counters (bpfkit/stacks.bpf.h)",
			    err);
		return err;
	}
	err = bpfkit_stacks_open(&r, *s->obj, &bpfkit_opts.stacks, unit, stats) ?:
		      bpfkit_attach(s, NULL, NULL, NULL);
	if (!err) {
		tick = bpfkit_stacks_tick(r);
		err = bpfkit_run(NULL, &tick);
	}
	if (!err) {
		/* Stop counting, so that the counts read are the final ones. */
		if (sampling)
			bpfkit_detach_sampling(sampling);
		bpf_object__detach_skeleton(s);
		err = bpfkit_stacks_report(r);
	}
	bpfkit_stacks_free(r);
	return err;
}
