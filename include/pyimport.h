/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The record pyimport sends for every module import a Python process ends. */
#ifndef PYIMPORT_H
#define PYIMPORT_H

#include "bpfkit/channel.h"

/* The longest module name sent, with its NUL; longer names are cut. */
#define PYIMPORT_NAME_LEN 128

struct pyimport_event {
	struct bpfkit_record rec; /* first: the time it was sent */
	__u32 pid; /* tgid of the Python process */
	__u32 tid;
	__u32 uid;
	__u32 found; /* 1: the module was loaded; 0: the import failed */
	__u64 latency_ns; /* from the search's start to its end */
	char comm[BPFKIT_COMM_LEN];
	char module[PYIMPORT_NAME_LEN]; /* absolute name, NUL-terminated */
};

#endif /* PYIMPORT_H */
