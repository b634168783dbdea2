// SPDX-License-Identifier: GPL-2.0
/*
 * Never loaded: the task and mm members oomkill reads at offsets from the
 * kernel's BTF (OOMKILL_MEMBERS, oomkill.h), named in CO-RE relocations so
 * that 'make min-btf' (bpftool gen min_core_btf) keeps them for hosts
 * without kernel BTF.
 */
#include "bpfkit/layout.bpf.h"
#include "oomkill.h"

char LICENSE[] SEC("license") = "GPL";

/* Before Linux 6.2 (vmlinux.h is newer): mm->rss_stat's type. */
struct mm_rss_stat {
	atomic_long_t count[NR_MM_COUNTERS];
};

SEC("tracepoint")
int oomkill_layout(void *ctx)
{
	return 0 OOMKILL_MEMBERS(BPFKIT_CORE_OFFSET)
		OOMKILL_SIZES(BPFKIT_CORE_STRUCT_SIZE);
}
