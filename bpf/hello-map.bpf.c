// SPDX-License-Identifier: GPL-2.0
/*
 * hello-map: count syscalls in a hash map, by uid or by syscall number.
 * Several programs share the one map: a raw tracepoint for every syscall,
 * and tracepoint programs that user space attaches to chosen syscalls.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "bpfkit/core_fixes.bpf.h"
#include "bpfkit/filter.bpf.h"
#include "hello-map.h"

char LICENSE[] SEC("license") = "GPL";

/* Set by user space before load: key by syscall number instead of uid. */
const volatile bool by_syscall;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, HELLO_MAP_KEYS);
	__type(key, __u32);
	__type(value, __u64);
} counts SEC(".maps");

/* Add one to the count of the current uid, or of syscall NR. */
static __always_inline int count(long nr)
{
	__u64 one = 1, *val;
	__u32 key;

	if (!bpfkit_selected())
		return 0;

	key = by_syscall ? nr : (__u32)bpf_get_current_uid_gid();
	val = bpf_map_lookup_elem(&counts, &key);
	if (val) {
		__sync_fetch_and_add(val, 1);
		return 0;
	}
	/* First count for KEY; if another CPU created it meanwhile, add. */
	if (bpf_map_update_elem(&counts, &key, &one, BPF_NOEXIST)) {
		val = bpf_map_lookup_elem(&counts, &key);
		if (val)
			__sync_fetch_and_add(val, 1);
	}
	return 0;
}

/* Every syscall: the raw tracepoint's arguments, registers and number. */
SEC("raw_tp/sys_enter")
int BPF_PROG(count_all, struct pt_regs *regs, long id)
{
	return count(id);
}

/*
 * One program per chosen syscall, attached to syscalls:sys_enter_<name>.
 * Read the number alone (bpfkit_syscall_enter_nr(): where it is moved
 * with the kernel): the kernel refuses to attach a program that reads
 * past the record of a syscall without arguments.
 */
#define COUNT_SYSCALL(n)                                      \
	SEC("tracepoint")                                     \
	int count_syscall##n(struct syscall_trace_enter *ctx) \
	{                                                     \
		return count(bpfkit_syscall_enter_nr(ctx));   \
	}

COUNT_SYSCALL(0)
COUNT_SYSCALL(1)
COUNT_SYSCALL(2)
COUNT_SYSCALL(3)
COUNT_SYSCALL(4)
COUNT_SYSCALL(5)
COUNT_SYSCALL(6)
COUNT_SYSCALL(7)
