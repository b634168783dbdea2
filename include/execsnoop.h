/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The record execsnoop sends for every finished execve or execveat. */
#ifndef EXECSNOOP_H
#define EXECSNOOP_H

#include "bpfkit/channel.h"

#define EXECSNOOP_PATH_LEN 256
#define EXECSNOOP_ARG_LEN 128 /* longest argument kept, NUL included */
#define EXECSNOOP_MAX_ARGS 60 /* most arguments kept per exec */
#define EXECSNOOP_DEFAULT_ARGS 20
/* Room for EXECSNOOP_MAX_ARGS full arguments, a power of two for masking. */
#define EXECSNOOP_ARGS_BUF 8192

/* Flags of struct execsnoop_event. */
#define EXECSNOOP_EXECVEAT (1 << 0) /* execveat, not execve */
#define EXECSNOOP_MORE_ARGS (1 << 1) /* arguments beyond --max-args exist */
#define EXECSNOOP_LONG_ARG (1 << 2) /* an argument was cut to ARG_LEN - 1 */
#define EXECSNOOP_LONG_PATH (1 << 3) /* the path was cut to PATH_LEN - 1 */
#define EXECSNOOP_FD_PATH (1 << 4) /* empty path: ran the file open as fd */
#define EXECSNOOP_PATH_UNREADABLE (1 << 5) /* the path was not in memory */
#define EXECSNOOP_ARGS_UNREADABLE (1 << 6) /* argv was not all in memory */
#define EXECSNOOP_LONG_ARGS (1 << 7) /* argv was cut to ARGS_BUF bytes */

/*
 * Sent as the header plus the args_size used bytes of args: args holds
 * NUL-terminated argv strings, argv[0] first; the last one is cut, without
 * its NUL, with EXECSNOOP_LONG_ARGS. After a successful exec all of them,
 * from the new image; after a failed one up to max_args of them.
 */
struct execsnoop_event {
	struct bpfkit_record rec; /* first: the time it was sent */
	__u32 pid; /* tgid */
	__u32 tid; /* the thread that called exec */
	__u32 ppid;
	__u32 uid;
	__s32 ret; /* 0 or -errno */
	__s32 fd; /* execveat's dirfd */
	__u32 flags; /* EXECSNOOP_* */
	__u32 args_size;
	char comm[BPFKIT_COMM_LEN]; /* after the exec */
	char path[EXECSNOOP_PATH_LEN]; /* the path passed to exec */
	char args[EXECSNOOP_ARGS_BUF];
};

#endif /* EXECSNOOP_H */
