/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* What cpudist's two sides share: how many tasks it times at once. */
#ifndef CPUDIST_H
#define CPUDIST_H

#define CPUDIST_MAX_TASKS 10240 /* tasks timed at once */

#endif /* CPUDIST_H */
