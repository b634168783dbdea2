/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* What cpudist's two sides share: the key of its histograms. */
#ifndef CPUDIST_H
#define CPUDIST_H

#include "bpfkit/types.h"

/* How cpudist keys its histograms. */
enum cpudist_key {
	CPUDIST_ALL, /* one histogram */
	CPUDIST_PROCESS, /* -P: by process (tgid) */
	CPUDIST_THREAD, /* -L: by thread (tid) */
};

#define CPUDIST_MAX_TASKS 10240 /* tasks timed at once */

#endif /* CPUDIST_H */
