/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The record mountsnoop sends for every completed mount-family call. */
#ifndef MOUNTSNOOP_H
#define MOUNTSNOOP_H

#include "bpfkit/channel.h"

#define MOUNTSNOOP_PATH_MAX 1024
#define MOUNTSNOOP_NAME_MAX 64
#define MOUNTSNOOP_DATA_MAX 256

/* Which syscall was made. */
enum mountsnoop_call {
	MOUNTSNOOP_MOUNT,
	MOUNTSNOOP_UMOUNT, /* umount2(2) */
	MOUNTSNOOP_FSOPEN,
	MOUNTSNOOP_FSCONFIG,
	MOUNTSNOOP_FSMOUNT,
	MOUNTSNOOP_MOVE_MOUNT,
	MOUNTSNOOP_OPEN_TREE,
	MOUNTSNOOP_CALLS,
};

/*
 * The arguments as each call has them; strings the call does not take are
 * empty, numbers it does not take are 0.
 *
 *	mount(source, target, fstype, flags, data)
 *	umount2(target, flags)
 *	fsopen(fstype, flags)
 *	fsconfig(fd, aux = cmd, fstype = key, source = value, fd2 = aux)
 *	fsmount(fd, flags, aux = attr_flags)
 *	move_mount(fd, source, fd2, target, flags)
 *	open_tree(fd, source, flags)
 */
struct mountsnoop_event {
	struct bpfkit_record rec; /* first: the time it was sent */
	__u32 pid;
	__u32 tid;
	__u32 uid;
	__s32 ret; /* 0 or a new fd, or -errno */
	__u32 mnt_ns; /* the caller's mount namespace (inode number) */
	__u32 call; /* enum mountsnoop_call */
	__u64 flags;
	__u64 aux;
	__s32 fd;
	__s32 fd2;
	char comm[BPFKIT_COMM_LEN];
	char fstype[MOUNTSNOOP_NAME_MAX];
	char source[MOUNTSNOOP_PATH_MAX];
	char target[MOUNTSNOOP_PATH_MAX];
	char data[MOUNTSNOOP_DATA_MAX];
};

#endif /* MOUNTSNOOP_H */
