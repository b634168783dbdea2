/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Syscall names and numbers of this architecture, from its kernel headers. */
#ifndef BPFKIT_SYSCALLS_H
#define BPFKIT_SYSCALLS_H

/* Generated at build time; holes are NULL. */
extern const char *const bpfkit_syscall_table[];
extern const int bpfkit_syscall_count;

/* The name of syscall NR, or NULL when this architecture has none. */
const char *bpfkit_syscall_name(long nr);

/* The number of syscall NAME, or -1. */
long bpfkit_syscall_nr(const char *name);

#endif /* BPFKIT_SYSCALLS_H */
