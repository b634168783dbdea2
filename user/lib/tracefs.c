// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* tracefs, its tracepoints, and the programs kept for them. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include "diag.h"
#include "kernel.h"
#include "tracefs.h"

/* The tracefs directory, once found. */
static const char *tracefs_dir;

static const char *find_tracefs(void)
{
	static const char *const dirs[] = { "/sys/kernel/tracing",
					    "/sys/kernel/debug/tracing" };
	char probe[64];
	size_t i;

	for (i = 0; i < 2; i++) {
		snprintf(probe, sizeof(probe), "%s/trace_pipe", dirs[i]);
		/*
		 * With the effective capabilities: access() takes a non-root
		 * real user's as none, so CAP_DAC_READ_SEARCH (tracefs is
		 * 0700) would not count for a service run as a user.
		 */
		if (!faccessat(AT_FDCWD, probe, F_OK, AT_EACCESS))
			return dirs[i];
		if (errno == EACCES) {
			bpfkit_error(
				"cannot read tracefs at %s (%s); run it as root, or give it CAP_DAC_READ_SEARCH too",
				dirs[i], strerror(errno));
			return NULL;
		}
	}
	if (!mount("tracefs", dirs[0], "tracefs", 0, NULL))
		return dirs[0];
	bpfkit_error(
		"tracefs is not mounted and mounting it failed (%s); run 'mount -t tracefs tracefs /sys/kernel/tracing'",
		strerror(errno));
	return NULL;
}

const char *bpfkit_tracefs(void)
{
	if (!tracefs_dir)
		tracefs_dir = find_tracefs();
	return tracefs_dir;
}

void bpfkit_tracefs_use(const char *dir)
{
	tracefs_dir = dir;
}

bool bpfkit_tracepoint_exists(const char *category, const char *name)
{
	const char *tracefs = bpfkit_tracefs();
	char path[256];

	if (!tracefs)
		return false;
	snprintf(path, sizeof(path), "%s/events/%s/%s", tracefs, category,
		 name);
	return !faccessat(AT_FDCWD, path, F_OK, AT_EACCESS);
}

int bpfkit_require_tracepoint(const char *category, const char *name,
			      const char *why)
{
	if (bpfkit_tracepoint_exists(category, name))
		return 0;
	bpfkit_error("this kernel has no %s:%s tracepoint (%s)", category, name,
		     why);
	return -ENOENT;
}

/* Does this kernel have syscall NAME's entry tracepoint, and its exit's? */
static bool syscall_tps_exist(const char *name, bool exit)
{
	char enter_tp[64], exit_tp[64];

	snprintf(enter_tp, sizeof(enter_tp), "sys_enter_%s", name);
	snprintf(exit_tp, sizeof(exit_tp), "sys_exit_%s", name);
	return bpfkit_tracepoint_exists("syscalls", enter_tp) &&
	       (!exit || bpfkit_tracepoint_exists("syscalls", exit_tp));
}

int bpfkit_syscall_tps_autoload(const struct bpfkit_syscall_tp *tps, size_t n,
				const char *missing)
{
	bool found = false, ok;
	size_t i;

	for (i = 0; i < n; i++)
		if (tps[i].exit)
			bpf_program__set_autoload(tps[i].exit, false);
	for (i = 0; i < n; i++) {
		ok = syscall_tps_exist(tps[i].name, tps[i].exit);
		bpf_program__set_autoload(tps[i].enter, ok);
		if (ok && tps[i].exit)
			bpf_program__set_autoload(tps[i].exit, true);
		found |= ok;
	}
	if (!found && missing) {
		bpfkit_error(
			"this kernel has no syscalls:%s (CONFIG_FTRACE_SYSCALLS)",
			missing);
		return -ENOENT;
	}
	return 0;
}

/*
 * The btf_trace_NAME typedef's id in the kernel's BTF, as libbpf parses it
 * (bpfkit_kernel_btf(): BTF_PATH, from --btf, stands in for it); -ENOENT
 * when it has none (a minimized BTF keeps none).
 */
static int tracepoint_btf_id(const char *btf_path, const char *name)
{
	const struct btf *btf = bpfkit_kernel_btf(btf_path);
	char type[128];

	if (!btf)
		return -errno;
	snprintf(type, sizeof(type), "btf_trace_%s", name);
	return btf__find_by_name_kind(btf, type, BTF_KIND_TYPEDEF);
}

bool bpfkit_tp_btf_autoload(struct bpf_program *const *tp_btf,
			    struct bpf_program *const *raw, size_t n,
			    const char *btf_path, const char *name)
{
	int id = tracepoint_btf_id(btf_path, name);
	bool ok = id > 0 && !bpfkit_probe_tracing(BPF_TRACE_RAW_TP, id);
	size_t i;

	for (i = 0; i < n; i++) {
		bpf_program__set_autoload(tp_btf[i], ok);
		bpf_program__set_autoload(raw[i], !ok);
	}
	return ok;
}
