// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Error reporting: one-line errors with hints, libbpf's log with -v. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
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

static int print_none(enum libbpf_print_level level, const char *fmt,
		      va_list args)
{
	return 0;
}

void bpfkit_setup_logging(bool verbose)
{
	libbpf_set_print(verbose ? print_all : print_none);
}

void bpfkit_verror(const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: ", tool_name);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
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
