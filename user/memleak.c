// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * memleak: the memory allocated and not yet freed, by the stack that
 * allocated it, symbolized: a process's C library allocator (or another
 * program's or library's) through uprobes, or the kernel's (-K) through
 * the kmem tracepoints; printed every interval and at the end.
 */
#include <errno.h>
#include <stdio.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "diag.h"
#include "kernel.h"
#include "setup.h"
#include "stackrun.h"
#include "stacks.h"
#include "tracefs.h"
#include "memleak.h"
#include "memleak.skel.h"

static struct {
	const char *object; /* -O */
	bool kernel; /* -K */
	unsigned long interval; /* INTERVAL, seconds; 0: at the end only */
} env;

static const struct bpfkit_binary_opt object_opt = {
	.name = "object",
	.key = 'O',
	.doc = "Trace the allocator of this program or library, in every process that runs it (default: -p's C library)",
	.path = &env.object,
};

static const struct argp_option own_options[] = {
	{ "kernel", 'K', NULL, 0,
	  "Trace the kernel's allocations (kmalloc, kmem_cache, pages), as without -p and -O, instead of -p's",
	  0 },
	{},
};

static error_t parse_own(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case 'K':
		env.kernel = true;
		return 0;
	case ARGP_KEY_ARG:
		if (env.interval)
			return bpfkit_usage_error(
				"unexpected argument '%s': expected at most [INTERVAL]",
				arg);
		return bpfkit_parse_ulong("INTERVAL", arg, 1, 86400,
					  &env.interval);
	case ARGP_KEY_END:
		if (env.kernel && env.object)
			return bpfkit_usage_error(
				"-K and -O are exclusive: -K traces the kernel's allocator, -O a program's");
		/* Neither -p nor -O: the kernel's, as bcc's memleak. */
		if (!env.object && !bpfkit_opts.filter.pid)
			env.kernel = true;
		return 0;
	}
	return ARGP_ERR_UNKNOWN;
}

static const struct bpfkit_tool tool = {
	.name = "memleak",
	.doc = "Show memory allocated and not yet freed, by the stack that allocated it.\n"
	       "\v"
	       "Prints folded stacks (comm;frame;...;frame bytes), outermost frame\n"
	       "first, most bytes first, every INTERVAL seconds and at the end: a\n"
	       "process's C library allocations (-p), a program's or library's\n"
	       "allocator's (-O), or else the kernel's.\n"
	       "\n"
	       "Examples:\n"
	       "  memleak -p 181 5           # process 181's malloc and friends, every 5 s\n"
	       "  memleak -O /usr/lib/x86_64-linux-gnu/libjemalloc.so.2 -d 60\n"
	       "  memleak -d 10              # the kernel's allocations, for 10 s\n",
	.args_doc = "[INTERVAL]",
	.options = BPFKIT_OPT_FILTERS | BPFKIT_OPT_JSON | BPFKIT_OPT_FRAMES,
	.own_options = own_options,
	.own_parser = parse_own,
	.binary = &object_opt,
};

/* The user allocator's functions: call and return programs, or call only. */
enum { NR_ALLOC_FUNCS = 6, MAX_PROBES = 10 };

/* Whether PATH names a C library, which has mmap and munmap too. */
static bool is_libc(const char *path)
{
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	return !strncmp(base, "libc.so", 7) || !strncmp(base, "libc-", 5);
}

/* The user allocator's probes in BINARY into PROBES; their number. */
static size_t user_probes(struct memleak_bpf *skel, const char *binary,
			  struct bpfkit_user_probe *probes)
{
	const struct {
		struct bpf_program *call, *ret;
		const char *name;
		bool libc_only;
	} funcs[NR_ALLOC_FUNCS] = {
		{ skel->progs.malloc_call, skel->progs.malloc_return, "malloc",
		  false },
		{ skel->progs.calloc_call, skel->progs.calloc_return, "calloc",
		  false },
		{ skel->progs.realloc_call, skel->progs.realloc_return,
		  "realloc", false },
		{ skel->progs.free_call, NULL, "free", false },
		{ skel->progs.mmap_call, skel->progs.mmap_return, "mmap",
		  true },
		{ skel->progs.munmap_call, NULL, "munmap", true },
	};
	size_t i, n = 0;

