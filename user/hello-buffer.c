// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * hello-buffer: print "<pid> <uid> <command> <message>" for every execve,
 * sent by the BPF side through the event channel. -m and --even-odd choose
 * the message, -P adds the program path, and --attach chooses which of six
 * attach types sees the execve (Learning eBPF, chapters 2, 4 and 7).
 */
#define _GNU_SOURCE
#include <errno.h>
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
#include "tracefs.h"
#include "hello-buffer.h"
#include "hello-buffer.skel.h"

/* Keys of the long-only options. */
enum {
	OPT_EVEN_ODD = 0x2000,
	OPT_ATTACH,
};

#define ATTACH_AUTO (-1)

/* Attach type names, as --attach and the output spell them. */
static const char *const attach_names[HB_ATTACH_COUNT] = {
	[HB_TRACEPOINT] = "tracepoint", [HB_TP_BTF] = "tp_btf",
	[HB_RAW_TP] = "raw_tp",		[HB_FENTRY] = "fentry",
	[HB_KSYSCALL] = "ksyscall",	[HB_KPROBE] = "kprobe",
};

static struct {
	struct {
		__u32 uid;
		char text[HB_MESSAGE_LEN];
	} messages[HB_MAX_MESSAGES];
	int nr_messages;
	bool even_odd;
	bool path;
	int attach; /* enum hb_attach, or ATTACH_AUTO */
} env = { .attach = ATTACH_AUTO };

static const struct argp_option options[] = {
	{ NULL, 0, NULL, 0, "Messages and records:", 1 },
	{ "message", 'm', "UID=TEXT", 0,
	  "Greet user UID (a number or a name) with TEXT, 1 to 11 bytes; "
	  "repeatable",
	  0 },
	{ "even-odd", OPT_EVEN_ODD, NULL, 0,
	  "Greet with \"Even pid\" or \"Odd pid\" (a -m greeting wins)", 0 },
	{ "path", 'P', NULL, 0, "Add the exec'd program's path as last column",
	  0 },
	{ "attach", OPT_ATTACH, "TYPE", 0,
	  "See execve through TYPE: auto (default), tracepoint, tp_btf, "
	  "raw_tp, fentry, ksyscall or kprobe; any but auto adds an "
	  "ATTACH column",
	  0 },
	{},
};

/* -m UID=TEXT: remember TEXT for UID; a later one for the same UID wins. */
static int parse_message(char *arg)
{
	char *eq = strchr(arg, '=');
	size_t len;
	__u32 uid;
	int err, i;

	if (!eq)
		return bpfkit_usage_error(
			"invalid -m/--message '%s': expected UID=TEXT", arg);
	len = strlen(eq + 1);
	if (!len || len >= HB_MESSAGE_LEN)
		return bpfkit_usage_error(
			"invalid -m/--message '%s': TEXT must be 1 to %d bytes, not %zu",
			arg, HB_MESSAGE_LEN - 1, len);
	*eq = '\0';
	err = bpfkit_parse_uid("-m/--message UID", arg, &uid);
	*eq = '=';
	if (err)
		return err;
	for (i = 0; i < env.nr_messages && env.messages[i].uid != uid; i++)
		;
	if (i == HB_MAX_MESSAGES)
		return bpfkit_usage_error(
			"too many -m/--message: at most %d users",
			HB_MAX_MESSAGES);
	if (i == env.nr_messages)
		env.nr_messages++;
	env.messages[i].uid = uid;
	memset(env.messages[i].text, 0, HB_MESSAGE_LEN);
	memcpy(env.messages[i].text, eq + 1, len);
	return 0;
}

static int parse_attach(const char *arg)
{
	int i;

	if (!strcmp(arg, "auto")) {
		env.attach = ATTACH_AUTO;
		return 0;
	}
	for (i = 0; i < HB_ATTACH_COUNT; i++) {
		if (!strcmp(arg, attach_names[i])) {
			env.attach = i;
			return 0;
		}
	}
	return bpfkit_usage_error(
		"invalid --attach '%s': expected auto, tracepoint, tp_btf, raw_tp, fentry, ksyscall or kprobe",
		arg);
}

static error_t parse_own(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case 'm':
		return parse_message(arg);
	case OPT_EVEN_ODD:
		env.even_odd = true;
		return 0;
	case 'P':
		env.path = true;
		return 0;
	case OPT_ATTACH:
		return parse_attach(arg);
	}
	return ARGP_ERR_UNKNOWN;
}

static const struct bpfkit_tool tool = {
	.name = "hello-buffer",
	.doc = "Print pid, uid, command and a greeting for every execve.\n"
	       "\v"
	       "Examples:\n"
	       "  hello-buffer                      # every execve on the system\n"
	       "  hello-buffer -u 1000 -j           # user 1000's, as JSON Lines\n"
	       "  hello-buffer -m 0='Hey root!'     # greet root differently\n"
	       "  hello-buffer --even-odd -P        # pid parity, program path\n"
	       "  hello-buffer --attach=tp_btf      # seen by a BTF tracepoint\n"
	       "\n"
	       "--attach=auto takes the first of tracepoint, tp_btf, raw_tp,\n"
	       "fentry, ksyscall and kprobe that this kernel supports.\n",
	.options = BPFKIT_OPT_EVENTS,
	.own_options = options,
	.own_parser = parse_own,
};

