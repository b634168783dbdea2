// SPDX-License-Identifier: GPL-2.0
/*
 * Never loaded: the socket members bindsnoop reads at offsets from the
 * kernel's BTF (include/bindsnoop.h), named in CO-RE relocations so that
 * 'make min-btf' (bpftool gen min_core_btf) keeps them for hosts without
 * kernel BTF.
 */
#include "bpfkit/layout.bpf.h"
#include "bindsnoop.h"

char LICENSE[] SEC("license") = "GPL";

SEC("tracepoint")
int bindsnoop_layout(void *ctx)
{
	return 0 BINDSNOOP_MEMBERS(BPFKIT_CORE_OFFSET);
}
