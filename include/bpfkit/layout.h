/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Kernel struct members a tool's BPF side reads at byte offsets user space
 * finds in the kernel's BTF at start (bpfkit_read_layout(), kernel
 * room), instead of by CO-RE: libbpf then does not parse and search the
 * whole kernel BTF at load. A tool lists them once, in its header, as
 * X(struct, member, bytes read) entries of a TOOL_MEMBERS(X) macro
 * (bytes 0: a member whose offset is added, not read: an embedded struct),
 * and has:
 *	struct TOOL_layout { TOOL_MEMBERS(BPFKIT_LAYOUT_OFFSET) };
 * on both sides, a const volatile struct TOOL_layout in its BPF object
 * (read through bpfkit/layout.bpf.h), and bpf/layout/TOOL.bpf.c naming
 * them in CO-RE relocations for 'make min-btf' to keep.
 */
#ifndef BPFKIT_LAYOUT_H
#define BPFKIT_LAYOUT_H

/* A member's field in struct TOOL_layout: task_struct_signal, ... */
#define BPFKIT_LAYOUT_OFFSET(type, member, size) __u32 type##_##member;

#endif /* BPFKIT_LAYOUT_H */
