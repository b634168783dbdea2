// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * startfloor: open, load and attach one tracepoint program with libbpf
 * alone (the libbpf-bootstrap minimal shape), say so on stderr as every
 * bpfkit tool does, and wait for a signal: the floor tools/bench/run
 * measures every tool's start-up against.
 */
#include <signal.h>
#include <stdio.h>
#include <unistd.h>
#include <bpf/libbpf.h>
#include "startfloor.skel.h"

static void on_signal(int sig)
{
}

int main(void)
{
	struct startfloor_bpf *skel;
	int err = 1;

	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	skel = startfloor_bpf__open_and_load();
	if (!skel) {
		fprintf(stderr,
			"startfloor: failed to open and load BPF object\n");
		return 1;
	}
	if (startfloor_bpf__attach(skel)) {
		fprintf(stderr, "startfloor: failed to attach BPF program\n");
		goto cleanup;
	}
	fprintf(stderr, "startfloor: tracing; hit Ctrl-C to end\n");
	pause();
	err = 0;

cleanup:
	startfloor_bpf__destroy(skel);
	return err;
}
