/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Kernel functions, asked before load: where a function's code lies (from
 * /proc/kallsyms), which function implements a syscall (from BTF), and
 * whether kprobes can attach to them.
 */
#ifndef BPFKIT_KSYMS_H
#define BPFKIT_KSYMS_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include <bpf/btf.h>

/* Can kprobes (and so ksyscall programs) be attached? */
bool bpfkit_kprobes_available(void);

/*
 * The kernel function that implements syscall NAME, e.g. "__x64_sys_execve"
 * on kernels with syscall wrappers, else "sys_execve", written to BUF.
 * Returns its BTF id, or -ENOENT when BTF has neither.
 */
int bpfkit_syscall_func(const struct btf *btf, const char *name, char *buf,
			size_t len);

/* A kernel function, by name, and where its code lies once found. */
struct bpfkit_kernel_func {
	const char *name;
	__u64 start, end; /* end: the address of the symbol after it */
};

/*
 * Find the N FUNCS, the first preferred and the others its stand-ins on
 * kernels without it, in one pass over KALLSYMS (NULL: /proc/kallsyms,
 * tens of ms of the kernel's time to read whole), which stops once the
 * first is found, or all; one not found (missing, its address hidden, or
 * not needed) keeps start and end 0. Returns how many were found, or
 * -errno.
 */
int bpfkit_kernel_funcs(const char *kallsyms, struct bpfkit_kernel_func *funcs,
			size_t n);

#endif /* BPFKIT_KSYMS_H */
