/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * What this kernel offers, asked before loading: privileges and BTF,
 * tracefs and its tracepoints, the cgroup v2 mount, kprobes and BPF
 * trampolines, the functions behind syscalls, where a kernel function's
 * code lies. Silent unless a function says
 * it reports.
 */
#ifndef BPFKIT_KERNEL_H
#define BPFKIT_KERNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include <sys/types.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

/* The running kernel's BTF. */
#define BPFKIT_KERNEL_BTF "/sys/kernel/btf/vmlinux"

/*
 * Check what every tool needs before it opens its object: privileges
 * (CAP_SYS_ADMIN too with USER_PROBES, a tool on uprobes or USDT probes),
 * tracefs and kernel BTF (BTF_PATH, from --btf, stands in for the kernel's).
 * Prints one line and returns -errno when something is missing.
 */
int bpfkit_preflight(const char *btf_path, bool user_probes);

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

/* The mounted tracefs directory, mounting it if needed; reports failure. */
const char *bpfkit_tracefs(void);

/* Where cgroup v2 is mounted (the first in /proc/mounts), or NULL. */
const char *bpfkit_cgroup2_mount(void);

/* Does tracepoint CATEGORY:NAME exist on this kernel? */
bool bpfkit_tracepoint_exists(const char *category, const char *name);

/*
 * 0 if tracepoint CATEGORY:NAME exists; else say "this kernel has no
 * CATEGORY:NAME tracepoint (WHY)" and return -ENOENT.
 */
int bpfkit_require_tracepoint(const char *category, const char *name,
			      const char *why);

/*
 * A syscall's programs on syscalls:sys_enter_NAME and sys_exit_NAME. An
 * exit program that several syscalls share is SEC("tracepoint"), with no
 * target of its own: bpfkit_attach_syscalls() (setup room) attaches it to
 * the exit of each.
 */
struct bpfkit_syscall_tp {
	struct bpf_program *enter, *exit;
	const char *name;
};

/*
 * Keep the programs of each of the N syscalls in TPS whose two
 * tracepoints this kernel has, drop the others' (a shared exit program is
 * kept while one of its syscalls is); call before load. When the kernel
 * has none and MISSING is set, say "this kernel has no syscalls:MISSING"
 * and return -ENOENT; 0 otherwise.
 */
int bpfkit_syscall_tps_autoload(const struct bpfkit_syscall_tp *tps, size_t n,
				const char *missing);

/* Is the running kernel Linux MAJOR.MINOR or later (uname's release)? */
bool bpfkit_kernel_at_least(unsigned int major, unsigned int minor);

/*
 * Before load: MAP, a hash map a tracing program fills, takes the kernel's
 * memory as its keys come (BPF_F_NO_PREALLOC) rather than all of it at
 * load, where the kernel allocates in any context a tracing program runs
 * in (Linux 6.1 on); a key that finds no memory fails its update. Earlier
 * kernels print a WARNING and taint themselves when a tracing program
 * uses such a map (PREEMPT_RT ones refuse it): there it stays
 * preallocated.
 */
void bpfkit_sparse_map(struct bpf_map *map);

/* Can kprobes (and so ksyscall programs) be attached? */
bool bpfkit_kprobes_available(void);

/*
 * The kernel's BTF, as libbpf parses it: BTF_PATH's if set (--btf), else
 * the running kernel's; NULL (errno set) on failure. Loaded at most once
 * per process and kept until bpfkit_btf_release() (bpfkit_load() calls
 * it before loading): every question a tool asks before load shares it.
 */
const struct btf *bpfkit_kernel_btf(const char *btf_path);

/*
 * The kernel function that implements syscall NAME, e.g. "__x64_sys_execve"
 * on kernels with syscall wrappers, else "sys_execve", written to BUF.
 * Returns its BTF id, or -ENOENT when BTF has neither.
 */
int bpfkit_syscall_func(const struct btf *btf, const char *name, char *buf,
			size_t len);

/* Whether the effective capability set holds CAP. */
bool bpfkit_has_cap(int cap);

/*
 * Load a two-instruction BPF_PROG_TYPE_TRACING program of ATTACH_TYPE on
 * kernel BTF id BTF_ID, to learn whether fentry/fexit (BPF trampolines) or
 * tp_btf work. Returns 0 or the kernel's -errno.
 */
int bpfkit_probe_tracing(enum bpf_attach_type attach_type, int btf_id);

/*
 * Keep the N programs of TP_BTF (tp_btf) when this kernel loads tp_btf
 * programs on tracepoint NAME (its btf_trace_NAME type found in
 * bpfkit_kernel_btf(BTF_PATH), and a probe program loaded on it), else
 * the N programs of RAW (raw_tp, the same code); call before load.
 * Returns whether tp_btf is kept.
 */
bool bpfkit_tp_btf_autoload(struct bpf_program *const *tp_btf,
			    struct bpf_program *const *raw, size_t n,
			    const char *btf_path, const char *name);

/*
 * Let go of the kernel's BTF (bpfkit_kernel_btf()): bpfkit_load() calls it
 * before loading, so that a tool runs without it in memory.
 */
void bpfkit_btf_release(void);

/* A kernel function, by name, and where its code lies once found. */
struct bpfkit_kernel_func {
	const char *name;
	__u64 start, end; /* end: the address of the symbol after it */
};

/*
 * Find the N FUNCS, the first preferred and the others its stand-ins on
 * kernels without it, in one pass over /proc/kallsyms (tens of ms of the
 * kernel's time to read whole), which stops once the first is found, or
 * all; one not found (missing, its address hidden, or not needed) keeps
 * start and end 0. Returns how many were found, or -errno.
 */
int bpfkit_kernel_funcs(struct bpfkit_kernel_func *funcs, size_t n);

#endif /* BPFKIT_KERNEL_H */
