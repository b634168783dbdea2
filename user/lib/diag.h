/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Error reporting: one line on stderr that names the tool, the cause and the
 * fix; libbpf's own log only with -v.
 */
#ifndef BPFKIT_DIAG_H
#define BPFKIT_DIAG_H

#include <stdarg.h>
#include <stdbool.h>

/* Exit codes, the same for every tool. */
#define BPFKIT_EXIT_OK 0
#define BPFKIT_EXIT_FAIL 1 /* runtime failure: privileges, kernel, I/O */
#define BPFKIT_EXIT_USAGE 2 /* bad command line */

/* Name the tool at the start of every message. */
void bpfkit_set_tool_name(const char *name);

/* Show libbpf's log on stderr with -v, hide it otherwise. */
void bpfkit_setup_logging(bool verbose);

/* Print "<tool>: <message>". */
void bpfkit_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void bpfkit_verror(const char *fmt, va_list ap);

/* Print "<tool>: failed to <what>: <reason>" plus a hint for known errors. */
void bpfkit_fail(const char *what, int err);

/* Exit code for a tool's final err (0 or -errno). */
int bpfkit_exit_code(int err);

#endif /* BPFKIT_DIAG_H */
