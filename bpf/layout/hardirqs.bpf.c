// SPDX-License-Identifier: GPL-2.0
/*
 * Never loaded: the kernel struct member hardirqs reads at its offset from
 * the kernel's BTF (include/hardirqs.h), named in a CO-RE relocation so
 * that 'make min-btf' (bpftool gen min_core_btf) keeps it for hosts
 * without kernel BTF.
 */
#include "bpfkit/layout.bpf.h"
#include "hardirqs.h"

char LICENSE[] SEC("license") = "GPL";

SEC("tracepoint")
int hardirqs_layout(void *ctx)
{
	return 0 HARDIRQS_MEMBERS(BPFKIT_CORE_OFFSET);
}
