/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The record @NAME@ sends from the kernel at every @TRACEPOINT@. */
#ifndef @GUARD@_H
#define @GUARD@_H

/* The record header and the kernel's sizes, on both sides. */
#include "bpfkit/channel.h"

struct @IDENT@_event {
	struct bpfkit_record rec; /* first: the time it was sent */
	__u32 pid; /* process id (the tgid) */
	__u32 ppid; /* its parent's process id */
	__u32 uid; /* real user id */
	char comm[BPFKIT_COMM_LEN]; /* command name, NUL-terminated */
};

#endif /* @GUARD@_H */
