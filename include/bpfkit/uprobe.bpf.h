/* SPDX-License-Identifier: GPL-2.0 */
/*
 * For user probes (uprobe, uretprobe): libbpf's BPF_KPROBE() and
 * BPF_KRETPROBE() read the registers without CO-RE relocations, in place
 * of <bpf/bpf_tracing.h>, which a user-probe tool includes through this.
 *
 * With vmlinux.h's struct pt_regs, each register read is a CO-RE
 * relocation, and for it libbpf parses the whole kernel BTF at load, which
 * a user-probe tool needs for nothing else. On x86-64 the registers' layout
 * is the ptrace ABI (struct user_regs_struct), fixed on every kernel, so
 * they are read through a copy of it declared outside vmlinux.h; other
 * architectures keep bpf_tracing.h's CO-RE reads.
 */
#ifndef BPFKIT_UPROBE_BPF_H
#define BPFKIT_UPROBE_BPF_H

#include "vmlinux.h"

#if defined(__TARGET_ARCH_x86)
/* struct pt_regs of x86-64, named as the kernel names its members. */
struct bpfkit_pt_regs {
	unsigned long r15, r14, r13, r12, bp, bx, r11, r10, r9, r8;
	unsigned long ax, cx, dx, si, di, orig_ax, ip, cs, flags, sp, ss;
};

#define __PT_REGS_CAST(x) ((const struct bpfkit_pt_regs *)(x))
#endif

#include <bpf/bpf_tracing.h>

#endif /* BPFKIT_UPROBE_BPF_H */
