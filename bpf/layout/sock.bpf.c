// SPDX-License-Identifier: GPL-2.0
/*
 * Never loaded: the socket members the net room reads at offsets from the
 * kernel's BTF (BPFKIT_SOCK_MEMBERS, bpfkit/layout.h), named in CO-RE
 * relocations so that 'make min-btf' (bpftool gen min_core_btf) keeps them
 * for hosts without kernel BTF.
 */
#include "bpfkit/layout.bpf.h"

char LICENSE[] SEC("license") = "GPL";

SEC("tracepoint")
int sock_layout(void *ctx)
{
	return 0 BPFKIT_SOCK_MEMBERS(BPFKIT_CORE_OFFSET);
}
