// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Syscall tracepoint pairs that exist on the running kernel only. */
#include <stdio.h>
#include "diag.h"
#include "syscall-tp.h"

bool bpfkit_syscall_tp_autoload(struct bpf_program *enter,
				struct bpf_program *exit, const char *name)
{
	char enter_tp[64], exit_tp[64];
	bool ok;

	snprintf(enter_tp, sizeof(enter_tp), "sys_enter_%s", name);
	snprintf(exit_tp, sizeof(exit_tp), "sys_exit_%s", name);
	ok = bpfkit_tracepoint_exists("syscalls", enter_tp) &&
	     bpfkit_tracepoint_exists("syscalls", exit_tp);
	bpf_program__set_autoload(enter, ok);
	bpf_program__set_autoload(exit, ok);
	return ok;
}
