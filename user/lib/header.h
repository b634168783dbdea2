/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The column header line that columns output starts with. */
#ifndef BPFKIT_HEADER_H
#define BPFKIT_HEADER_H

/*
 * Print the -T/-t time headers, then FMT: the tool's own column names.
 * Prints nothing with -j, since JSON Lines need no header.
 */
void bpfkit_print_header(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

#endif /* BPFKIT_HEADER_H */
