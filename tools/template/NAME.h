/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The record @NAME@ sends from the kernel at every @TRACEPOINT@. */
#ifndef @GUARD@_H
#define @GUARD@_H

/* The kernel's types and sizes, on both sides (BPF: from vmlinux.h). */
#include "bpfkit/types.h"

struct @IDENT@_event {
	__u32 pid; /* process id (the tgid) */
	__u32 uid; /* real user id */
	char comm[BPFKIT_COMM_LEN]; /* command name, NUL-terminated */
};

#endif /* @GUARD@_H */
