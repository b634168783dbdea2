/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The user side every block I/O tool shares: the request layout and
 * queue program the block programs (include/bpfkit/blockio.bpf.h) take
 * on this kernel, disks by name and number (from /sys/block), and
 * operation names.
 */
#ifndef BPFKIT_BLOCKIO_USER_H
#define BPFKIT_BLOCKIO_USER_H

#include <stdbool.h>
#include <stddef.h>
#include <bpf/libbpf.h>
#include "bpfkit/blockio.h"
#include "bpfkit/layout.h"

/*
 * Before load: fill *L, the object's bpfkit_rq_layout, from the kernel's
 * BTF (BTF_PATH's, NULL: the running kernel's), the request flags as
 * masks; keep a queue program only with QUEUED: IO_START where the kernel
 * has block_io_start, else INSERT (block_rq_insert). Returns 0, or -errno
 * said in one line.
 */
int bpfkit_blockio_prepare(struct bpfkit_rq_layout *l,
			   struct bpf_program *io_start,
			   struct bpf_program *insert, bool queued,
			   const char *btf_path);

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
