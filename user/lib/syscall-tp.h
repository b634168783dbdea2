/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Load a syscall's entry and exit programs only where the kernel has both. */
#ifndef BPFKIT_SYSCALL_TP_H
#define BPFKIT_SYSCALL_TP_H

#include <stdbool.h>
#include <bpf/libbpf.h>

/*
 * Keep ENTER and EXIT (programs on syscalls:sys_enter_NAME and
 * sys_exit_NAME) in the object when both tracepoints exist, drop them
 * otherwise. Call before load; returns whether they are kept.
 */
bool bpfkit_syscall_tp_autoload(struct bpf_program *enter,
				struct bpf_program *exit, const char *name);

#endif /* BPFKIT_SYSCALL_TP_H */
