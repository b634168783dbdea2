/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The record hello-attach sends for every execve, from any attach type. */
#ifndef HELLO_ATTACH_H
#define HELLO_ATTACH_H

#include "bpfkit/channel.h"

#define HELLO_ATTACH_PATH_LEN 256 /* longer execve filenames are cut short */

/* The program that saw the execve; in the order --attach=auto tries them. */
enum hello_attach_type {
	HELLO_ATTACH_TRACEPOINT,
	HELLO_ATTACH_TP_BTF,
	HELLO_ATTACH_RAW_TP,
	HELLO_ATTACH_FENTRY,
	HELLO_ATTACH_KSYSCALL,
	HELLO_ATTACH_KPROBE,
	HELLO_ATTACH_TYPES,
};

struct hello_attach_event {
	struct bpfkit_record rec; /* first: the time it was sent */
	int pid;
	int uid;
	char command[BPFKIT_COMM_LEN];
	int attach; /* enum hello_attach_type */
	char path[HELLO_ATTACH_PATH_LEN]; /* execve's filename argument */
};

#endif /* HELLO_ATTACH_H */
