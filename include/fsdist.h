/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* What fsdist's two sides share: the key of its histograms. */
#ifndef FSDIST_H
#define FSDIST_H

#include "bpfkit/fsops.h"

/* A histogram per file system type and operation. */
struct fsdist_key {
	/* the type's name, zero-padded; aligned: compared by words */
	char fstype[BPFKIT_FS_TYPE_LEN] __attribute__((aligned(8)));
	__u64 op; /* enum bpfkit_fs_op; 64 bits: a key without padding */
};

#endif /* FSDIST_H */
