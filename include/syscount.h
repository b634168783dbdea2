/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* What syscount's BPF side counts, per syscall number or per process. */
#ifndef SYSCOUNT_H
#define SYSCOUNT_H

#include "bpfkit/types.h"

#define SYSCOUNT_MAX_KEYS 10240

/* One per-CPU slot of the counts map, keyed by syscall number or pid. */
struct syscount_val {
	__u64 count;
	__u64 total_ns; /* time inside the syscalls, with -L */
	char comm[BPFKIT_COMM_LEN]; /* the process's command, with -P */
};

#endif /* SYSCOUNT_H */
