/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * For unit tests of printers: what a function wrote to stdout. Include
 * after <cmocka.h>.
 */
#ifndef BPFKIT_TEST_CAPTURE_H
#define BPFKIT_TEST_CAPTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* What FN wrote to stdout (at most 255 bytes; the caller frees it). */
static char *stdout_of(void (*fn)(const void *arg), const void *arg)
{
	FILE *f = tmpfile();
	char *buf = calloc(1, 256);
	int saved;

	assert_non_null(f);
	assert_non_null(buf);
	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	assert_true(saved >= 0);
	assert_true(dup2(fileno(f), STDOUT_FILENO) >= 0);
	fn(arg);
	fflush(stdout);
	assert_true(dup2(saved, STDOUT_FILENO) >= 0);
	close(saved);
	rewind(f);
	assert_true(fread(buf, 1, 255, f) < 255);
	fclose(f);
	return buf;
}

#endif /* BPFKIT_TEST_CAPTURE_H */
