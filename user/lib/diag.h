/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Diagnostics: libbpf's log, checks made before touching the kernel, and
 * one-line errors that name the cause and the fix.
 */
#ifndef BPFKIT_DIAG_H
#define BPFKIT_DIAG_H

#include <stdbool.h>
#include <bpf/libbpf.h>

/* Show libbpf's log on stderr with -v, hide it otherwise. */
void bpfkit_setup_logging(bool verbose);

/*
 * Check what every tool needs before it opens its object: privileges and
 * kernel BTF. Prints one line and returns -errno when something is missing.
 */
int bpfkit_preflight(void);

/* Open options with --btf applied, for <skel>__open_opts(). */
const struct bpf_object_open_opts *bpfkit_open_opts(void);

/* Print "<tool>: failed to <what>: <reason>" plus a hint for known errors. */
void bpfkit_fail(const char *what, int err);

/* Print "<tool>: <message>". */
void bpfkit_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The mounted tracefs directory, mounting it if needed; NULL on failure. */
const char *bpfkit_tracefs(void);

/* Does tracepoint CATEGORY:NAME exist on this kernel? */
bool bpfkit_tracepoint_exists(const char *category, const char *name);

/* Exit code for a tool's final err (0 or -errno). */
int bpfkit_exit_code(int err);

#endif /* BPFKIT_DIAG_H */
