// SPDX-License-Identifier: GPL-2.0
/*
 * hello-buffer: for every execve, send the caller's pid, uid and command
 * and "Hello World" to user space through the perf buffer (Learning eBPF,
 * chapter 2).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include "bpfkit/channel.bpf.h"
#include "bpfkit/filter.bpf.h"
#include "hello-buffer.h"

char LICENSE[] SEC("license") = "GPL";

SEC("tracepoint/syscalls/sys_enter_execve")
int hello(void *ctx)
{
	struct hello_buffer_event e = {};

	/* Only the processes -p, -u, -c and --cgroup select. */
	if (!bpfkit_selected())
		return 0;

	/* Who calls execve: process id, user id and command name. */
	e.pid = bpf_get_current_pid_tgid() >> 32;
	e.uid = bpf_get_current_uid_gid() & 0xffffffff;
	bpf_get_current_comm(e.command, sizeof(e.command));
	__builtin_memcpy(e.message, "Hello World", sizeof(e.message));

	/* Submit it; a full buffer counts it as lost. */
	bpfkit_emit(ctx, &e.rec, sizeof(e));
	return 0;
}
