/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The BPF side of the common filters, included by every tool's BPF object:
 * bpfkit_selected() says whether the current task passes -p, -u, -c and
 * --cgroup, as user space wrote them into bpfkit_filter before load (and the
 * --cgroup directory into bpfkit_cgroup after it).
 */
#ifndef BPFKIT_FILTER_BPF_H
#define BPFKIT_FILTER_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include "bpfkit/filter.h"

const volatile struct bpfkit_filter bpfkit_filter = BPFKIT_FILTER_ALL;

/*
 * Slot 0 holds the --cgroup directory: bpf_current_task_under_cgroup()
 * matches it and every cgroup below it (cgroup v2 keeps processes in the
 * leaves), in every program type the tools use (tracepoint, raw_tp,
 * tp_btf, kprobe, fentry).
 */
struct {
	__uint(type, BPF_MAP_TYPE_CGROUP_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} bpfkit_cgroup SEC(".maps");

/* True when the current task passes the common filters (-p, -u, -c, --cgroup). */
static __always_inline bool bpfkit_selected(void)
{
	char comm[BPFKIT_COMM_LEN];
	int i;

	if (bpfkit_filter.pid &&
	    (bpf_get_current_pid_tgid() >> 32) != bpfkit_filter.pid)
		return false;
	if (bpfkit_filter.uid != BPFKIT_ANY_UID &&
	    (__u32)bpf_get_current_uid_gid() != bpfkit_filter.uid)
		return false;
	if (bpfkit_filter.cgroup_id &&
	    bpf_current_task_under_cgroup(&bpfkit_cgroup, 0) != 1)
		return false;
	if (!bpfkit_filter.comm[0])
		return true;
	bpf_get_current_comm(comm, sizeof(comm));
	for (i = 0; i < BPFKIT_COMM_LEN; i++) {
		if (comm[i] != bpfkit_filter.comm[i])
			return false;
		if (!comm[i])
			break;
	}
	return true;
}

/* True when -p, -u, -c or --cgroup leaves some task out. */
static __always_inline bool bpfkit_filtering(void)
{
	return bpfkit_filter.pid || bpfkit_filter.uid != BPFKIT_ANY_UID ||
	       bpfkit_filter.cgroup_id || bpfkit_filter.comm[0];
}

#define BPFKIT_CGROUP_MAX_DEPTH 16 /* levels task_in_cgroup() climbs */

/*
 * Is task T in cgroup v2 ID or below it? Climbs from T's cgroup through
 * its parents (cgroup.self.parent), as --cgroup selects the subtree.
 */
static __always_inline bool task_in_cgroup(const struct task_struct *t,
					   __u64 id)
{
	__u32 self = bpf_core_field_offset(struct cgroup, self);
	struct cgroup *cg = BPF_CORE_READ(t, cgroups, dfl_cgrp);
	struct cgroup_subsys_state *css;
	int i;

	for (i = 0; i < BPFKIT_CGROUP_MAX_DEPTH && cg; i++) {
		if (BPF_CORE_READ(cg, kn, id) == id)
			return true;
		css = BPF_CORE_READ(cg, self.parent);
		cg = css ? (void *)css - self : NULL;
	}
	return false;
}

/*
 * True when task T passes the common filters: for tools that account a
 * task other than the current one (the task being woken, switched in).
 */
static __always_inline bool bpfkit_task_selected(const struct task_struct *t)
{
	char comm[BPFKIT_COMM_LEN];
	int i;

	if (bpfkit_filter.pid && BPF_CORE_READ(t, tgid) != bpfkit_filter.pid)
		return false;
	if (bpfkit_filter.uid != BPFKIT_ANY_UID &&
	    BPF_CORE_READ(t, cred, uid.val) != bpfkit_filter.uid)
		return false;
	if (bpfkit_filter.cgroup_id &&
	    !task_in_cgroup(t, bpfkit_filter.cgroup_id))
		return false;
	if (!bpfkit_filter.comm[0])
		return true;
	BPF_CORE_READ_STR_INTO(&comm, t, comm);
	for (i = 0; i < BPFKIT_COMM_LEN; i++) {
		if (comm[i] != bpfkit_filter.comm[i])
			return false;
		if (!comm[i])
			break;
	}
	return true;
}

#endif /* BPFKIT_FILTER_BPF_H */
