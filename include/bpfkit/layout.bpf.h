/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The BPF side of bpfkit/layout.h: kernel memory read at byte offsets user
 * space found in the kernel's BTF, without CO-RE relocations; and, for the
 * never-loaded bpf/layout/TOOL.bpf.c objects, the relocations naming them.
 */
#ifndef BPFKIT_LAYOUT_BPF_H
#define BPFKIT_LAYOUT_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include "bpfkit/layout.h"

/* The 2, 4 or 8 bytes at OFF in kernel object BASE; 0 if unreadable. */
static __always_inline __u16 bpfkit_read_u16(const void *base, __u32 off)
{
	__u16 v = 0;

	bpf_probe_read_kernel(&v, sizeof(v), base + off);
	return v;
}

static __always_inline __s32 bpfkit_read_s32(const void *base, __u32 off)
{
	__s32 v = 0;

	bpf_probe_read_kernel(&v, sizeof(v), base + off);
	return v;
}

static __always_inline __u64 bpfkit_read_u64(const void *base, __u32 off)
{
	__u64 v = 0;

	bpf_probe_read_kernel(&v, sizeof(v), base + off);
	return v;
}

static __always_inline const void *bpfkit_read_ptr(const void *base, __u32 off)
{
	return (const void *)bpfkit_read_u64(base, off);
}

/*
 * The WIDTH-bit bitfield at bit BITS of kernel object BASE (a
 * BPFKIT_BITFIELD(WIDTH) member's offset; BTF numbers the bits from the
 * least significant, as little-endian machines lay them out); 0 if
 * unreadable.
 */
static __always_inline __u32 bpfkit_read_bits(const void *base, __u32 bits,
					      __u32 width)
{
	__u32 v = 0;

	bpf_probe_read_kernel(&v, sizeof(v), base + bits / 8);
	return (v >> (bits % 8)) & ((1U << width) - 1);
}

/*
 * For bpf/layout/TOOL.bpf.c: return 0 TOOL_MEMBERS(BPFKIT_CORE_OFFSET);
 * a tool's enumerators in a list of their own, named by
 * BPFKIT_CORE_ENUMERATOR.
 */
#define BPFKIT_CORE_OFFSET(type, member, size) \
	+bpf_core_field_offset(struct type, member)
#define BPFKIT_CORE_ENUMERATOR(type, name, size) \
	+bpf_core_enum_value(enum type, name)

#endif /* BPFKIT_LAYOUT_BPF_H */
