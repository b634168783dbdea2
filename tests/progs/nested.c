// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * nested PID: attach nested.bpf.c for process PID, say "attached" on
 * stdout, and at SIGINT or SIGTERM print how many signals it sent from
 * inside its program ("sent N").
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <bpf/libbpf.h>
#include "nested.skel.h"

static void on_signal(int sig)
{
}

int main(int argc, char **argv)
{
	struct nested_bpf *skel;
	int err = 1;

	if (argc != 2 || atoi(argv[1]) <= 0) {
		fprintf(stderr, "usage: nested PID\n");
		return 2;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	skel = nested_bpf__open();
	if (!skel) {
		fprintf(stderr, "nested: failed to open BPF object\n");
		return 1;
	}
	skel->rodata->nested_tgid = atoi(argv[1]);
	if (nested_bpf__load(skel) || nested_bpf__attach(skel)) {
		fprintf(stderr,
			"nested: failed to load or attach BPF program\n");
		goto cleanup;
	}
	printf("attached\n");
	fflush(stdout);
	pause();
	printf("sent %llu\n", (unsigned long long)skel->bss->nested_sent);
	err = 0;

cleanup:
	nested_bpf__destroy(skel);
	return err;
}
