/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* What syscount's BPF side counts, per syscall number or per process. */
#ifndef SYSCOUNT_H
#define SYSCOUNT_H

#include "bpfkit/types.h"

#define SYSCOUNT_MAX_KEYS 10240
#define SYSCOUNT_MAX_NR 1024 /* syscall numbers syscount_kind covers */

/* Syscalls -L cannot time from entry to exit, by syscount_kind[nr]. */
#define SYSCOUNT_NO_RETURN (1 << 0) /* exit, exit_group: no sys_exit */
#define SYSCOUNT_FORK (1 << 1) /* a new task returns from it, unentered */

/* One per-CPU slot of the counts map, keyed by syscall number or pid. */
struct syscount_val {
	__u64 count;
	__u64 total_ns; /* time inside the syscalls, with -L */
	char comm[BPFKIT_COMM_LEN]; /* the process's command, with -P */
};

#endif /* SYSCOUNT_H */