/* The kernel function execve's kprobe or fentry attaches to. */
static char syscall_func[64];

/*
 * Can TYPE attach to execve on this kernel? Returns 0, or -errno with the
 * reason and the way out in WHY. Loads kernel BTF into *BTF when needed.
 */
static int check_attach(int type, const struct btf **btf, char *why, size_t len)
{
	enum bpf_attach_type btf_type = BPF_TRACE_FENTRY;
	int id, err;

	switch (type) {
	case HB_TRACEPOINT:
		if (bpfkit_tracepoint_exists("syscalls", "sys_enter_execve"))
			return 0;
		snprintf(
			why, len,
			"the syscalls:sys_enter_execve tracepoint is missing (CONFIG_FTRACE_SYSCALLS is not set); use --attach=tp_btf or raw_tp");
		return -ENOENT;
	case HB_RAW_TP:
		if (libbpf_probe_bpf_prog_type(BPF_PROG_TYPE_RAW_TRACEPOINT,
					       NULL) > 0)
			return 0;
		snprintf(
			why, len,
			"raw_tp is not available on this kernel (it needs Linux 4.17); use --attach=tracepoint");
		return -EOPNOTSUPP;
	case HB_KSYSCALL:
	case HB_KPROBE:
		if (!bpfkit_kprobes_available()) {
			snprintf(
				why, len,
				"kprobes are not available on this kernel (CONFIG_KPROBES or CONFIG_KPROBE_EVENTS is not set); use --attach=tracepoint");
			return -EOPNOTSUPP;
		}
		if (type == HB_KSYSCALL)
			return 0;
		break;
	}

	/* The rest need kernel BTF: tp_btf and fentry to load, kprobe too. */
	if (!*btf) {
		*btf = bpfkit_kernel_btf(bpfkit_opts.btf_path);
		if (!*btf) {
			err = -errno;
			snprintf(
				why, len,
				"%s needs kernel BTF, which failed to load (%s); use --attach=tracepoint",
				attach_names[type], strerrorname_np(-err));
			return err;
		}
	}
	if (type == HB_TP_BTF) {
		btf_type = BPF_TRACE_RAW_TP;
		id = btf__find_by_name_kind(*btf, "btf_trace_sys_enter",
					    BTF_KIND_TYPEDEF);
	} else {
		id = bpfkit_syscall_func(*btf, "execve", syscall_func,
					 sizeof(syscall_func));
	}
	if (id < 0) {
		snprintf(
			why, len,
			"%s is not available on this kernel (its BTF has no %s); use --attach=tracepoint",
			attach_names[type],
			type == HB_TP_BTF ? "sys_enter tracepoint" :
					    "execve function");
		return -ENOENT;
	}
	if (type == HB_KPROBE)
		return 0;

	/* Load a trivial program of the same kind, silently. */
	err = bpfkit_probe_tracing(btf_type, id);
	if (!err)
		return 0;
	if (type == HB_FENTRY)
		snprintf(
			why, len,
			"fentry is not available on this kernel (BPF trampolines refused: %s); use --attach=tracepoint or tp_btf",
			strerrorname_np(-err));
	else
		snprintf(
			why, len,
			"tp_btf is not available on this kernel (a tp_btf program was refused: %s); use --attach=tracepoint or raw_tp",
			strerrorname_np(-err));
	return err;
}

/* --attach, or the first type that works for auto; 0 or -errno. */
static int choose_attach(const struct btf **btf)
{
	char why[256];
	int type, err;

	if (env.attach != ATTACH_AUTO) {
		err = check_attach(env.attach, btf, why, sizeof(why));
		if (err)
			bpfkit_error("%s", why);
		return err;
	}
	for (type = 0; type < HB_ATTACH_COUNT; type++) {
		if (!check_attach(type, btf, why, sizeof(why))) {
			env.attach = type;
			return 0;
		}
	}
	bpfkit_error(
		"no attach type works on this kernel; run with -v and --attach=tracepoint for details");
	return -EOPNOTSUPP;
}

/* Write the -m greetings into the BPF side's hash map. */
static int fill_messages(struct bpf_map *map)
{
	int i, err;

	for (i = 0; i < env.nr_messages; i++) {
		err = bpf_map__update_elem(map, &env.messages[i].uid,
					   sizeof(__u32), env.messages[i].text,
					   HB_MESSAGE_LEN, BPF_ANY);
		if (err)
			return err;
	}
	return 0;
}

static const char *attach_name(int type)
{
	return type >= 0 && type < HB_ATTACH_COUNT ? attach_names[type] : "?";
}

static enum bpfkit_verdict print_event(void *ctx, const void *data, size_t size)
{
	const bool *with_attach = ctx;
	const struct hello_buffer_event *e = data;
	struct bpfkit_json j;

