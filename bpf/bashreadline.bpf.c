// SPDX-License-Identifier: GPL-2.0
/*
 * bashreadline: at every return of readline() in bash, send the line the
 * user typed. The program is attached at run time to the readline symbol
 * of the bash user space names (bpfkit_attach_user()).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "bpfkit/channel.bpf.h"
#include "bpfkit/filter.bpf.h"
#include "bashreadline.h"

char LICENSE[] SEC("license") = "GPL";

SEC("uretprobe")
int BPF_KRETPROBE(readline_return, const char *line)
{
	struct bashreadline_event e = {};
	long len;

	/* readline() returns NULL at end of input: nothing was typed. */
	if (!line || !bpfkit_selected())
		return 0;
	len = bpf_probe_read_user_str(e.line, sizeof(e.line), line);
	if (len <= 0)
		return 0;
	e.len = len - 1;
	e.pid = bpf_get_current_pid_tgid() >> 32;
	e.uid = bpf_get_current_uid_gid();
	bpf_get_current_comm(e.comm, sizeof(e.comm));
	bpfkit_emit(ctx, &e.rec, sizeof(e));
	return 0;
}
