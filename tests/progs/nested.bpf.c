// SPDX-License-Identifier: GPL-2.0
/*
 * nested: at each getppid() of one process, send that process SIGURG
 * (ignored by default) from inside this tracepoint program. The signal's
 * signal_generate tracepoint then fires while a BPF program runs on the
 * CPU, so the kernel skips every tracepoint program attached there and
 * counts the skip in its recursion_misses: a test's way to make a tool
 * miss runs on purpose.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

#define SIGURG 23

const volatile __u32 nested_tgid;

__u64 nested_sent;

SEC("tracepoint/syscalls/sys_enter_getppid")
int send_nested(void *ctx)
{
	if (bpf_get_current_pid_tgid() >> 32 != nested_tgid)
		return 0;
	if (!bpf_send_signal(SIGURG))
		__sync_fetch_and_add(&nested_sent, 1);
	return 0;
}
