/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* What softirqs' two sides share: the key of its histograms. */
#ifndef SOFTIRQS_H
#define SOFTIRQS_H

#include "bpfkit/histogram.h"

struct softirqs_key {
	__u32 vec; /* the softirq's number (NET_RX_SOFTIRQ...) */
	__u32 cpu; /* with -C; else BPFKIT_HIST_ANY_CPU */
};

#endif /* SOFTIRQS_H */
