/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The user side every block I/O tool shares: which of the block
 * programs (include/bpfkit/blockio.bpf.h) this kernel loads, disks by
 * name and number (from /sys/block), and operation names.
 */
#ifndef BPFKIT_BLOCKIO_USER_H
#define BPFKIT_BLOCKIO_USER_H

#include <stdbool.h>
#include <stddef.h>
#include <bpf/libbpf.h>
#include "bpfkit/blockio.h"

/* The programs blockio.bpf.h defines, from the tool's skeleton. */
struct bpfkit_blockio_progs {
	struct bpf_program *io_start_btf, *io_start_raw;
	struct bpf_program *insert_btf, *insert_raw;
	struct bpf_program *issue_btf, *issue_raw;
	struct bpf_program *complete_btf, *complete_raw;
};

#define BPFKIT_BLOCKIO_PROGS(skel)                             \
	{                                                      \
		.io_start_btf = (skel)->progs.io_start_btf,    \
		.io_start_raw = (skel)->progs.io_start_raw,    \
		.insert_btf = (skel)->progs.rq_insert_btf,     \
		.insert_raw = (skel)->progs.rq_insert_raw,     \
		.issue_btf = (skel)->progs.rq_issue_btf,       \
		.issue_raw = (skel)->progs.rq_issue_raw,       \
		.complete_btf = (skel)->progs.rq_complete_btf, \
		.complete_raw = (skel)->progs.rq_complete_raw, \
	}

/*
 * Before load: keep the issue and completion programs, tp_btf where the
 * kernel loads them, else raw_tp; with QUEUED the queue program too:
 * block_io_start where the kernel has it, else block_rq_insert. Returns
 * the queue tracepoint's name (or NULL without QUEUED).
 */
const char *bpfkit_blockio_autoload(const struct bpfkit_blockio_progs *p,
				    bool queued, const char *btf_path);

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
