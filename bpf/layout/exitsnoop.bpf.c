// SPDX-License-Identifier: GPL-2.0
/*
 * Never loaded: exitsnoop reads its kernel struct members at offsets from
 * the kernel's BTF, without CO-RE (include/exitsnoop.h); this program names
 * them in CO-RE relocations, so that 'make min-btf' (bpftool gen
 * min_core_btf) keeps them for hosts without kernel BTF.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include "exitsnoop.h"

char LICENSE[] SEC("license") = "GPL";

#define CORE_OFFSET(type, member, size) \
	+bpf_core_field_offset(struct type, member)

SEC("tracepoint")
int exitsnoop_layout(void *ctx)
{
	return 0 EXITSNOOP_MEMBERS(CORE_OFFSET);
}
