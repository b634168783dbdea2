/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* What filetop's BPF side counts: reads and writes per process and file. */
#ifndef FILETOP_H
#define FILETOP_H

#include "bpfkit/files.h"

#define FILETOP_MAX_KEYS 10240

/* The kind of file, as the T column shows it. */
enum filetop_type {
	FILETOP_REGULAR, /* R */
	FILETOP_SOCKET, /* S */
	FILETOP_OTHER, /* O: pipes, devices, directories... (with -a) */
};

/* A process's file: the file by its device and inode number. */
struct filetop_key {
	__u32 pid;
	__u32 dev; /* the kernel's dev_t of the file's file system */
	__u64 ino;
};

struct filetop_val {
	__u64 reads; /* calls that returned 0 or more */
	__u64 writes;
	__u64 read_bytes;
	__u64 write_bytes;
	__u32 type; /* enum filetop_type */
	char comm[BPFKIT_COMM_LEN];
	char name[BPFKIT_NAME_LEN]; /* the file's name (its dentry's) */
};

#endif /* FILETOP_H */
