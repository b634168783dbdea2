/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* What runqlat's two sides share: how many queued tasks it tracks. */
#ifndef RUNQLAT_H
#define RUNQLAT_H

#define RUNQLAT_MAX_QUEUED 10240 /* tasks waiting to run, tracked at once */

#endif /* RUNQLAT_H */
