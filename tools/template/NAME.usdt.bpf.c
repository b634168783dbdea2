// SPDX-License-Identifier: GPL-2.0
/* @NAME@: send pid, parent pid, uid and command at every USDT probe @PROVIDER@:@PROBE@. */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/usdt.bpf.h>
#include "bpfkit/channel.bpf.h"
#include "bpfkit/filter.bpf.h"
#include "@NAME@.h"

char LICENSE[] SEC("license") = "GPL";

/*
 * Runs in the kernel each time a task passes the probe: user space
 * attaches it to @PROVIDER@:@PROBE@ in the binary it names. To read the
 * probe's arguments, declare it as BPF_USDT(handle, long arg0, ...).
 */
SEC("usdt")
int handle(struct pt_regs *ctx)
{
	struct @IDENT@_event e = {};
	struct task_struct *task;

	/* Skip tasks that -p, -u, -c or --cgroup leave out. */
	if (!bpfkit_selected())
		return 0;

	/* Fill the record from the current task. */
	e.pid = bpf_get_current_pid_tgid() >> 32;
	/*
	 * Kernel memory is read the CO-RE way: vmlinux.h's types name the
	 * members, libbpf relocates their offsets to this kernel's at load.
	 * Here the parent's process id, task->real_parent->tgid.
	 */
	task = (struct task_struct *)bpf_get_current_task();
	e.ppid = BPF_CORE_READ(task, real_parent, tgid);
	e.uid = bpf_get_current_uid_gid();
	bpf_get_current_comm(e.comm, sizeof(e.comm));

	/* Send it to user space; a record that finds no room is counted. */
	bpfkit_emit(ctx, &e.rec, sizeof(e));
	return 0;
}
