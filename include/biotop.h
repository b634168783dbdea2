/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* What biotop's two sides share: its counts per process, disk and op. */
#ifndef BIOTOP_H
#define BIOTOP_H

#include "bpfkit/types.h"

#define BIOTOP_MAX_KEYS 10240

struct biotop_key {
	__u32 pid; /* the process that made (else issued) the requests */
	__u32 dev; /* the disk's dev_t */
	__u32 op; /* REQ_OP_*: 0 read, 1 write, ... (BPFKIT_RQ_OP_MASK) */
};

/* The requests of a key that completed since user space last took it. */
struct biotop_val {
	__u64 io;
	__u64 bytes;
	__u64 service_ns; /* their times from issue to completion, summed */
	char comm[BPFKIT_COMM_LEN]; /* the process's latest command */
};

#endif /* BIOTOP_H */
