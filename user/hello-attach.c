// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * hello-attach: print "<pid> <uid> <command> <attach> <path>" for every
 * execve, seen by the attach type --attach picks (Learning eBPF, chapter
 * 7): tracepoint, tp_btf, raw_tp, fentry, ksyscall or kprobe. Before
 * loading it checks that this kernel has that type, and refuses in one
 * line naming what is missing and what to use instead.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "channel.h"
#include "cli.h"
#include "diag.h"
#include "kernel.h"
#include "ksyms.h"
#include "names.h"
#include "output.h"
#include "run.h"
#include "setup.h"
#include "hello-attach.h"
#include "hello-attach.skel.h"

#define OPT_ATTACH 0x100
#define ATTACH_AUTO (-1)

/* Attach type names, as --attach and the ATTACH column spell them. */
static const char *const attach_names[HELLO_ATTACH_TYPES] = {
	[HELLO_ATTACH_TRACEPOINT] = "tracepoint",
	[HELLO_ATTACH_TP_BTF] = "tp_btf",
	[HELLO_ATTACH_RAW_TP] = "raw_tp",
	[HELLO_ATTACH_FENTRY] = "fentry",
	[HELLO_ATTACH_KSYSCALL] = "ksyscall",
	[HELLO_ATTACH_KPROBE] = "kprobe",
};

static struct {
	int attach; /* enum hello_attach_type, or ATTACH_AUTO */
} env = { .attach = ATTACH_AUTO };

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	int i;

	if (key != OPT_ATTACH)
		return ARGP_ERR_UNKNOWN;
	if (!strcmp(arg, "auto")) {
		env.attach = ATTACH_AUTO;
		return 0;
	}
	for (i = 0; i < HELLO_ATTACH_TYPES; i++) {
		if (!strcmp(arg, attach_names[i])) {
			env.attach = i;
			return 0;
		}
	}
	return bpfkit_usage_error(
		"invalid --attach '%s': expected auto, tracepoint, tp_btf, raw_tp, fentry, ksyscall or kprobe",
		arg);
}

static const struct argp_option options[] = {
	{ "attach", OPT_ATTACH, "TYPE", 0,
	  "See execve through TYPE: auto (default: the first of these this "
	  "kernel has), tracepoint, tp_btf, raw_tp, fentry, ksyscall or kprobe",
	  0 },
	{},
};

static const struct bpfkit_tool tool = {
	.name = "hello-attach",
	.doc = "Print pid, uid, command and path for every execve, seen by one attach type.\n"
	       "\v"
	       "Examples:\n"
	       "  hello-attach                   # the first type this kernel has\n"
	       "  hello-attach --attach=tp_btf   # seen by a BTF raw tracepoint\n"
	       "  hello-attach --attach=kprobe   # by a kprobe on __x64_sys_execve\n",
	.options = BPFKIT_OPT_EVENTS,
	.own_options = options,
	.own_parser = parse_arg,
};

/* The kernel function fentry and kprobe attach to, e.g. __x64_sys_execve. */
static char syscall_func[64];

/* Why the type checked last does not work here, and what to use instead. */
static char why[256];

static int refuse(int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	return err;
}

/*
 * Can TYPE see execve on this kernel? 0, or -errno with the reason in WHY.
 * fentry and kprobe find the syscall's function on the way.
 */
static int check_attach(int type)
{
	const struct btf *btf;
	int id, err;

	switch (type) {
	case HELLO_ATTACH_TRACEPOINT:
		if (bpfkit_tracepoint_exists("syscalls", "sys_enter_execve"))
			return 0;
		return refuse(
			-ENOENT,
			"the syscalls:sys_enter_execve tracepoint is missing (CONFIG_FTRACE_SYSCALLS is not set); use --attach=tp_btf or raw_tp");
	case HELLO_ATTACH_RAW_TP:
		if (libbpf_probe_bpf_prog_type(BPF_PROG_TYPE_RAW_TRACEPOINT,
					       NULL) > 0)
			return 0;
		return refuse(
			-EOPNOTSUPP,
			"raw_tp is not available on this kernel (it needs Linux 4.17); use --attach=tracepoint");
	case HELLO_ATTACH_KSYSCALL:
	case HELLO_ATTACH_KPROBE:
		if (!bpfkit_kprobes_available())
			return refuse(
				-EOPNOTSUPP,
				"kprobes are not available on this kernel (CONFIG_KPROBES or CONFIG_KPROBE_EVENTS is not set); use --attach=tracepoint");
		if (type == HELLO_ATTACH_KSYSCALL)
			return 0; /* libbpf finds the function at attach */
	}

	/* tp_btf, fentry and kprobe find their target in the kernel's BTF. */
	btf = bpfkit_kernel_btf(bpfkit_opts.btf_path);
	if (!btf)
		return refuse(
			-errno,
			"%s needs kernel BTF, which failed to load (%s); use --attach=tracepoint",
			attach_names[type], strerrorname_np(errno));
	if (type == HELLO_ATTACH_TP_BTF)
		id = btf__find_by_name_kind(btf, "btf_trace_sys_enter",
					    BTF_KIND_TYPEDEF);
	else
		id = bpfkit_syscall_func(btf, "execve", syscall_func,
					 sizeof(syscall_func));
	if (id < 0)
		return refuse(
			-ENOENT,
			"%s is not available on this kernel (its BTF has no %s); use --attach=tracepoint",
			attach_names[type],
			type == HELLO_ATTACH_TP_BTF ? "sys_enter tracepoint" :
						      "execve function");
	if (type == HELLO_ATTACH_KPROBE)
		return 0;

	/* tp_btf and fentry: see the kernel take a trivial program of the kind. */
	if (type == HELLO_ATTACH_TP_BTF) {
		err = bpfkit_probe_tracing(BPF_TRACE_RAW_TP, id);
		if (err)
			return refuse(
				err,
				"tp_btf is not available on this kernel (a tp_btf program was refused: %s); use --attach=tracepoint or raw_tp",
				strerrorname_np(-err));
		return 0;
	}
	err = bpfkit_probe_tracing(BPF_TRACE_FENTRY, id);
	if (err)
		return refuse(
			err,
			"fentry is not available on this kernel (BPF trampolines refused: %s); use --attach=tracepoint or tp_btf",
			strerrorname_np(-err));
	return 0;
}

