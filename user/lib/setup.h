/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The steps every tool takes, from the command line to attached programs
 * and the run, with the parsed options (bpfkit_opts) handed to the rooms
 * that need them. Each step reports its own failure in one line:
 *
 *	bpfkit_setup(&tool, argc, argv);
 *	skel = NAME_bpf__open_opts(bpfkit_open_opts());
 *	skel->rodata->my_setting = ...;
 *	err = bpfkit_load(skel->skeleton);
 *	err = bpfkit_attach(skel->skeleton, print_event, NULL, &ch);
 *	err = bpfkit_run(ch, NULL);
 */
#ifndef BPFKIT_SETUP_H
#define BPFKIT_SETUP_H

#include <bpf/libbpf.h>
#include "bpfkit/channel.h"
#include "bpfkit/filter.h"
#include "channel.h"
#include "cli.h"
#include "histogram.h"
#include "run.h"
#include "tracefs.h"

/*
 * What every tool does first: parse the command line, then check
 * privileges, tracefs, kernel BTF and the tracepoints the tool needs;
 * exits with the matching code when one fails.
 */
void bpfkit_setup(const struct bpfkit_tool *tool, int argc, char **argv);

/* Open options with --btf applied, for <skel>__open_opts(). */
const struct bpf_object_open_opts *bpfkit_open_opts(void);

/*
 * After <skel>__open_opts() returned NULL: say why in one line; returns
 * the exit status, for main to return (nothing is to clean up yet).
 */
int bpfkit_open_failed(void);

/*
 * Write the settings of the library's rooms into the object's .rodata,
 * found there by name: the filters (bpfkit_filter), the event channel's
 * (bpfkit_channel_cfg, picking the transport), the histograms', the
 * network's, the stacks' and the disk's, as the options say; then load
 * and verify every program, and put the --cgroup directory into the
 * bpfkit_cgroup map. The tool writes its own settings before.
 */
int bpfkit_load(struct bpf_object_skeleton *s);

/*
 * The global NAME of SIZE bytes in S's SECTION (".rodata" before load,
 * ".bss"), where the skeleton maps it (skel->rodata, skel->bss), found by
 * the object's BTF: how the library finds its own settings and counters
 * in a tool's object. NULL with errno ENOENT when the object has none,
 * EINVAL (reported) when its size is not the library's.
 */
void *bpfkit_object_var(struct bpf_object_skeleton *s, const char *section,
			const char *name, size_t size);

/*
 * A program whose section names no target (SEC("kprobe")), the kernel
 * function it attaches to, found at run time, and the step's name for
 * errors ("attach to execve with kprobe").
 */
struct bpfkit_target {
	struct bpf_program *prog;
	const char *func;
	const char *what;
};

/*
 * Open the event channel (when FN is set) before attaching, so that no
 * event misses its reader; then attach every program left to autoattach.
 */
int bpfkit_attach(struct bpf_object_skeleton *s, bpfkit_event_fn fn, void *ctx,
		  struct bpfkit_channel **ch);

/* bpfkit_attach(), with TARGET's program attached to its function too. */
int bpfkit_attach_target(struct bpf_object_skeleton *s,
			 const struct bpfkit_target *target, bpfkit_event_fn fn,
			 void *ctx, struct bpfkit_channel **ch);

/*
 * bpfkit_attach(), with FN set, with the exit programs the N syscalls of
 * TPS share (tracefs.h: SEC("tracepoint")) attached first to each kept
 * syscall's sys_exit tracepoint, their links held by the channel.
 */
int bpfkit_attach_syscalls(struct bpf_object_skeleton *s,
			   const struct bpfkit_syscall_tp *tps, size_t n,
			   bpfkit_event_fn fn, void *ctx,
			   struct bpfkit_channel **ch);

/*
 * A program on a user-space function or USDT probe, found at run time:
 * uprobe SEC("uprobe") or uretprobe SEC("uretprobe") on function NAME in
 * BINARY (resolved by symbol), or with PROVIDER set, SEC("usdt") on the
 * USDT probe PROVIDER:NAME in BINARY. Every process that maps BINARY is
 * traced, including those started later.
 */
struct bpfkit_user_probe {
	struct bpf_program *prog;
	const char *binary;
	const char *provider; /* NULL: a uprobe on function NAME */
	const char *name;
	bool retprobe; /* a uretprobe: at the function's return */
	int pid; /* only in this process; 0: in every process */
};

/*
 * bpfkit_attach(), with N user probes attached first, each into its
 * program's link in the skeleton (so give each probe a program of its own:
 * gethostlatency has one per function and end). A BINARY without the
 * function or the probe is reported in one line naming both.
 */
int bpfkit_attach_user(struct bpf_object_skeleton *s,
		       const struct bpfkit_user_probe *probes, size_t n,
		       bpfkit_event_fn fn, void *ctx,
		       struct bpfkit_channel **ch);

/*
 * The C library process PID maps (0: this process), from its memory map,
 * as a path into BUF that reaches it from here (through /proc/PID/root for
 * another process, whose mounts may differ); NULL when it maps none (a
 * static build).
 */
const char *bpfkit_mapped_libc(int pid, char *buf, size_t len);

/*
 * The N user probes alone, each into its program's link in the skeleton,
 * for a tool that runs without events: bpfkit_hist_run() (or
 * bpfkit_attach()) then attaches the rest. Failures as above.
 */
int bpfkit_attach_user_probes(struct bpf_object_skeleton *s,
			      const struct bpfkit_user_probe *probes, size_t n);

/*
 * Run: the run loop (run.h) with CH (NULL: a tool that reads maps) and
 * TICK (NULL: none), metrics served while it runs (--metrics, --textfile
 * every TICK's interval), as the --drop-privileges user once they are set
 * up; then, unless stdout has gone, CH drained and summed up. Returns 0 or
 * -errno (reported).
 */
int bpfkit_run(struct bpfkit_channel *ch, const struct bpfkit_tick *tick);

/*
 * bpfkit_run() for a histogram tool, which owns its programs' attachment:
 * a reader of the histograms in S's map MAP, keyed as KEYS says, opens;
 * S's programs attach (as bpfkit_attach() does without events); the
 * reader reports every interval until COUNT intervals, -d or a signal
 * (the last, partial one too), or once at the end without an interval;
 * then, if some values found the map full (the BPF side's
 * bpfkit_hist_missed), "N events, M lost" on stderr.
 */
int bpfkit_hist_run(struct bpf_object_skeleton *s, struct bpf_map *map,
		    const struct bpfkit_hist_keys *keys);

/*
 * bpfkit_run() for a tool that reads its maps every interval (the options
 * of BPFKIT_OPT_INTERVAL), which owns its programs' attachment: S's
 * programs attach (as bpfkit_attach() does without events); REPORT(CTX)
 * runs every -i or INTERVAL seconds (DEFAULT_S without them; 0: no
 * interval), until COUNT reports, -d or a signal, then once more for the
 * last, partial interval, unless COUNT ended the run or stdout has gone.
 * REPORT returns 0 or -errno (reported). Returns 0 or -errno.
 */
int bpfkit_interval_run(struct bpf_object_skeleton *s, int (*report)(void *ctx),
			void *ctx, unsigned long default_s);

#endif /* BPFKIT_SETUP_H */
