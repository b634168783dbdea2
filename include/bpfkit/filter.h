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
	__u32 containers; /* --container, --host-only: BPFKIT_CONTAINERS_* */
};

/*
 * --container and --host-only: user space (user/lib/container.c) keeps a
 * verdict per (cgroup v2 id, mount namespace) in the bpfkit_containers map.
 * A task whose pair has none yet is passed to user space, which resolves its
 * container and adds the verdict (ASK: tools that send records), or left
 * out (KNOWN: tools that count in the kernel; the map is filled at load).
 */
enum {
	BPFKIT_CONTAINERS_ALL, /* no selection */
	BPFKIT_CONTAINERS_ASK,
	BPFKIT_CONTAINERS_KNOWN,
};

struct bpfkit_container_key {
	__u64 cgroup_id;
	__u32 mntns;
	__u32 pad; /* zero */
};

struct bpfkit_container_verdict {
	__u32 selected; /* 1: its tasks pass */
	__u32 pad;
	__u64 filtered; /* events the kernel left out for it */
};

/* The filter that selects every task. */
#define BPFKIT_FILTER_ALL             \
	{                             \
		.uid = BPFKIT_ANY_UID \
	}

/* Whether the filter leaves any task out (a -p, -u, -c or --cgroup given). */
static inline bool bpfkit_filter_narrows(const struct bpfkit_filter *f)
{
	return f->pid || f->uid != BPFKIT_ANY_UID || f->cgroup_id ||
	       f->comm[0] || f->containers;
}

#endif /* BPFKIT_FILTER_H */
