// SPDX-License-Identifier: GPL-2.0
/* hello: write "Hello World" to the kernel trace pipe on every execve. */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include "bpfkit/filter.bpf.h"

char LICENSE[] SEC("license") = "GPL";

/* Set by user space before load: tags our lines among everyone's printk. */
const volatile __u32 marker;

SEC("tracepoint/syscalls/sys_enter_execve")
int hello(void *ctx)
{
	if (!bpfkit_selected())
		return 0;

	bpf_printk("hello/%u: Hello World", marker);
	return 0;
}
