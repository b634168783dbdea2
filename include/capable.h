/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The record capable sends for every capability check. */
#ifndef CAPABLE_H
#define CAPABLE_H

#include "bpfkit/channel.h"

struct capable_event {
	struct bpfkit_record rec; /* first: the time it was sent */
	__u32 pid; /* the checked task's process id (the tgid) */
	__u32 tid;
	__u32 uid; /* its real user id */
	__s32 cap; /* the capability's number (CAP_CHOWN is 0) */
	__s32 ret; /* the check's result: 0 granted, -EPERM denied */
	char comm[BPFKIT_COMM_LEN];
};

#endif /* CAPABLE_H */
