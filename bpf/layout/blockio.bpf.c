// SPDX-License-Identifier: GPL-2.0
/*
 * Never loaded: the request members and flags the block I/O tools read at
 * offsets and values from the kernel's BTF (BPFKIT_RQ_LAYOUT in
 * bpfkit/layout.h), named in CO-RE relocations so that 'make min-btf'
 * (bpftool gen min_core_btf) keeps them for hosts without kernel BTF.
 */
#include "bpfkit/layout.bpf.h"

char LICENSE[] SEC("license") = "GPL";

/* Members vmlinux.h's kernel lacks, in their older kernels' struct. */
struct request___old {
	struct gendisk *rq_disk;
};

#define OLD_OFFSET(type, member, size) \
	+bpf_core_field_offset(struct type##___old, member)

SEC("tracepoint")
int blockio_layout(void *ctx)
{
	return 0 BPFKIT_RQ_MEMBERS(BPFKIT_CORE_OFFSET)
		BPFKIT_RQ_OLD_MEMBERS(OLD_OFFSET)
			BPFKIT_RQ_FLAGS(BPFKIT_CORE_ENUMERATOR);
}
