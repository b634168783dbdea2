/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The steps of the stack tools (profile, offcputime, wakeuptime) beyond
 * every tool's (setup.h): sampling every CPU, and their run, which reads
 * the stacks they count and prints them at the end. A room of its own, so
 * that only they link the stack reader's symbolizer (libdw).
 *
 *	err = bpfkit_attach_sampling(skel->progs.sample, hz, &sampling);
 *	err = bpfkit_stacks_run(skel->skeleton, &sampling, &unit);
 *
 * or, for a tool whose programs the skeleton attaches:
 *
 *	err = bpfkit_stacks_run(skel->skeleton, NULL, &unit);
 */
#ifndef BPFKIT_STACKRUN_H
#define BPFKIT_STACKRUN_H

#include <bpf/libbpf.h>
#include "bpfkit/stacks.h"
#include "sampling.h"
#include "stacks.h"

/*
 * bpfkit_run() for a stack tool, which owns its programs' attachment: a
 * reader of S's stack maps and counters (stacks.bpf.h), counting UNIT,
 * opens; S's programs attach (as bpfkit_attach() does without events);
 * the reader reads the memory maps of processes new since while they run,
 * until -d or a signal; then S's programs and SAMPLING's (if not NULL)
 * stop, so that the counts are final, and they are printed as the options
 * say.
 */
int bpfkit_stacks_run(struct bpf_object_skeleton *s,
		      struct bpfkit_sampling *sampling,
		      const struct bpfkit_stacks_unit *unit);

#endif /* BPFKIT_STACKRUN_H */
