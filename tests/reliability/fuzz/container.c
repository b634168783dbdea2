// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * libFuzzer harness of the container room's path parser: any bytes, as a
 * cgroup path and as /proc/PID/cgroup's text, parse without reading past
 * them, and whatever is found is a container the room can print: a
 * runtime, a NUL-terminated id of printable bytes, a pod UID of 36 or none.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "container.h"

static void check(bool found, const struct bpfkit_container *c)
{
	size_t i, n = strnlen(c->id, sizeof(c->id));

	if (!found) {
		if (c->runtime || c->id[0] || c->name[0] || c->qos)
			abort();
		return;
	}
	if (!c->runtime || !n || n == sizeof(c->id))
		abort();
	for (i = 0; i < n; i++)
		if (c->id[i] == '/' || c->id[i] == '\n')
			abort();
	if (strnlen(c->name, sizeof(c->name)) == sizeof(c->name))
		abort();
	n = strnlen(c->pod_uid, sizeof(c->pod_uid));
	if (n != 0 && n != 36)
		abort();
	if (strlen(bpfkit_container_label(c)) == 0)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* A copy of just SIZE bytes and a NUL, so reads past it are caught. */
	char *buf = malloc(size + 1);
	struct bpfkit_container c;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	check(bpfkit_container_parse(buf, &c), &c);
	check(bpfkit_container_parse_proc(buf, &c), &c);
	free(buf);
	return 0;
}
