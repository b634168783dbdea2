/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Privileges: what a tool needs is checked before it opens its object
 * (with tracefs and kernel BTF), and given up once it is attached
 * (--drop-privileges).
 */
#ifndef BPFKIT_PRIVS_H
#define BPFKIT_PRIVS_H

#include <stdbool.h>
#include <linux/types.h>
#include <sys/types.h>

/*
 * Check what every tool needs before it opens its object: privileges
 * (CAP_SYS_ADMIN too with USER_PROBES, a tool on uprobes or USDT probes),
 * tracefs and kernel BTF (BTF_PATH, from --btf, stands in for the kernel's).
 * Prints one line and returns -errno when something is missing.
 */
int bpfkit_preflight(const char *btf_path, bool user_probes);

/*
 * What an effective capability set EFFECTIVE (bit N: capability N) lacks
 * to load and read BPF (CAP_BPF and CAP_PERFMON, or CAP_SYS_ADMIN) and,
 * with USER_PROBES, to open user probes (CAP_SYS_ADMIN: the kernel's uprobe
 * PMU opens its perf events for nothing less), named for a message; NULL
 * when it lacks nothing.
 */
const char *bpfkit_caps_missing(__u64 effective, bool user_probes);

/* Whether the effective capability set holds CAP. */
bool bpfkit_has_cap(int cap);

/* --drop-privileges USER: whom a tool becomes once attached. */
struct bpfkit_drop_opts {
	const char *user; /* NULL: stay as started */
	uid_t uid;
	gid_t gid;
};

/*
 * Become DROP's user (its groups, then its gid and uid) and give up every
 * capability: the effective, permitted, inheritable, ambient and (where
 * CAP_SETPCAP allows) bounding sets emptied, no_new_privs set. Only
 * CAP_BPF is kept, where this kernel's bpf() refuses even the commands on
 * objects already held without it (before Linux 6.5, with
 * kernel.unprivileged_bpf_disabled set). Call once nothing else needs
 * privileges: programs attached, buffers mapped, sockets bound. A no-op
 * without DROP->user; else reports failure in one line, returns -errno.
 */
int bpfkit_drop_privileges(const struct bpfkit_drop_opts *drop);

#endif /* BPFKIT_PRIVS_H */
