/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Names of kernel numbers that several tools print or parse: syscalls of
 * this architecture (from its kernel headers) and signals.
 */
#ifndef BPFKIT_NAMES_H
#define BPFKIT_NAMES_H

#include <stddef.h>

/* Generated at build time; holes are NULL. */
extern const char *const bpfkit_syscall_table[];
extern const int bpfkit_syscall_count;

/* The name of syscall NR, or NULL when this architecture has none. */
const char *bpfkit_syscall_name(long nr);

/* The number of syscall NAME, or -1. */
long bpfkit_syscall_nr(const char *name);

/* Signal SIG without "SIG": USR1, RTMIN+2, or its number; BUF may be used. */
const char *bpfkit_signal_name(int sig, char *buf, size_t len);

#endif /* BPFKIT_NAMES_H */
