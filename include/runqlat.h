/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* What runqlat's two sides share: the run-queue room's table of queued threads. */
#ifndef RUNQLAT_H
#define RUNQLAT_H

#include "bpfkit/runq.h"

#endif /* RUNQLAT_H */
