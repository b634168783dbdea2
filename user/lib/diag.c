// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Error reporting: one-line errors with hints; libbpf's log and the start-up
 * phase timings with -v.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <bpf/libbpf.h>
#include "diag.h"

static const char *tool_name = "bpfkit";

void bpfkit_set_tool_name(const char *name)
{
	tool_name = name;
}

static int print_all(enum libbpf_print_level level, const char *fmt,
		     va_list args)
{
	return vfprintf(stderr, fmt, args);
}

/*
 * The kernel type or member libbpf last found no match for in the kernel
 * BTF, from its warning with the verifier's log of the program that read
 * it ("failed to resolve CO-RE relocation <byte_off> [49] struct
 * task_struct.signal (0:135 @ offset 1848)"): "task_struct.signal".
 */
static char core_missing[128];

static void note_core_missing(const char *fmt, va_list args)
{
	static const char mark[] = "failed to resolve CO-RE relocation ";
	const char *at;
	char *text;

	/* Only a program's load log, whose text the kernel wrote, holds it. */
	if (!strstr(fmt, "PROG LOAD LOG") || vasprintf(&text, fmt, args) < 0)
		return;
	/* After the relocation's kind and the type's id, its kind word. */
	at = strstr(text, mark);
	at = at ? strstr(at, "] ") : NULL;
	at = at ? strchr(at + 2, ' ') : NULL;
	if (at)
		snprintf(core_missing, sizeof(core_missing), "%.*s",
			 (int)strcspn(at + 1, " \n"), at + 1);
	free(text);
}

static int print_quiet(enum libbpf_print_level level, const char *fmt,
		       va_list args)
{
	if (level == LIBBPF_WARN)
		note_core_missing(fmt, args);
	return 0;
}

void bpfkit_setup_logging(bool verbose)
{
	libbpf_set_print(verbose ? print_all : print_quiet);
}

const char *bpfkit_core_missing(void)
{
	return core_missing[0] ? core_missing : NULL;
}

static bool phases_on;
static double phase_main_ms, phase_end_ms; /* main; the last phase's end */

double bpfkit_clock_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

void bpfkit_phases_start(double main_ms, double main_cpu_ms)
{
	phases_on = true;
	phase_main_ms = phase_end_ms = main_ms;
	fprintf(stderr, "%s: phase exec to main: %.3f ms CPU\n", tool_name,
		main_cpu_ms);
}

bool bpfkit_phases_on(void)
{
	return phases_on;
}

void bpfkit_phase_line(const char *name, double ms, const char *detail)
{
	if (phases_on)
		fprintf(stderr, "%s: phase %s: %.3f ms%s\n", tool_name, name,
			ms, detail);
}

void bpfkit_phase(const char *name)
{
	double now = bpfkit_clock_ms();

	bpfkit_phase_line(name, now - phase_end_ms, "");
	phase_end_ms = now;
}

void bpfkit_phase_last(const char *name)
{
	bpfkit_phase(name);
	bpfkit_phase_line("main to first poll", phase_end_ms - phase_main_ms,
			  "");
	phases_on = false;
}

void bpfkit_verror(const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: ", tool_name);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

int bpfkit_usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	bpfkit_verror(fmt, ap);
	va_end(ap);
	return EINVAL;
}

void bpfkit_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	bpfkit_verror(fmt, ap);
	va_end(ap);
}

static const char *hint(int err)
{
	switch (err) {
	case -EPERM:
		return "; the kernel refused it (on old kernels raise the locked-memory limit: ulimit -l unlimited); run with -v for details";
	case -EACCES:
		return "; the verifier rejected it, run with -v for its log";
	case -ENOENT:
		return "; this kernel lacks the attach point, run with -v for details";
	case -ESRCH:
		return "; a kernel type or field this tool relies on is missing (CO-RE relocation failed), run with -v for details";
	case -EINVAL:
		return "; the kernel refused it, run with -v for libbpf's log";
	case -ENOMEM:
		return "; use a smaller --buffer-pages or raise ulimit -l";
	default:
		return "";
	}
}

void bpfkit_fail(const char *what, int err)
{
	bpfkit_error("failed to %s: %s%s", what, strerror(-err), hint(err));
}

int bpfkit_exit_code(int err)
{
	return err ? BPFKIT_EXIT_FAIL : BPFKIT_EXIT_OK;
}
