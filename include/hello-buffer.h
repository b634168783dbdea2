/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The record hello-buffer sends for every execve (the seed's data_t), and
 * the line user space prints for it; hello-config sends and prints it too.
 */
#ifndef HELLO_BUFFER_H
#define HELLO_BUFFER_H

#include "bpfkit/channel.h"

#define HELLO_MESSAGE_LEN 12 /* "Hello World" and its NUL */

struct hello_buffer_event {
	struct bpfkit_record rec; /* first: the time it was sent */
	int pid;
	int uid;
	char command[BPFKIT_COMM_LEN];
	char message[HELLO_MESSAGE_LEN];
};

#ifndef __bpf__
#include <stdio.h>
#include "channel.h"
#include "output.h"

/*
 * Print a record as the seed does, "<pid> <uid> <command> <message>", or
 * with -j as a JSON object with those keys.
 */
static inline enum bpfkit_verdict hello_buffer_print(const void *data,
						     size_t size)
{
	const struct hello_buffer_event *e = data;
	struct bpfkit_json j;

	if (size < sizeof(*e))
		return BPFKIT_UNREADABLE;
	if (bpfkit_output_json()) {
		bpfkit_json_begin(&j, stdout, &e->rec);
		bpfkit_json_int(&j, "pid", e->pid);
		bpfkit_json_int(&j, "uid", e->uid);
		bpfkit_json_str(&j, "command", e->command, sizeof(e->command));
		bpfkit_json_str(&j, "message", e->message, sizeof(e->message));
		bpfkit_json_end(&j);
		return BPFKIT_SHOWN;
	}
	bpfkit_print_time(&e->rec);
	printf("%d %d ", e->pid, e->uid);
	bpfkit_print_str(e->command, sizeof(e->command), 0);
	bpfkit_col_escape(stdout, e->message, sizeof(e->message), false);
	putchar('\n');
	return BPFKIT_SHOWN;
}
#endif /* !__bpf__ */

#endif /* HELLO_BUFFER_H */
