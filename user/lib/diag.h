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

/*
 * What a failed load could not relocate, named by libbpf's hidden log
 * (without -v): "task_struct.signal", a kernel type or member the kernel
 * BTF lacks; NULL when it said nothing of the kind.
 */
const char *bpfkit_core_missing(void);

/*
 * Start-up phase timings, printed with -v as one line per phase on stderr,
 * "<tool>: phase NAME: 1.234 ms": bpfkit_phases_start() once at main with
 * the monotonic time and the CPU time the process had then (exec to main),
 * then bpfkit_phase() at the end of each phase, timed from the previous
 * one's end. Without bpfkit_phases_start() they print nothing.
 */
double bpfkit_clock_ms(void);
void bpfkit_phases_start(double main_ms, double main_cpu_ms);
bool bpfkit_phases_on(void);
void bpfkit_phase(const char *name);
/* The last phase, then the total from main; later calls print nothing. */
void bpfkit_phase_last(const char *name);
/* Print a phase of MS milliseconds with DETAIL after it; the clock goes on. */
void bpfkit_phase_line(const char *name, double ms, const char *detail);

/* Print "<tool>: <message>". */
void bpfkit_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void bpfkit_verror(const char *fmt, va_list ap);

/*
 * A bad option argument (a usage error): print "<tool>: <message>" and
 * return EINVAL, for argp.
 */
int bpfkit_usage_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

/* Print "<tool>: failed to <what>: <reason>" plus a hint for known errors. */
void bpfkit_fail(const char *what, int err);

/* Exit code for a tool's final err (0 or -errno). */
int bpfkit_exit_code(int err);

#endif /* BPFKIT_DIAG_H */
