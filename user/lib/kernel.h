/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The running kernel, asked before load: its BTF as libbpf parses it, its
 * release, the map flags and program types it allows.
 */
#ifndef BPFKIT_KERNEL_H
#define BPFKIT_KERNEL_H

#include <stdbool.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

/* The running kernel's BTF. */
#define BPFKIT_KERNEL_BTF "/sys/kernel/btf/vmlinux"

/*
 * The kernel's BTF, as libbpf parses it: BTF_PATH's if set (--btf), else
 * the running kernel's; NULL (errno set) on failure. Loaded at most once
 * per process and kept until bpfkit_btf_release() (bpfkit_load() calls
 * it before loading): every question a tool asks before load shares it.
 */
const struct btf *bpfkit_kernel_btf(const char *btf_path);

/*
 * Let go of the kernel's BTF (bpfkit_kernel_btf()): bpfkit_load() calls it
 * before loading, so that a tool runs without it in memory.
 */
void bpfkit_btf_release(void);

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

/*
 * Load a two-instruction BPF_PROG_TYPE_TRACING program of ATTACH_TYPE on
 * kernel BTF id BTF_ID, to learn whether fentry/fexit (BPF trampolines) or
 * tp_btf work. Returns 0 or the kernel's -errno.
 */
int bpfkit_probe_tracing(enum bpf_attach_type attach_type, int btf_id);

#endif /* BPFKIT_KERNEL_H */
