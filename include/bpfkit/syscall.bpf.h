/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The context of the syscall tracepoints (syscalls/sys_enter_NAME,
 * syscalls/sys_exit_NAME and raw_syscalls/sys_enter, sys_exit), for the
 * programs that take one.
 *
 * Their layout is the kernel's tracepoint ABI, the same on every kernel
 * since 2.6.33 (see the tracepoints' format files): an 8-byte common
 * header, the syscall number at offset 8, then the arguments or the result
 * at offset 16. These structs are declared here, outside vmlinux.h, so
 * that reading them costs no CO-RE relocation: with vmlinux.h's
 * trace_event_raw_sys_enter and trace_event_raw_sys_exit, libbpf searches
 * the whole kernel BTF for each of them at load, about a third of a
 * syscall tool's user-space start-up work.
 */
#ifndef BPFKIT_SYSCALL_BPF_H
#define BPFKIT_SYSCALL_BPF_H

/*
 * raw_tp/sys_enter's context, the tracepoint's own arguments: the task's
 * registers and the syscall number. vmlinux.h's bpf_raw_tracepoint_args
 * would be CO-RE-relocated the same way, for nothing: its layout is ABI.
 */
struct bpfkit_raw_sys_enter {
	__u64 regs; /* struct pt_regs * */
	__u64 id; /* the syscall number */
};

/* syscalls/sys_enter_NAME and raw_syscalls/sys_enter. */
struct bpfkit_sys_enter {
	__u64 common; /* the tracepoints' common header */
	long id; /* the syscall number */
	unsigned long args[6];
};

/* syscalls/sys_exit_NAME and raw_syscalls/sys_exit. */
struct bpfkit_sys_exit {
	__u64 common;
	long id;
	long ret;
};

#endif /* BPFKIT_SYSCALL_BPF_H */
