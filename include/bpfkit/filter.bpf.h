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

/*
 * --container, --host-only: the verdicts user space keeps (filter.h).
 * Preallocated (a tracing program's BPF_F_NO_PREALLOC map taints kernels
 * before Linux 6.1, and PREEMPT_RT ones refuse it): one entry unless user
 * space sizes it for a selection (bpfkit_container_prepare()).
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1);
	__type(key, struct bpfkit_container_key);
	__type(value, struct bpfkit_container_verdict);
} bpfkit_containers SEC(".maps");

/*
 * Does a task in cgroup v2 CGROUP_ID and mount namespace MNTNS pass
 * --container / --host-only? Left out, it is counted in its verdict.
 */
static __always_inline bool bpfkit_container_pass(__u64 cgroup_id, __u32 mntns)
{
	struct bpfkit_container_key key = { .cgroup_id = cgroup_id,
					    .mntns = mntns };
	struct bpfkit_container_verdict *v;

	v = bpf_map_lookup_elem(&bpfkit_containers, &key);
	if (!v)
		return bpfkit_filter.containers == BPFKIT_CONTAINERS_ASK;
	if (v->selected)
		return true;
	__sync_fetch_and_add(&v->filtered, 1);
	return false;
}

/*
 * Does task T pass --container / --host-only (its cgroup v2 and its mount
 * namespace)? Asked last, once every other filter passed it, so that what
 * it leaves out is counted only if it would have been shown.
 */
static __always_inline bool
bpfkit_task_container_pass(const struct task_struct *t)
{
	if (!bpfkit_filter.containers)
		return true;
	return bpfkit_container_pass(
		BPF_CORE_READ(t, cgroups, dfl_cgrp, kn, id),
		BPF_CORE_READ(t, nsproxy, mnt_ns, ns.inum));
}

/* The same for the current task. */
static __always_inline bool bpfkit_current_container_pass(void)
{
	/* The flag first: no helper call when nothing selects containers. */
	if (!bpfkit_filter.containers)
		return true;
	return bpfkit_task_container_pass(
		(struct task_struct *)bpf_get_current_task());
}

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
		return bpfkit_current_container_pass();
	bpf_get_current_comm(comm, sizeof(comm));
	for (i = 0; i < BPFKIT_COMM_LEN; i++) {
		if (comm[i] != bpfkit_filter.comm[i])
			return false;
		if (!comm[i])
			break;
	}
	return bpfkit_current_container_pass();
}

/* True when -p, -u, -c or --cgroup leaves some task out. */
static __always_inline bool bpfkit_filtering(void)
{
	return bpfkit_filter.pid || bpfkit_filter.uid != BPFKIT_ANY_UID ||
	       bpfkit_filter.cgroup_id || bpfkit_filter.comm[0] ||
	       bpfkit_filter.containers;
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
		return bpfkit_task_container_pass(t);
	BPF_CORE_READ_STR_INTO(&comm, t, comm);
	for (i = 0; i < BPFKIT_COMM_LEN; i++) {
		if (comm[i] != bpfkit_filter.comm[i])
			return false;
		if (!comm[i])
			break;
	}
	return bpfkit_task_container_pass(t);
}

#endif /* BPFKIT_FILTER_BPF_H */
