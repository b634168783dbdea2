/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* What wakeuptime's two sides share: how many tasks it follows at once. */
#ifndef WAKEUPTIME_H
#define WAKEUPTIME_H

#include "bpfkit/stacks.h"

#define WAKEUPTIME_MAX_BLOCKED 10240 /* tasks off the CPU tracked at once */

#endif /* WAKEUPTIME_H */
