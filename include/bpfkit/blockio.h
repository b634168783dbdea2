/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * What both sides of a block I/O tool agree on: a disk as the kernel's
 * dev_t (MAJOR << 20 | MINOR), and a request's operation and flags in a
 * form that does not depend on the kernel's bit numbers.
 */
#ifndef BPFKIT_BLOCKIO_H
#define BPFKIT_BLOCKIO_H

#include "bpfkit/types.h"

#define BPFKIT_MINOR_BITS 20
#define BPFKIT_DEV_MAJOR(dev) ((dev) >> BPFKIT_MINOR_BITS)
#define BPFKIT_DEV_MINOR(dev) ((dev) & ((1U << BPFKIT_MINOR_BITS) - 1))

/* A request's operation: REQ_OP_* in the low byte, these flags above. */
#define BPFKIT_RQ_OP_MASK 0xff
#define BPFKIT_RQ_SYNC (1U << 8)
#define BPFKIT_RQ_META (1U << 9)
#define BPFKIT_RQ_FUA (1U << 10)
#define BPFKIT_RQ_PREFLUSH (1U << 11)
#define BPFKIT_RQ_RAHEAD (1U << 12)

#endif /* BPFKIT_BLOCKIO_H */
