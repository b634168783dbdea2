/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* What runqlat's two sides share: the size of its table of queued threads. */
#ifndef RUNQLAT_H
#define RUNQLAT_H

#define RUNQLAT_SLOTS 65536 /* slots for queued threads, by tid modulo this */

#endif /* RUNQLAT_H */
