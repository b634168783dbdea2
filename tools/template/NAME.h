/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The record @NAME@ sends from the kernel at every @TRACEPOINT@. */
#ifndef @GUARD@_H
#define @GUARD@_H

/* The BPF side gets these types from vmlinux.h, user space from here. */
#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

struct event {
	__u32 pid; /* process id (the tgid) */
	__u32 uid; /* real user id */
	char comm[16]; /* command name, NUL-terminated */
};

#endif /* @GUARD@_H */
