/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* What runqlat's two sides share: the key of its histograms. */
#ifndef RUNQLAT_H
#define RUNQLAT_H

#include "bpfkit/types.h"

/* How runqlat keys its histograms. */
enum runqlat_key {
	RUNQLAT_ALL, /* one histogram */
	RUNQLAT_PROCESS, /* -P: by process (tgid) */
	RUNQLAT_THREAD, /* -L: by thread (tid) */
};

#define RUNQLAT_MAX_QUEUED 10240 /* tasks waiting to run, tracked at once */

#endif /* RUNQLAT_H */
