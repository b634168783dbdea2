/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* What funclatency's two sides share: its one histogram's key. */
#ifndef FUNCLATENCY_H
#define FUNCLATENCY_H

#include "bpfkit/histogram.h"

/* The key of funclatency_hists' one histogram. */
#define FUNCLATENCY_KEY 0

#endif /* FUNCLATENCY_H */
