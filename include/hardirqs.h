/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* What hardirqs' two sides share: the key of its histograms. */
#ifndef HARDIRQS_H
#define HARDIRQS_H

#include "bpfkit/histogram.h"

#define HARDIRQS_NAME_LEN 32 /* of an IRQ handler's name, NUL included */

struct hardirqs_key {
	char name[HARDIRQS_NAME_LEN]; /* the handler's name, as in /proc/interrupts */
	__s32 irq;
	__u32 cpu; /* with -C; else BPFKIT_HIST_ANY_CPU */
};

#endif /* HARDIRQS_H */
