/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The record opensnoop sends for every completed open. */
#ifndef OPENSNOOP_H
#define OPENSNOOP_H

#include "bpfkit/channel.h"

#define OPENSNOOP_PATH_MAX 4096

/* Which syscall opened the file. */
enum opensnoop_call {
	OPENSNOOP_OPEN,
	OPENSNOOP_OPENAT,
	OPENSNOOP_OPENAT2,
};

/* Sent with only as many path bytes as the path has, NUL included. */
struct opensnoop_event {
	struct bpfkit_record rec; /* first: the time it was sent */
	__u32 pid;
	__u32 tid;
	__u32 uid;
	__s32 ret; /* the new fd, or -errno */
	__u64 flags; /* O_* flags as passed */
	__u32 mode; /* creation mode as passed */
	__u32 call; /* enum opensnoop_call */
	char comm[BPFKIT_COMM_LEN];
	char path[OPENSNOOP_PATH_MAX];
};

#endif /* OPENSNOOP_H */
