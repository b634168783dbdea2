/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The records filelife sends: a file created by an open, and a name
 * unlinked; user space pairs them by path.
 */
#ifndef FILELIFE_H
#define FILELIFE_H

#include "bpfkit/channel.h"
#include "bpfkit/files.h"

#define FILELIFE_PATH_MAX 4096

enum filelife_kind {
	FILELIFE_CREATE, /* an open (open, openat, openat2, creat) created it */
	FILELIFE_UNLINK, /* unlink or unlinkat (not AT_REMOVEDIR) removed it */
};

/*
 * Sent with only the bytes it holds: an unlink's path (path_len bytes), then
 * depth names, BPFKIT_NAME_LEN bytes each.
 */
struct filelife_event {
	struct bpfkit_record rec; /* first: the time it was sent */
	__u32 pid;
	__u32 tid;
	__u32 uid;
	__u32 kind; /* enum filelife_kind */
	__u32 depth; /* names held */
	__u32 path_len; /* an unlink's path, as given, NUL included; 0 */
	char comm[BPFKIT_COMM_LEN];
	/*
	 * The path, then the names, leaf first: a create's file; an
	 * unlink's base, where its path starts (the task's root, working
	 * directory or directory fd).
	 */
	char data[FILELIFE_PATH_MAX + BPFKIT_PATH_DEPTH * BPFKIT_NAME_LEN];
};

#endif /* FILELIFE_H */
