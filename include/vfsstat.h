/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* What vfsstat's BPF side counts: file calls, by kind, in a per-CPU array. */
#ifndef VFSSTAT_H
#define VFSSTAT_H

#include "bpfkit/types.h"

/* The kinds of call counted: the keys of the counts array. */
enum vfsstat_op {
	VFSSTAT_READ, /* read, readv, pread64, preadv, preadv2 */
	VFSSTAT_WRITE, /* write, writev, pwrite64, pwritev, pwritev2 */
	VFSSTAT_FSYNC, /* fsync, fdatasync */
	VFSSTAT_OPEN, /* open, openat, openat2, creat */
	VFSSTAT_CREATE, /* creat, and the opens with O_CREAT */
	VFSSTAT_OPS,
};

#endif /* VFSSTAT_H */
