/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Sampling every CPU with a perf_event program, HZ times a second: the
 * stack tools' (profile) and runqlen's. Without the stack room, so that a
 * tool sampling links no symbolizer.
 *
 *	err = bpfkit_attach_sampling(skel->progs.sample, hz, &sampling);
 *	...
 *	bpfkit_detach_sampling(&sampling);
 */
#ifndef BPFKIT_SAMPLING_H
#define BPFKIT_SAMPLING_H

#include <bpf/libbpf.h>

/*
 * A perf_event program PROG sampling every online CPU HZ times a second:
 * on CPU cycles where a PMU counts them, on the cpu-clock timer otherwise
 * (EVENT says which). A rate above the kernel's limit is named with it.
 */
struct bpfkit_sampling {
	struct bpf_link **links; /* one per CPU, NULL for offline ones */
	int ncpus;
	const char *event; /* "cycles" or "cpu-clock" */
};

int bpfkit_attach_sampling(struct bpf_program *prog, unsigned long hz,
			   struct bpfkit_sampling *out);

/*
 * The same on the cpu-clock timer only, which fires on idle CPUs too
 * (cycles do not count while a CPU halts): for a program that samples a
 * CPU's state, not what runs (runqlen).
 */
int bpfkit_attach_timer_sampling(struct bpf_program *prog, unsigned long hz,
				 struct bpfkit_sampling *out);

/* Stop sampling (before the counts are read); again, a no-op. */
void bpfkit_detach_sampling(struct bpfkit_sampling *s);

#endif /* BPFKIT_SAMPLING_H */
