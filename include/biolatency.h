/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* What biolatency's two sides share: the key of its histograms. */
#ifndef BIOLATENCY_H
#define BIOLATENCY_H

#include "bpfkit/types.h"

/* 0 in a field the options do not key by. */
struct biolatency_key {
	__u32 dev; /* -D: the disk's dev_t */
	__u32 op; /* -F: operation and flags, BPFKIT_RQ_* */
};

#endif /* BIOLATENCY_H */
