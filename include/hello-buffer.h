/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The record hello-buffer sends for every execve. */
#ifndef HELLO_BUFFER_H
#define HELLO_BUFFER_H

struct data_t {
	int pid;
	int uid;
	char command[16];
	char message[12];
};

#endif /* HELLO_BUFFER_H */
