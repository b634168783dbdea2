/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* What hardirqs' two sides share: the key of its histograms, the layout. */
#ifndef HARDIRQS_H
#define HARDIRQS_H

#include "bpfkit/layout.h"
#include "bpfkit/types.h"

#define HARDIRQS_NAME_LEN 32 /* of an IRQ handler's name, NUL included */
#define HARDIRQS_ANY_CPU ((__u32)-1) /* the cpu of keys without -C */

struct hardirqs_key {
	char name[HARDIRQS_NAME_LEN]; /* the handler's name, as in /proc/interrupts */
	__s32 irq;
	__u32 cpu; /* with -C; else HARDIRQS_ANY_CPU */
};

/*
 * The kernel struct member the BPF side reads at its offset from the
 * kernel's BTF, without CO-RE (bpfkit/layout.h): X(struct, member, bytes).
 */
#define HARDIRQS_MEMBERS(X) X(irqaction, name, sizeof(void *))

struct hardirqs_layout {
	HARDIRQS_MEMBERS(BPFKIT_LAYOUT_OFFSET)
};

#endif /* HARDIRQS_H */
