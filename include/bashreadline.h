/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The record bashreadline sends for every line bash's readline() returns. */
#ifndef BASHREADLINE_H
#define BASHREADLINE_H

#include "bpfkit/channel.h"

/* The longest line sent, with its NUL; longer lines are cut. */
#define BASHREADLINE_LINE_LEN 256

struct bashreadline_event {
	struct bpfkit_record rec; /* first: the time it was sent */
	__u32 pid; /* tgid of the bash */
	__u32 uid;
	__u32 len; /* bytes in line, without the NUL */
	char comm[BPFKIT_COMM_LEN];
	char line[BASHREADLINE_LINE_LEN]; /* NUL-terminated */
};

#endif /* BASHREADLINE_H */