	for (i = 0; i < NR_ALLOC_FUNCS; i++) {
		if (funcs[i].libc_only && !is_libc(binary))
			continue;
		probes[n++] = (struct bpfkit_user_probe){
			.prog = funcs[i].call,
			.binary = binary,
			.name = funcs[i].name,
			.pid = bpfkit_opts.filter.pid,
		};
		if (!funcs[i].ret)
			continue;
		probes[n] = probes[n - 1];
		probes[n].prog = funcs[i].ret;
		probes[n++].retprobe = true;
	}
	return n;
}

/* Load the kernel's programs with -K (the _node ones where they exist). */
static void choose_programs(struct memleak_bpf *skel)
{
	struct bpf_program *prog;

	bpf_object__for_each_program(prog, skel->obj) {
		bool tp = !strncmp(bpf_program__section_name(prog),
				   "tracepoint/", 11);

		bpf_program__set_autoload(prog, tp == env.kernel);
	}
	if (!env.kernel)
		return;
	bpf_program__set_autoload(skel->progs.kmalloc_node,
				  bpfkit_tracepoint_exists("kmem",
							   "kmalloc_node"));
	bpf_program__set_autoload(
		skel->progs.kmem_cache_alloc_node,
		bpfkit_tracepoint_exists("kmem", "kmem_cache_alloc_node"));
}

int main(int argc, char **argv)
{
	struct bpfkit_stacks_unit unit = {
		.title = "memleak: bytes outstanding by stack",
		.events = "events",
		.name = "bytes",
		.divisor = 1,
	};
	struct bpfkit_user_probe probes[MAX_PROBES];
	struct memleak_bpf *skel = NULL;
	const char *binary = NULL;
	char libc[4096];
	size_t n = 0;
	__u32 pid;
	int err;

	/* Parse options; check privileges, tracefs and kernel BTF. */
	bpfkit_setup(&tool, argc, argv);
	pid = bpfkit_opts.filter.pid;
	if (!env.kernel) {
		binary = env.object ?:
				      bpfkit_mapped_libc(pid, libc, sizeof(libc));
		if (!binary) {
			bpfkit_error(
				kill(pid, 0) && errno == ESRCH ?
					"no process %u: give the pid of a running process" :
					"process %u maps no C library (a static build?): give the program with -O BINARY",
				pid);
			return 1;
		}
	}

	/* Open the BPF object. */
	skel = memleak_bpf__open_opts(bpfkit_open_opts());
	if (!skel)
		return bpfkit_open_failed();

	/*
	 * User or kernel stacks and programs. A user allocator's allocations
	 * take the map's memory as they come; the kernel's, in any context
	 * and in bursts, find the kernel's BPF allocator empty at times
	 * (ENOMEM): their map is preallocated, as libbpf-tools' is.
	 */
	bpfkit_opts.stacks.user_only = !env.kernel;
	bpfkit_opts.stacks.kernel_only = env.kernel;
	choose_programs(skel);
	if (!env.kernel)
		bpfkit_sparse_map(skel->maps.memleak_allocs);

	/* Load and verify. */
	err = bpfkit_load(skel->skeleton);
	if (err)
		goto cleanup;

	/* The allocator's probes (in -p's process only), then the rest. */
	if (!env.kernel) {
		n = user_probes(skel, binary, probes);
		err = bpfkit_attach_user_probes(skel->skeleton, probes, n);
		if (err)
			goto cleanup;
	}
	unit.interval_ms = env.interval * 1000;
	err = bpfkit_stacks_run(skel->skeleton, NULL, &unit);
	if (!err && skel->bss->memleak_untracked)
		bpfkit_error(
			"%llu allocations not tracked: the last one's map update failed: %s",
			(unsigned long long)skel->bss->memleak_untracked,
			strerror(-skel->bss->memleak_untracked_err));

cleanup:
	memleak_bpf__destroy(skel);
	return bpfkit_exit_code(err);
}
