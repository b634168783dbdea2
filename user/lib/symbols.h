/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Stack addresses turned into function names: kernel addresses from
 * /proc/kallsyms (loaded once, sorted, binary search), user addresses
 * through elfutils' libdwfl on the process's maps (executables and shared
 * libraries with ASLR, .symtab or .dynsym, separate debug info by build-id
 * under /usr/lib/debug, source lines), JIT frames from /tmp/perf-PID.map.
 * Each unique address is symbolized once; an address nothing resolves is
 * "[unknown]", with its module's name when one holds it. Debug info is
 * never fetched from the network (DEBUGINFOD_URLS is unset).
 *
 *	syms = bpfkit_syms_new(&opts);
 *	bpfkit_syms_add_pid(syms, pid);		as soon as PID is seen
 *	f = bpfkit_syms_user(syms, pid, addr);	f->label: "main", ...
 *	bpfkit_syms_free(syms);
 *
 * Tools using this room link libdw (BPFKIT_DW_LDLIBS in the Makefile).
 */
#ifndef BPFKIT_SYMBOLS_H
#define BPFKIT_SYMBOLS_H

#include <stdbool.h>
#include <sys/types.h>
#include <linux/types.h>

enum bpfkit_frame_kind {
	BPFKIT_FRAME_KERNEL,
	BPFKIT_FRAME_USER,
	BPFKIT_FRAME_JIT, /* from /tmp/perf-PID.map */
};

/* One symbolized address; owned by the symbolizer, valid until freed. */
struct bpfkit_frame {
	const char *name; /* the function; NULL: unresolved */
	const char *module; /* kernel module, file mapped, "kernel"; or NULL */
	__u64 offset; /* from the function's start (unresolved: the module's) */
	const char *file; /* source file with lines on; or NULL */
	int line;
	enum bpfkit_frame_kind kind;
	/* name, or "[unknown]" plus " (MODULE)" with the module's basename */
	const char *label;
	/*
	 * With lines on, where DWARF says the code at the address was inlined:
	 * this frame names the inlined function (at the address's line), and
	 * this is the function it was inlined into, at the call's file and line
	 * (itself inlined into the next, up to the function the symbol table
	 * names); NULL otherwise.
	 */
	const struct bpfkit_frame *inlined_into;
};

struct bpfkit_syms_opts {
	bool lines; /* source file and line for user frames (-L) */
	const char *kallsyms; /* NULL: /proc/kallsyms */
	const char *perf_map_dir; /* where perf-PID.map files are; NULL: /tmp */
};

struct bpfkit_syms;

/* A symbolizer; NULL with errno set when out of memory. */
struct bpfkit_syms *bpfkit_syms_new(const struct bpfkit_syms_opts *opts);
void bpfkit_syms_free(struct bpfkit_syms *s);

/*
 * Read PID's memory map now (a second call is a no-op), so that its
 * addresses still resolve after it exits. 0, or -errno when it cannot be
 * read (its frames are then "[unknown]").
 */
int bpfkit_syms_add_pid(struct bpfkit_syms *s, pid_t pid);

/* Symbolize a kernel or a user (PID's) address; never NULL. */
const struct bpfkit_frame *bpfkit_syms_kernel(struct bpfkit_syms *s,
					      __u64 addr);
const struct bpfkit_frame *bpfkit_syms_user(struct bpfkit_syms *s, pid_t pid,
					    __u64 addr);

/* Unique addresses symbolized so far, and the time that took. */
struct bpfkit_syms_stats {
	unsigned long addrs;
	unsigned long long ns;
};
void bpfkit_syms_stats(const struct bpfkit_syms *s,
		       struct bpfkit_syms_stats *st);

/* Whether F is the tracing's own (a BPF program, its tracepoint's call). */
bool bpfkit_tracing_frame(const struct bpfkit_frame *f);

#endif /* BPFKIT_SYMBOLS_H */
