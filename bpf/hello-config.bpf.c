// SPDX-License-Identifier: GPL-2.0
/*
 * hello-config: hello-buffer with a greeting user space configures: the
 * user's own text from the messages map (filled after load), else "Even
 * pid" or "Odd pid" with even_odd (set before load), else "Hello World".
 * Learning eBPF, chapter 2's exercises (hello-buffer-config).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include "bpfkit/channel.bpf.h"
#include "bpfkit/filter.bpf.h"
#include "hello-config.h"

char LICENSE[] SEC("license") = "GPL";

/* --even-odd: greet by the parity of the process id. */
const volatile bool even_odd;

/* -m UID=TEXT: a greeting per uid. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, HELLO_CONFIG_USERS);
	__type(key, __u32);
	__type(value, char[HELLO_MESSAGE_LEN]);
} messages SEC(".maps");

static const char hello[HELLO_MESSAGE_LEN] = "Hello World";
static const char even[HELLO_MESSAGE_LEN] = "Even pid";
static const char odd[HELLO_MESSAGE_LEN] = "Odd pid";

SEC("tracepoint/syscalls/sys_enter_execve")
int hello_config(void *ctx)
{
	struct hello_buffer_event e = {};
	__u32 uid = bpf_get_current_uid_gid();
	const char *text;

	if (!bpfkit_selected())
		return 0;

	e.pid = bpf_get_current_pid_tgid() >> 32;
	e.uid = uid;
	bpf_get_current_comm(e.command, sizeof(e.command));

	/* The user's own greeting, else the pid's parity, else hello. */
	text = bpf_map_lookup_elem(&messages, &uid);
	if (!text)
		text = !even_odd ? hello : e.pid & 1 ? odd : even;
	__builtin_memcpy(e.message, text, sizeof(e.message));

	bpfkit_emit(ctx, &e.rec, sizeof(e));
	return 0;
}
