/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * What runqlen's two sides share: its histogram of run queue lengths, one
 * per CPU (a per-CPU array of one struct bpfkit_hist), one bucket per
 * length.
 */
#ifndef RUNQLEN_H
#define RUNQLEN_H

#include "bpfkit/histogram.h"

#define RUNQLEN_MAX (BPFKIT_HIST_SLOTS - 1) /* the last bucket: this or more */

#endif /* RUNQLEN_H */
