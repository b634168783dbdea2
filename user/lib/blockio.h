/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The user side every block I/O tool shares: the queue program the block
 * programs (include/bpfkit/blockio.bpf.h) take on this kernel, disks by
 * name and number (from /sys/block), and operation names.
 */
#ifndef BPFKIT_BLOCKIO_USER_H
#define BPFKIT_BLOCKIO_USER_H

#include <stdbool.h>
#include <stddef.h>
#include <bpf/libbpf.h>
#include "bpfkit/blockio.h"

/*
 * Before load: keep a queue program only with QUEUED: IO_START where the
 * kernel has block_io_start (Linux 6.5 on), else INSERT (block_rq_insert).
 */
void bpfkit_blockio_prepare(struct bpf_program *io_start,
			    struct bpf_program *insert, bool queued);

/* DEV's disk name from /sys/dev/block/MAJ:MIN (else "MAJ:MIN") into BUF. */
void bpfkit_disk_name(__u32 dev, char *buf, size_t len);

/*
 * The dev_t of disk NAME (as in /sys/block/NAME), for -d; reports a bad
 * name in one line and returns -errno.
 */
int bpfkit_disk_dev(const char *option, const char *name, __u32 *dev);

/* "Read", "Write", "Flush"..., with "Sync-", "FUA-"... flags before it. */
void bpfkit_rq_op_name(__u32 op, char *buf, size_t len);

#endif /* BPFKIT_BLOCKIO_USER_H */
