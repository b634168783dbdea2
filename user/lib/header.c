// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The column header line, after the time columns' headers. */
#include <stdarg.h>
#include <stdio.h>
#include "cli.h"
#include "header.h"
#include "output.h"

void bpfkit_print_header(const char *fmt, ...)
{
	va_list ap;

	if (bpfkit_env.json)
		return;
	bpfkit_print_time_header();
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}
