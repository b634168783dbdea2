/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Silent checks of what this kernel can attach to, made before loading, so a
 * tool can fall back or print one clear line instead of libbpf's log.
 */
#ifndef BPFKIT_KERNEL_H
#define BPFKIT_KERNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <bpf/btf.h>

/* Can kprobes (and so ksyscall programs) be attached? */
bool bpfkit_kprobes_available(void);

/* The kernel's BTF (--btf's file, or the running kernel's); NULL on failure. */
struct btf *bpfkit_kernel_btf(void);

/*
 * The kernel function that implements syscall NAME, e.g. "__x64_sys_execve"
 * on kernels with syscall wrappers, else "sys_execve", written to BUF.
 * Returns its BTF id, or -ENOENT when BTF has neither.
 */
int bpfkit_syscall_func(const struct btf *btf, const char *name, char *buf,
			size_t len);

/*
 * Load a two-instruction BPF_PROG_TYPE_TRACING program of ATTACH_TYPE on
 * kernel BTF id BTF_ID, to learn whether fentry/fexit (BPF trampolines) or
 * tp_btf work. Returns 0 or the kernel's -errno.
 */
int bpfkit_probe_tracing(enum bpf_attach_type attach_type, int btf_id);

#endif /* BPFKIT_KERNEL_H */
