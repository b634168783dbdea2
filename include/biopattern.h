/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* What biopattern's two sides share: its counts per disk. */
#ifndef BIOPATTERN_H
#define BIOPATTERN_H

#include "bpfkit/types.h"

#define BIOPATTERN_MAX_DISKS 1024

/*
 * A disk's requests since tracing began, by whether each began where the
 * one before it on the disk ended (the first one seen only sets where).
 */
struct biopattern_disk {
	__u64 next_sector; /* where its last request ended; 0: none yet */
	__u64 sequential;
	__u64 random;
	__u64 bytes; /* of the requests counted as either */
};

#endif /* BIOPATTERN_H */
