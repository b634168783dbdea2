/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * What every record a tool's two sides share builds on: the kernel's
 * fixed-size types (from vmlinux.h on the BPF side) and the kernel's sizes.
 */
#ifndef BPFKIT_TYPES_H
#define BPFKIT_TYPES_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

/* A command name as the kernel keeps it (TASK_COMM_LEN), NUL included. */
#define BPFKIT_COMM_LEN 16

#endif /* BPFKIT_TYPES_H */
