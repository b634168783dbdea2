// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Diagnostics: libbpf's log, preflight checks, one-line errors. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <linux/capability.h>
#include "cli.h"
#include "diag.h"

#define KERNEL_BTF "/sys/kernel/btf/vmlinux"

#ifndef CAP_PERFMON
#define CAP_PERFMON 38
#endif
#ifndef CAP_BPF
#define CAP_BPF 39
#endif

static int print_all(enum libbpf_print_level level, const char *fmt,
		     va_list args)
{
	return vfprintf(stderr, fmt, args);
}

static int print_none(enum libbpf_print_level level, const char *fmt,
		      va_list args)
{
	return 0;
}

void bpfkit_setup_logging(bool verbose)
{
	libbpf_set_print(verbose ? print_all : print_none);
}

void bpfkit_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", bpfkit_env.tool);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static bool has_cap(const struct __user_cap_data_struct *caps, int cap)
{
	return caps[cap / 32].effective & (1U << (cap % 32));
}

/* Loading and reading BPF needs CAP_BPF and CAP_PERFMON, or CAP_SYS_ADMIN. */
static bool privileged(void)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct caps[_LINUX_CAPABILITY_U32S_3] = {};

	if (syscall(SYS_capget, &hdr, caps))
		return geteuid() == 0;
	return has_cap(caps, CAP_SYS_ADMIN) ||
	       (has_cap(caps, CAP_BPF) && has_cap(caps, CAP_PERFMON));
}

int bpfkit_preflight(void)
{
	if (!privileged()) {
		bpfkit_error(
			"needs root (CAP_BPF and CAP_PERFMON) to load BPF programs; run it with sudo");
		return -EPERM;
	}
	/* libbpf finds tracepoints through tracefs. */
	if (!bpfkit_tracefs())
		return -ENOENT;
	if (!bpfkit_env.btf_path && access(KERNEL_BTF, R_OK)) {
		bpfkit_error(
			"this kernel has no BTF (%s is missing); pass --btf FILE with this kernel's BTF (see 'make min-btf'), or boot a kernel built with CONFIG_DEBUG_INFO_BTF=y",
			KERNEL_BTF);
		return -ENOENT;
	}
	return 0;
}

const struct bpf_object_open_opts *bpfkit_open_opts(void)
{
	static struct bpf_object_open_opts opts = {
		.sz = sizeof(opts),
	};

	opts.btf_custom_path = bpfkit_env.btf_path;
	return &opts;
}

static const char *hint(int err)
{
	switch (err) {
	case -EPERM:
		return "; the kernel refused it (on old kernels raise the locked-memory limit: ulimit -l unlimited); run with -v for details";
	case -EACCES:
		return "; the verifier rejected it, run with -v for its log";
	case -ENOENT:
		return "; this kernel lacks the attach point, run with -v for details";
	case -ESRCH:
		return "; a kernel type or field this tool relies on is missing (CO-RE relocation failed), run with -v for details";
	case -EINVAL:
		return "; the kernel refused it, run with -v for libbpf's log";
	case -ENOMEM:
		return "; use a smaller --buffer-pages or raise ulimit -l";
	default:
		return "";
	}
}

void bpfkit_fail(const char *what, int err)
{
	bpfkit_error("failed to %s: %s%s", what, strerror(-err), hint(err));
}

const char *bpfkit_tracefs(void)
{
	static const char *const dirs[] = { "/sys/kernel/tracing",
					    "/sys/kernel/debug/tracing" };
	char probe[64];
	size_t i;

	for (i = 0; i < 2; i++) {
		snprintf(probe, sizeof(probe), "%s/trace_pipe", dirs[i]);
		if (!access(probe, F_OK))
			return dirs[i];
	}
	if (!mount("tracefs", dirs[0], "tracefs", 0, NULL))
		return dirs[0];
	bpfkit_error(
		"tracefs is not mounted and mounting it failed (%s); run 'mount -t tracefs tracefs /sys/kernel/tracing'",
		strerror(errno));
	return NULL;
}

bool bpfkit_tracepoint_exists(const char *category, const char *name)
{
	const char *tracefs = bpfkit_tracefs();
	char path[256];

	if (!tracefs)
		return false;
	snprintf(path, sizeof(path), "%s/events/%s/%s", tracefs, category,
		 name);
	return !access(path, F_OK);
}

int bpfkit_exit_code(int err)
{
	return err ? BPFKIT_EXIT_FAIL : BPFKIT_EXIT_OK;
}