/* --attach's type, if this kernel has it; for auto, the first it has. */
static int choose_attach(void)
{
	int type, err;

	if (env.attach != ATTACH_AUTO) {
		err = check_attach(env.attach);
		if (err)
			bpfkit_error("%s", why);
		return err;
	}
	for (type = 0; type < HELLO_ATTACH_TYPES; type++) {
		if (!check_attach(type)) {
			env.attach = type;
			return 0;
		}
	}
	bpfkit_error(
		"no attach type works on this kernel; run with -v and --attach=tracepoint for details");
	return -EOPNOTSUPP;
}

/*
 * Load only the chosen type's program and describe it in T: fentry is
 * aimed at the syscall's function now, before load; a kprobe names it at
 * attach.
 */
static int choose_program(struct hello_attach_bpf *skel,
			  struct bpfkit_target *t)
{
	static char what[64];
	struct bpf_program *progs[HELLO_ATTACH_TYPES] = {
		[HELLO_ATTACH_TRACEPOINT] = skel->progs.hello_tracepoint,
		[HELLO_ATTACH_TP_BTF] = skel->progs.hello_tp_btf,
		[HELLO_ATTACH_RAW_TP] = skel->progs.hello_raw_tp,
		[HELLO_ATTACH_FENTRY] = skel->progs.hello_fentry,
		[HELLO_ATTACH_KSYSCALL] = skel->progs.hello_ksyscall,
		[HELLO_ATTACH_KPROBE] = skel->progs.hello_kprobe,
	};
	int i, err = 0;

	for (i = 0; i < HELLO_ATTACH_TYPES; i++)
		bpf_program__set_autoload(progs[i], i == env.attach);
	snprintf(what, sizeof(what), "attach to execve with %s",
		 attach_names[env.attach]);
	t->prog = progs[env.attach];
	t->func = env.attach == HELLO_ATTACH_KPROBE ? syscall_func : NULL;
	t->what = what;
	if (env.attach == HELLO_ATTACH_FENTRY) {
		err = bpf_program__set_attach_target(t->prog, 0, syscall_func);
		if (err)
			bpfkit_fail("aim fentry at the execve function", err);
	}
	return err;
}

static enum bpfkit_verdict print_event(void *ctx, const void *data, size_t size)
{
	const struct hello_attach_event *e = data;
	struct bpfkit_json j;
	const char *attach;

	if (size < sizeof(*e) || e->attach < 0 ||
	    e->attach >= HELLO_ATTACH_TYPES)
		return BPFKIT_UNREADABLE;
	attach = attach_names[e->attach];
	if (bpfkit_output_json()) {
		bpfkit_json_begin(&j, stdout, &e->rec);
		bpfkit_json_int(&j, "pid", e->pid);
		bpfkit_json_int(&j, "uid", e->uid);
		bpfkit_json_str(&j, "command", e->command, sizeof(e->command));
		bpfkit_json_str(&j, "attach", attach, strlen(attach));
		bpfkit_json_str(&j, "path", e->path, sizeof(e->path));
		bpfkit_json_end(&j);
		return BPFKIT_SHOWN;
	}
	bpfkit_print_time(&e->rec);
	printf("%d %d ", e->pid, e->uid);
	bpfkit_print_str(e->command, sizeof(e->command), 0);
	printf("%s ", attach);
	bpfkit_col_escape(stdout, e->path, sizeof(e->path), false);
	putchar('\n');
	return BPFKIT_SHOWN;
}

int main(int argc, char **argv)
{
	struct hello_attach_bpf *skel = NULL;
	struct bpfkit_channel *ch = NULL;
	struct bpfkit_target target;
	int err;

	/* Parse options; check privileges, tracefs and kernel BTF. */
	bpfkit_setup(&tool, argc, argv);

	/* Pick the attach type, checking that this kernel has it. */
	err = choose_attach();
	if (err)
		goto cleanup;

	/* Open the BPF object. */
	skel = hello_attach_bpf__open_opts(bpfkit_open_opts());
	if (!skel)
		return bpfkit_open_failed();

	/* The raw sys_enter programs keep only execve's syscall number. */
	skel->rodata->execve_nr = bpfkit_syscall_nr("execve");

	/* Load only the chosen program; aim fentry at the syscall function. */
	err = choose_program(skel, &target);
	if (err)
		goto cleanup;

	/* Write filters and buffer settings to .rodata; load and verify. */
	err = bpfkit_load(skel->skeleton);
	if (err)
		goto cleanup;

	/* Open the perf buffer, then attach the chosen program. */
	err = bpfkit_attach_target(skel->skeleton, &target, print_event, NULL,
				   &ch);
	if (err)
		goto cleanup;

	/* Print a header, then events until a signal or --duration. */
	bpfkit_print_header("PID UID COMMAND ATTACH PATH\n");
	err = bpfkit_run(ch, NULL);

cleanup:
	bpfkit_channel_free(ch);
	hello_attach_bpf__destroy(skel);
	return bpfkit_exit_code(err);
}
