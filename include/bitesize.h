/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* What bitesize's two sides share: the key of its histograms. */
#ifndef BITESIZE_H
#define BITESIZE_H

#include "bpfkit/types.h"

/* A process's histogram: its pid (the histogram's name is its comm). */
typedef __u32 bitesize_key;

#endif /* BITESIZE_H */
