/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * What the run-queue wait tools' two sides share (runqlat, runqslower):
 * the size of the table of queued threads (bpfkit/runq.bpf.h).
 */
#ifndef BPFKIT_RUNQ_H
#define BPFKIT_RUNQ_H

#define BPFKIT_RUNQ_SLOTS \
	65536 /* slots for queued threads, by tid modulo this */

#endif /* BPFKIT_RUNQ_H */
