/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The record the storm test program sends for every getppid(2). */
#ifndef STORM_H
#define STORM_H

#include "bpfkit/channel.h"

struct storm_event {
	struct bpfkit_record rec; /* first: the time it was sent */
	int pid;
	int uid;
	char comm[BPFKIT_COMM_LEN];
	char message[12];
};

#endif /* STORM_H */
