/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The common filters (-p, -u, -c, --cgroup) as both sides of every tool
 * see them: user space writes them into the object's read-only
 * bpfkit_filter before load (and the --cgroup directory into the
 * bpfkit_cgroup map after it), bpfkit_selected() (filter.bpf.h) applies them.
 */
#ifndef BPFKIT_FILTER_H
#define BPFKIT_FILTER_H

#include "bpfkit/types.h"

#ifndef __VMLINUX_H__
#include <stdbool.h>
#endif

#define BPFKIT_ANY_UID ((__u32)-1)

struct bpfkit_filter {
	__u32 pid; /* trace this process (tgid) only; 0: all */
	__u32 uid; /* trace this user only; BPFKIT_ANY_UID: all */
	__u64 cgroup_id; /* trace this cgroup v2 and its subtree; 0: all */
	char comm[BPFKIT_COMM_LEN]; /* trace this command only; "": all */
};

/* The filter that selects every task. */
#define BPFKIT_FILTER_ALL             \
	{                             \
		.uid = BPFKIT_ANY_UID \
	}

/* Whether the filter leaves any task out (a -p, -u, -c or --cgroup given). */
static inline bool bpfkit_filter_narrows(const struct bpfkit_filter *f)
{
	return f->pid || f->uid != BPFKIT_ANY_UID || f->cgroup_id || f->comm[0];
}

#endif /* BPFKIT_FILTER_H */
