/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * What both sides of a file system tool (fsslower, fsdist) agree on: the
 * operations they time, and the file system types -t keeps, by the names
 * the kernel gives them (struct file_system_type's: ext4, xfs, tmpfs).
 */
#ifndef BPFKIT_FSOPS_H
#define BPFKIT_FSOPS_H

#include "bpfkit/types.h"

#define BPFKIT_FS_TYPE_LEN 16 /* a type's name and its NUL, zero-padded */
#define BPFKIT_FS_MAX_TYPES 8 /* types -t may name */
#define BPFKIT_FS_NAME_LEN 256 /* a file's name (NAME_MAX) and its NUL */

/* The operations timed, whichever syscall made them. */
enum bpfkit_fs_op {
	BPFKIT_FS_READ, /* read, pread64 */
	BPFKIT_FS_WRITE, /* write, pwrite64 */
	BPFKIT_FS_OPEN, /* open, openat, openat2 */
	BPFKIT_FS_FSYNC, /* fsync, fdatasync */
	BPFKIT_FS_OPS,
};

/* -t: the types traced; none (n 0): every type. Set before load. */
struct bpfkit_fs_types {
	__u64 n; /* 64 bits: the names 8-byte aligned, compared by words */
	char names[BPFKIT_FS_MAX_TYPES][BPFKIT_FS_TYPE_LEN];
};

#endif /* BPFKIT_FSOPS_H */
