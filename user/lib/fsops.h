/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The user side the file system tools share (fsslower, fsdist): their -t
 * option, the programs of include/bpfkit/fsops.bpf.h kept for the
 * syscalls this kernel has, and the operations' names.
 *
 *	case 't': return bpfkit_fs_parse_types(arg, &types);	the parser
 *	err = bpfkit_fs_prepare(skel->skeleton, &types);	before load
 */
#ifndef BPFKIT_FSOPS_USER_H
#define BPFKIT_FSOPS_USER_H

#include <bpf/libbpf.h>
#include "bpfkit/fsops.h"

/* The -t option's entry in a tool's argp options. */
#define BPFKIT_FS_TYPES_OPTION                                                 \
	{                                                                      \
		"type", 't', "TYPES", 0,                                       \
			"Trace these file system types only, comma-separated " \
			"(ext4,xfs,tmpfs)",                                    \
			0                                                      \
	}

/*
 * Parse -t's ARG into *TYPES: up to BPFKIT_FS_MAX_TYPES names of
 * lower-case letters, digits and underscores, each shorter than
 * BPFKIT_FS_TYPE_LEN, zero-padded; a bad one is refused in one line
 * (EINVAL, exit 2 from the parser).
 */
int bpfkit_fs_parse_types(const char *arg, struct bpfkit_fs_types *types);

/*
 * Before load: keep the programs of the syscalls this kernel has (saying
 * so in one line when it has none) and write TYPES (-t's; none: all) into
 * S's .rodata. Returns 0 or -errno.
 */
int bpfkit_fs_prepare(struct bpf_object_skeleton *s,
		      const struct bpfkit_fs_types *types);

/* "read", "write", "open", "fsync"; "?" for another value. */
const char *bpfkit_fs_op_name(__u32 op);

#endif /* BPFKIT_FSOPS_USER_H */
