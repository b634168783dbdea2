// SPDX-License-Identifier: GPL-2.0
/*
 * Never loaded: the kernel struct members tcplife reads at offsets from
 * the kernel's BTF (include/tcplife.h), named in CO-RE relocations so that
 * 'make min-btf' (bpftool gen min_core_btf) keeps them for hosts without
 * kernel BTF.
 */
#include "bpfkit/layout.bpf.h"
#include "tcplife.h"

char LICENSE[] SEC("license") = "GPL";

SEC("tracepoint")
int tcplife_layout(void *ctx)
{
	return 0 TCPLIFE_MEMBERS(BPFKIT_CORE_OFFSET);
}
