/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Kernel struct members a tool's BPF side reads at byte offsets user space
 * finds in the kernel's BTF at start (bpfkit_read_layout(), kernel
 * room), instead of by CO-RE: libbpf then does not parse and search the
 * whole kernel BTF at load. A tool lists them once, in its header, as
 * X(struct, member, bytes read) entries of a TOOL_MEMBERS(X) macro
 * (bytes 0: a member whose offset is added, not read: an embedded struct;
 * BPFKIT_BITFIELD(width): a bitfield, its offset in bits, read by
 * bpfkit_read_bits(); BPFKIT_OPTIONAL(bytes): a member some kernels lack,
 * BPFKIT_ABSENT there; BPFKIT_ENUMERATOR: X(enum, enumerator, ...), its
 * value; BPFKIT_STRUCT_SIZE: X(struct, sizeof, ...), the struct's size),
 * and has:
 *	struct TOOL_layout { TOOL_MEMBERS(BPFKIT_LAYOUT_OFFSET) };
 * on both sides, a const volatile struct TOOL_layout in its BPF object
 * (read through bpfkit/layout.bpf.h), and bpf/layout/TOOL.bpf.c naming
 * them in CO-RE relocations for 'make min-btf' to keep.
 */
#ifndef BPFKIT_LAYOUT_H
#define BPFKIT_LAYOUT_H

#include "bpfkit/types.h"

/* The "bytes read" of a bitfield WIDTH bits wide. */
#define BPFKIT_BITFIELD(width) (0x80000000u | (width))
/* Of a member (or enumerator) some kernels lack: BPFKIT_ABSENT there. */
#define BPFKIT_OPTIONAL(bytes) (0x40000000u | (bytes))
#define BPFKIT_ABSENT 0xffffffffu
/* Of an enumerator, X(enum's name, enumerator, ...): its value. */
#define BPFKIT_ENUMERATOR 0x20000000u
/* Of X(struct, sizeof, ...): the struct's size in bytes. */
#define BPFKIT_STRUCT_SIZE 0x10000000u

/*
 * A tracepoint record's fields a tool reads where its kernel's format file
 * puts them (bpfkit_read_record(), kernel room), listed as X(field, bytes
 * read) in a TOOL_FIELDS(X) macro, are held by struct TOOL_record {
 * TOOL_FIELDS(BPFKIT_RECORD_OFFSET) }: BPFKIT_ABSENT for one it lacks.
 */
#define BPFKIT_RECORD_OFFSET(field, size) __u32 field;

/* A member's field in struct TOOL_layout: task_struct_signal, ... */
#define BPFKIT_LAYOUT_OFFSET(type, member, size) __u32 type##_##member;

#endif /* BPFKIT_LAYOUT_H */
