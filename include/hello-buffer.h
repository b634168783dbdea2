/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The record hello-buffer sends for every execve, and its settings. */
#ifndef HELLO_BUFFER_H
#define HELLO_BUFFER_H

#include "bpfkit/channel.h"

#define HB_MESSAGE_LEN 12 /* 11 bytes of text and a NUL */
#define HB_PATH_LEN 256 /* longer execve filenames are cut short */
#define HB_MAX_MESSAGES 64 /* -m entries */

/* The program that saw the execve; in the order --attach=auto tries them. */
enum hb_attach {
	HB_TRACEPOINT,
	HB_TP_BTF,
	HB_RAW_TP,
	HB_FENTRY,
	HB_KSYSCALL,
	HB_KPROBE,
	HB_ATTACH_COUNT,
};

struct hello_buffer_event {
	struct bpfkit_record rec; /* first: the time it was sent */
	int pid;
	int uid;
	char command[BPFKIT_COMM_LEN];
	char message[HB_MESSAGE_LEN];
	int attach; /* enum hb_attach */
	char path[HB_PATH_LEN]; /* execve's filename argument */
};

#endif /* HELLO_BUFFER_H */
