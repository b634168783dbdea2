/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* What hello-map's BPF side and user space agree on. */
#ifndef HELLO_MAP_H
#define HELLO_MAP_H

/* Tracepoint programs count_syscall0..N-1, one per syscall of --syscalls. */
#define HELLO_MAP_SLOTS 8

/* Entries of the counts map: uids or syscall numbers. */
#define HELLO_MAP_KEYS 10240

#endif /* HELLO_MAP_H */
