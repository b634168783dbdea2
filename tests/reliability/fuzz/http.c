// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * libFuzzer harness of the metrics responder's request parser: any bytes,
 * whole and as every prefix a slow client could send, get a status the
 * responder knows, and once a prefix has its status, more bytes keep it.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "metrics.h"

#define MAX_LEN 512

static int known(int status)
{
	return status == 0 || status == 200 || status == 400 || status == 404 ||
	       status == 405 || status == 431 || status == 505;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* A copy of just SIZE bytes, so reads past it are caught. */
	char *buf = malloc(size ? size : 1);
	int first = 0, status;
	size_t len;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	for (len = 1; len <= size && len <= MAX_LEN; len++) {
		status = bpfkit_http_parse(buf, len, MAX_LEN);
		if (!known(status))
			abort();
		if (first && status != first)
			abort();
		if (!first)
			first = status;
		/* The responder reads no more than MAX_LEN: it must answer. */
		if (len >= MAX_LEN && !status)
			abort();
	}
	free(buf);
	return 0;
}
