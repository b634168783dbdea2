/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel differences the BPF side meets, in one place, each read the
 * CO-RE way (type flavours, bpf_core_field_exists(), ...) and named with
 * the kernel version that changed it. libbpf resolves every check below at
 * load, against the running kernel's BTF: the branch not taken is dead
 * code the verifier never sees.
 */
#ifndef BPFKIT_CORE_FIXES_BPF_H
#define BPFKIT_CORE_FIXES_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_core_read.h>

/*
 * task_struct's state: "state", a long, before Linux 5.14, which renamed
 * it "__state" and made it an unsigned int.
 */
struct task_struct___o {
	volatile long state;
} __attribute__((preserve_access_index));

static __always_inline unsigned int bpfkit_task_state(const void *task)
{
	const struct task_struct *t = task;

	if (bpf_core_field_exists(t->__state))
		return BPF_CORE_READ(t, __state);
	return BPF_CORE_READ((const struct task_struct___o *)task, state);
}

#endif /* BPFKIT_CORE_FIXES_BPF_H */
