// SPDX-License-Identifier: GPL-2.0
/*
 * Never loaded: the task and skb members tcpdrop reads at offsets from the
 * kernel's BTF (TCPDROP_MEMBERS, tcpdrop.h), named in CO-RE relocations so
 * that 'make min-btf' (bpftool gen min_core_btf) keeps them for hosts
 * without kernel BTF, with the drop reasons' enum its user side names.
 */
#include "bpfkit/layout.bpf.h"
#include "tcpdrop.h"

char LICENSE[] SEC("license") = "GPL";

SEC("tracepoint")
int tcpdrop_layout(void *ctx)
{
	return 0 TCPDROP_MEMBERS(BPFKIT_CORE_OFFSET) +
	       bpf_core_type_size(enum skb_drop_reason);
}
