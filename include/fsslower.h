/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The record fsslower sends for every file system operation slower than -m. */
#ifndef FSSLOWER_H
#define FSSLOWER_H

#include "bpfkit/channel.h"
#include "bpfkit/fsops.h"

/* Sent with only as many name bytes as the name has, NUL included. */
struct fsslower_event {
	struct bpfkit_record rec; /* first: the time it was sent */
	__u64 ns; /* the call's time, entry to exit */
	__s64 ret; /* bytes read or written, the new fd, 0, or -errno */
	__s64 offset; /* a read's or write's file offset; else -1 */
	__u32 pid;
	__u32 tid;
	__u32 uid;
	__u32 op; /* enum bpfkit_fs_op */
	char comm[BPFKIT_COMM_LEN];
	/* the file system type's name; aligned: compared by words */
	char fstype[BPFKIT_FS_TYPE_LEN] __attribute__((aligned(8)));
	char file[BPFKIT_FS_NAME_LEN]; /* the file's name (its last component) */
};

#endif /* FSSLOWER_H */
