/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The record statsnoop sends for every completed stat-family call. */
#ifndef STATSNOOP_H
#define STATSNOOP_H

#include "bpfkit/channel.h"

#define STATSNOOP_PATH_MAX 4096

/* Which syscall asked. */
enum statsnoop_call {
	STATSNOOP_STAT, /* stat, or newstat on 64-bit machines */
	STATSNOOP_LSTAT, /* lstat, newlstat */
	STATSNOOP_FSTATAT, /* newfstatat, fstatat64 */
	STATSNOOP_STATX,
	STATSNOOP_CALLS,
};

/* Sent with only as many path bytes as the path has, NUL included. */
struct statsnoop_event {
	struct bpfkit_record rec; /* first: the time it was sent */
	__u32 pid;
	__u32 tid;
	__u32 uid;
	__s32 ret; /* 0, or -errno */
	__s32 dfd; /* the directory fd for fstatat and statx, else AT_FDCWD */
	__u32 flags; /* AT_* flags for fstatat and statx, else 0 */
	__u32 call; /* enum statsnoop_call */
	char comm[BPFKIT_COMM_LEN];
	char path[STATSNOOP_PATH_MAX];
};

#endif /* STATSNOOP_H */
