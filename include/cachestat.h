/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* What cachestat's two sides share: the counts it keeps, per CPU. */
#ifndef CACHESTAT_H
#define CACHESTAT_H

#include "bpfkit/types.h"

/* Pages since the start, on one CPU; user space sums the CPUs. */
struct cachestat_counts {
	__u64 added; /* added to the page cache */
	__u64 deleted; /* deleted from it */
	__u64 dirtied; /* marked dirty */
};

#endif /* CACHESTAT_H */
