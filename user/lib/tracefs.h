/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * tracefs and its tracepoints, asked before load: where tracefs is
 * (mounting it if need be), whether a tracepoint exists, and which of a
 * tool's programs to keep for the tracepoints this kernel has (a syscall's
 * two, tp_btf or raw_tp).
 */
#ifndef BPFKIT_TRACEFS_H
#define BPFKIT_TRACEFS_H

#include <stdbool.h>
#include <stddef.h>
#include <bpf/libbpf.h>

/* The mounted tracefs directory, mounting it if needed; reports failure. */
const char *bpfkit_tracefs(void);

/* Take DIR for tracefs from now on (unit tests lay out one of their own). */
void bpfkit_tracefs_use(const char *dir);

/* Does tracepoint CATEGORY:NAME exist on this kernel? */
bool bpfkit_tracepoint_exists(const char *category, const char *name);

/*
 * 0 if tracepoint CATEGORY:NAME exists; else say "this kernel has no
 * CATEGORY:NAME tracepoint (WHY)" and return -ENOENT.
 */
int bpfkit_require_tracepoint(const char *category, const char *name,
			      const char *why);

/* A tracepoint a tool cannot work without, and WHY: what has it. */
struct bpfkit_tracepoint {
	const char *category;
	const char *name;
	const char *why; /* e.g. "Linux 4.16+" */
};

/*
 * A syscall's programs on syscalls:sys_enter_NAME and sys_exit_NAME. An
 * exit program that several syscalls share is SEC("tracepoint"), with no
 * target of its own: bpfkit_attach_syscalls() (setup room) attaches it to
 * the exit of each. EXIT NULL: a syscall traced at its entry only.
 */
struct bpfkit_syscall_tp {
	struct bpf_program *enter, *exit;
	const char *name;
};

/*
 * Keep the programs of each of the N syscalls in TPS whose two
 * tracepoints this kernel has, drop the others' (a shared exit program is
 * kept while one of its syscalls is); call before load. When the kernel
 * has none and MISSING is set, say "this kernel has no syscalls:MISSING"
 * and return -ENOENT; 0 otherwise.
 */
int bpfkit_syscall_tps_autoload(const struct bpfkit_syscall_tp *tps, size_t n,
				const char *missing);

/*
 * Keep the N programs of TP_BTF (tp_btf) when this kernel loads tp_btf
 * programs on tracepoint NAME (its btf_trace_NAME type found in
 * bpfkit_kernel_btf(BTF_PATH), and a probe program loaded on it), else
 * the N programs of RAW (raw_tp, the same code); call before load.
 * Returns whether tp_btf is kept.
 */
bool bpfkit_tp_btf_autoload(struct bpf_program *const *tp_btf,
			    struct bpf_program *const *raw, size_t n,
			    const char *btf_path, const char *name);

#endif /* BPFKIT_TRACEFS_H */