	if (size < sizeof(*e))
		return BPFKIT_UNREADABLE;
	if (bpfkit_output_json()) {
		bpfkit_json_begin(&j, stdout, &e->rec);
		bpfkit_json_int(&j, "pid", e->pid);
		bpfkit_json_int(&j, "uid", e->uid);
		bpfkit_json_str(&j, "command", e->command, sizeof(e->command));
		bpfkit_json_str(&j, "message", e->message, sizeof(e->message));
		bpfkit_json_str(&j, "attach", attach_name(e->attach),
				strlen(attach_name(e->attach)));
		bpfkit_json_str(&j, "path", e->path, sizeof(e->path));
		bpfkit_json_end(&j);
		return BPFKIT_SHOWN;
	}
	bpfkit_print_time(&e->rec);
	printf("%d %d ", e->pid, e->uid);
	bpfkit_print_str(e->command, sizeof(e->command), 0);
	bpfkit_col_escape(stdout, e->message, sizeof(e->message), false);
	if (*with_attach)
		printf(" %s", attach_name(e->attach));
	if (env.path) {
		putchar(' ');
		bpfkit_col_escape(stdout, e->path, sizeof(e->path), false);
	}
	putchar('\n');
	return BPFKIT_SHOWN;
}

/*
 * Load only the program of the chosen attach type and describe it in T:
 * fentry is aimed at the syscall function now, before load; a kprobe
 * names it at attach time.
 */
static int choose_program(struct hello_buffer_bpf *skel,
			  struct bpfkit_target *t)
{
	static char what[64];
	struct bpf_program *progs[HB_ATTACH_COUNT] = {
		[HB_TRACEPOINT] = skel->progs.hello_tracepoint,
		[HB_TP_BTF] = skel->progs.hello_tp_btf,
		[HB_RAW_TP] = skel->progs.hello_raw_tp,
		[HB_FENTRY] = skel->progs.hello_fentry,
		[HB_KSYSCALL] = skel->progs.hello_ksyscall,
		[HB_KPROBE] = skel->progs.hello_kprobe,
	};
	int i, err = 0;

	for (i = 0; i < HB_ATTACH_COUNT; i++)
		bpf_program__set_autoload(progs[i], i == env.attach);
	snprintf(what, sizeof(what), "attach to execve with %s",
		 attach_names[env.attach]);
	t->prog = progs[env.attach];
	t->func = env.attach == HB_KPROBE ? syscall_func : NULL;
	t->what = what;
	if (env.attach == HB_FENTRY) {
		err = bpf_program__set_attach_target(t->prog, 0, syscall_func);
		if (err)
			bpfkit_fail("aim fentry at the execve function", err);
	}
	return err;
}

int main(int argc, char **argv)
{
	struct hello_buffer_bpf *skel = NULL;
	struct bpfkit_channel *ch = NULL;
	struct bpfkit_target target;
	const struct btf *btf = NULL;
	bool with_attach;
	int err;

	/* Parse options; check privileges, tracefs and kernel BTF. */
	bpfkit_setup(&tool, argc, argv);
	with_attach = env.attach != ATTACH_AUTO;

	/* Pick the attach type, checking the kernel supports it. */
	err = choose_attach(&btf);
	if (err)
		goto cleanup;

	/* Open the BPF object. */
	skel = hello_buffer_bpf__open_opts(bpfkit_open_opts());
	if (!skel) {
		err = -errno;
		bpfkit_fail("open BPF object", err);
		goto cleanup;
	}

	/* Set the greeting mode and execve's number for sys_enter. */
	skel->rodata->even_odd = env.even_odd;
	skel->rodata->execve_nr = bpfkit_syscall_nr("execve");

	/* Load only the chosen program, aimed at the syscall function. */
	err = choose_program(skel, &target);
	if (err)
		goto cleanup;

	/* Write filters and channel settings to .rodata; load and verify. */
	err = bpfkit_load(skel->skeleton, &skel->rodata->bpfkit_filter,
			  &skel->rodata->bpfkit_channel_cfg);
	if (err)
		goto cleanup;

	/* Fill the per-user greetings. */
	err = fill_messages(skel->maps.messages);
	if (err) {
		bpfkit_fail("fill the -m/--message map", err);
		goto cleanup;
	}

	/* Open the event channel, then attach the chosen program. */
	err = bpfkit_attach_target(skel->skeleton, &target, print_event,
				   &with_attach, &ch);
	if (err)
		goto cleanup;

	/*
	 * The seed's plain lines need no header; extra columns get one.
	 * Then print events until a signal or --duration.
	 */
	if (with_attach || env.path || bpfkit_output_timed())
		bpfkit_print_header("PID UID COMMAND MESSAGE%s%s\n",
				    with_attach ? " ATTACH" : "",
				    env.path ? " PATH" : "");
	err = bpfkit_run(ch, NULL);

cleanup:
	bpfkit_channel_free(ch);
	hello_buffer_bpf__destroy(skel);
	return bpfkit_exit_code(err);
}
