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

/*
 * The members the library's BPF side reads of a task other than the
 * current one (bpfkit_task_selected()'s filters, bpfkit_hist_add_task()'s
 * keys, bpfkit_task_state()), in bpfkit_task_layout, which a tool calling
 * any of them fills before load with bpfkit_read_task_layout() (setup
 * room): no CO-RE relocation of five struct types, and none of the
 * kernel's BTF parsed by libbpf for them.
 */
#define BPFKIT_TASK_MEMBERS(X)                          \
	X(task_struct, pid, 4)                          \
	X(task_struct, __state, 4) /* "state" < 5.14 */ \
	X(task_struct, tgid, 4)                         \
	X(task_struct, comm, BPFKIT_COMM_LEN)           \
	X(task_struct, cred, sizeof(void *))            \
	X(task_struct, cgroups, sizeof(void *))         \
	X(cred, uid, 4) /* kuid_t */                    \
	X(css_set, dfl_cgrp, sizeof(void *))            \
	X(cgroup, kn, sizeof(void *))                   \
	X(cgroup, self, 0) /* embedded: its offset */   \
	X(cgroup_subsys_state, parent, sizeof(void *))  \
	X(kernfs_node, id, 8)

struct bpfkit_task_layout {
	BPFKIT_TASK_MEMBERS(BPFKIT_LAYOUT_OFFSET)
};

/*
 * The members the block I/O room's BPF side reads of a request, its queue
 * and its disk (bpfkit_rq_dev(), bpfkit_rq_op(), biosnoop's sector and
 * size), in bpfkit_rq_layout, which a block I/O tool fills before load
 * with bpfkit_blockio_prepare() (blockio room). The disk is the queue's
 * since Linux 5.15 and the request's before 5.17, read there where the
 * kernel has it (BPFKIT_RQ_OLD_MEMBERS: not in vmlinux.h's request).
 */
#define BPFKIT_RQ_MEMBERS(X)                                    \
	X(gendisk, major, 4)                                    \
	X(gendisk, first_minor, 4)                              \
	X(request_queue, disk, BPFKIT_OPTIONAL(sizeof(void *))) \
	X(request, q, sizeof(void *))                           \
	X(request, cmd_flags, 4)                                \
	X(request, __sector, 8)                                 \
	X(request, __data_len, 4)
#define BPFKIT_RQ_OLD_MEMBERS(X) \
	X(request, rq_disk, BPFKIT_OPTIONAL(sizeof(void *)))
/* The request flags reported: bit numbers, made masks before load. */
#define BPFKIT_RQ_FLAGS(X)                                  \
	X(req_flag_bits, __REQ_SYNC, BPFKIT_ENUMERATOR)     \
	X(req_flag_bits, __REQ_META, BPFKIT_ENUMERATOR)     \
	X(req_flag_bits, __REQ_FUA, BPFKIT_ENUMERATOR)      \
	X(req_flag_bits, __REQ_PREFLUSH, BPFKIT_ENUMERATOR) \
	X(req_flag_bits, __REQ_RAHEAD, BPFKIT_ENUMERATOR)
#define BPFKIT_RQ_LAYOUT(X) \
	BPFKIT_RQ_MEMBERS(X) BPFKIT_RQ_OLD_MEMBERS(X) BPFKIT_RQ_FLAGS(X)

struct bpfkit_rq_layout {
	BPFKIT_RQ_LAYOUT(BPFKIT_LAYOUT_OFFSET)
};

#endif /* BPFKIT_LAYOUT_H */
