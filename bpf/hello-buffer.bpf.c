// SPDX-License-Identifier: GPL-2.0
/* hello-buffer: send pid, uid, command and a greeting for every execve. */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include "bpfkit/channel.bpf.h"
#include "hello-buffer.h"

char LICENSE[] SEC("license") = "GPL";

static const char message[12] = "Hello World";

SEC("tracepoint/syscalls/sys_enter_execve")
int hello(void *ctx)
{
	struct data_t data = {};

	if (!bpfkit_selected())
		return 0;

	data.pid = bpf_get_current_pid_tgid() >> 32;
	data.uid = bpf_get_current_uid_gid() & 0xffffffff;
	bpf_get_current_comm(data.command, sizeof(data.command));
	__builtin_memcpy(data.message, message, sizeof(data.message));

	bpfkit_emit(ctx, &data, sizeof(data));
	return 0;
}
