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
 * A create is sent without its path; an unlink with only as many path
 * bytes as the path has, NUL included.
 */
struct filelife_event {
	struct bpfkit_record rec; /* first: the time it was sent */
	__u32 pid;
	__u32 tid;
	__u32 uid;
	__u32 kind; /* enum filelife_kind */
	__u32 depth; /* names held */
	char comm[BPFKIT_COMM_LEN];
	/*
	 * Leaf first: a create's file; an unlink's base, where its path
	 * starts (the task's root, working directory or directory fd).
	 */
	char names[BPFKIT_PATH_DEPTH][BPFKIT_NAME_LEN];
	char path[FILELIFE_PATH_MAX]; /* an unlink's path, as given */
};

#endif /* FILELIFE_H */
