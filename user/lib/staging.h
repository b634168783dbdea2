/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The staging map of a tool that keeps a call's state from its start to
 * its end (bpfkit/staging.bpf.h), chosen before load.
 */
#ifndef BPFKIT_STAGING_H
#define BPFKIT_STAGING_H

#include <stdbool.h>
#include <bpf/libbpf.h>

/* The map's name in every tool's object. */
#define BPFKIT_STAGING_MAP "bpfkit_staging"

/*
 * Make OBJ's staging map, if it has one, the task's own storage where the
 * kernel lets tracing programs use it (Linux 5.11 on) and is not
 * PREEMPT_RT (which must not allocate where tracing programs run), and
 * say so in *TASK_STORAGE, the object's .rodata; else, or with KEEP_HASH
 * (a test that shrinks the map to fill it), it stays the preallocated
 * hash the object declares. Returns 0 or a negative errno, reported.
 */
int bpfkit_staging_prepare(struct bpf_object *obj, volatile bool *task_storage,
			   bool keep_hash);

#endif /* BPFKIT_STAGING_H */
