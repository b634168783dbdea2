/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The record sigsnoop sends for every signal generated or kill that failed. */
#ifndef SIGSNOOP_H
#define SIGSNOOP_H

#include "bpfkit/channel.h"

/*
 * result: the kernel's enum trace_signal_result (0 delivered, 1 ignored,
 * 2 already pending, 3 overflow fail, 4 lose info), or SIGSNOOP_FAILED
 * when a kill-family syscall failed before generating any signal.
 */
#define SIGSNOOP_FAILED -1

struct sigsnoop_event {
	struct bpfkit_record rec; /* first: the time it was sent */
	__u32 pid; /* sender (current task) */
	__u32 tid;
	__u32 uid;
	__s32 tpid; /* target; for failed kills, the pid argument */
	__s32 sig;
	__s32 code; /* si_code; 0 for failed kills */
	__s32 result;
	__s32 err; /* errno of a failed kill-family syscall, else 0 */
	__u8 kill; /* sent by kill(2), tkill(2) or tgkill(2) */
	__u8 group; /* sent to the whole thread group */
	__u8 pad[2];
	char comm[BPFKIT_COMM_LEN];
	char tcomm[BPFKIT_COMM_LEN]; /* empty for failed kills */
};

#endif /* SIGSNOOP_H */
