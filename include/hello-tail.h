/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The record hello-tail sends for every syscall it reports. */
#ifndef HELLO_TAIL_H
#define HELLO_TAIL_H

#include "bpfkit/channel.h"

/* What happened; user space turns it into the MESSAGE column. */
enum hello_tail_kind {
	HELLO_TAIL_EXEC = 1, /* execve, execveat */
	HELLO_TAIL_TIMER_CREATE, /* timer_create */
	HELLO_TAIL_TIMER_DELETE, /* timer_delete */
	HELLO_TAIL_TIMER_OTHER, /* the other timer_* syscalls */
	HELLO_TAIL_OTHER, /* any other syscall, with --all */
};

struct hello_tail_event {
	struct bpfkit_record rec; /* first: the time it was sent */
	int pid;
	int uid;
	char comm[BPFKIT_COMM_LEN];
	long nr; /* syscall number */
	int kind; /* enum hello_tail_kind */
};

#endif /* HELLO_TAIL_H */
