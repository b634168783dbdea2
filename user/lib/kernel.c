// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * What this kernel offers: privileges and BTF, tracefs and tracepoints,
 * the cgroup v2 mount, kprobes, trampolines and the functions behind
 * syscalls.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <mntent.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <linux/capability.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "diag.h"
#include "kernel.h"

#define KERNEL_BTF "/sys/kernel/btf/vmlinux"

#ifndef CAP_PERFMON
#define CAP_PERFMON 38
#endif
#ifndef CAP_BPF
#define CAP_BPF 39
#endif

/* The prefix of syscall wrappers on this architecture, as libbpf has it. */
#if defined(__x86_64__)
#define SYSCALL_PREFIX "__x64_"
#elif defined(__aarch64__)
#define SYSCALL_PREFIX "__arm64_"
#elif defined(__s390x__)
#define SYSCALL_PREFIX "__s390x_"
#elif defined(__riscv)
#define SYSCALL_PREFIX "__riscv_"
#elif defined(__powerpc64__)
#define SYSCALL_PREFIX "__powerpc_"
#else
#define SYSCALL_PREFIX ""
#endif

static bool has_cap(const struct __user_cap_data_struct *caps, int cap)
{
	return caps[cap / 32].effective & (1U << (cap % 32));
}

/*
 * Loading and reading BPF needs CAP_BPF and CAP_PERFMON, or CAP_SYS_ADMIN:
 * NULL when the effective set holds them, else the names of those missing.
 */
static const char *missing_caps(void)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct caps[_LINUX_CAPABILITY_U32S_3] = {};
	bool bpf, perfmon;

	if (syscall(SYS_capget, &hdr, caps))
		return geteuid() == 0 ? NULL : "CAP_BPF and CAP_PERFMON";
	if (has_cap(caps, CAP_SYS_ADMIN))
		return NULL;
	bpf = has_cap(caps, CAP_BPF);
	perfmon = has_cap(caps, CAP_PERFMON);
	if (bpf && perfmon)
		return NULL;
	return bpf     ? "CAP_PERFMON" :
	       perfmon ? "CAP_BPF" :
			 "CAP_BPF and CAP_PERFMON";
}

int bpfkit_preflight(const char *btf_path)
{
	const char *missing = missing_caps();

	if (missing) {
		bpfkit_error(
			"needs root (CAP_BPF and CAP_PERFMON) to load BPF programs, and has no %s; run it with sudo, or with those capabilities (see its man page)",
			missing);
		return -EPERM;
	}
	/* libbpf finds tracepoints through tracefs. */
	if (!bpfkit_tracefs())
		return -ENOENT;
	if (!btf_path && access(KERNEL_BTF, R_OK)) {
		bpfkit_error(
			"this kernel has no BTF (%s is missing); pass --btf FILE with this kernel's BTF (see 'make min-btf'), or boot a kernel built with CONFIG_DEBUG_INFO_BTF=y",
			KERNEL_BTF);
		return -ENOENT;
	}
	return 0;
}

const char *bpfkit_tracefs(void)
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

const char *bpfkit_cgroup2_mount(void)
{
	static char dir[PATH_MAX];
	struct mntent *m;
	FILE *f;

	if (dir[0])
		return dir;
	f = setmntent("/proc/mounts", "re");
	if (!f)
		return NULL;
	while ((m = getmntent(f))) {
		if (!strcmp(m->mnt_type, "cgroup2")) {
			snprintf(dir, sizeof(dir), "%s", m->mnt_dir);
			break;
		}
	}
	endmntent(f);
	return dir[0] ? dir : NULL;
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

bool bpfkit_syscall_tp_autoload(struct bpf_program *enter,
				struct bpf_program *exit, const char *name)
{
	char enter_tp[64], exit_tp[64];
	bool ok;

	snprintf(enter_tp, sizeof(enter_tp), "sys_enter_%s", name);
	snprintf(exit_tp, sizeof(exit_tp), "sys_exit_%s", name);
	ok = bpfkit_tracepoint_exists("syscalls", enter_tp) &&
	     bpfkit_tracepoint_exists("syscalls", exit_tp);
	bpf_program__set_autoload(enter, ok);
	bpf_program__set_autoload(exit, ok);
	return ok;
}

int bpfkit_syscall_tps_autoload(const struct bpfkit_syscall_tp *tps, size_t n,
				const char *missing)
{
	bool found = false;
	size_t i;

	for (i = 0; i < n; i++)
		found |= bpfkit_syscall_tp_autoload(tps[i].enter, tps[i].exit,
						    tps[i].name);
	if (!found) {
		bpfkit_error(
			"this kernel has no syscalls:%s (CONFIG_FTRACE_SYSCALLS)",
			missing);
		return -ENOENT;
	}
	return 0;
}

bool bpfkit_kprobes_available(void)
{
	const char *tracefs = bpfkit_tracefs();
	char path[256];

	/* libbpf uses the kprobe PMU, or kprobe_events in tracefs without it. */
	if (!access("/sys/bus/event_source/devices/kprobe/type", R_OK))
		return true;
	if (!tracefs)
		return false;
	snprintf(path, sizeof(path), "%s/kprobe_events", tracefs);
	return !access(path, W_OK);
}

struct btf *bpfkit_kernel_btf(const char *btf_path)
{
	if (btf_path)
		return btf__parse(btf_path, NULL);
	return btf__load_vmlinux_btf();
}

int bpfkit_syscall_func(const struct btf *btf, const char *name, char *buf,
			size_t len)
{
	static const char *const formats[] = { SYSCALL_PREFIX "sys_%s",
					       "sys_%s" };
	size_t i;
	int id;

	for (i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		snprintf(buf, len, formats[i], name);
		id = btf__find_by_name_kind(btf, buf, BTF_KIND_FUNC);
		if (id > 0)
			return id;
	}
	return -ENOENT;
}

int bpfkit_probe_tracing(enum bpf_attach_type attach_type, int btf_id)
{
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, opts,
		    .expected_attach_type = attach_type,
		    .attach_btf_id = btf_id);
	int fd;

	fd = bpf_prog_load(BPF_PROG_TYPE_TRACING, NULL, "GPL", insns,
			   sizeof(insns) / sizeof(insns[0]), &opts);
	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

/* The btf_trace_NAME typedef's id in BTF, or -ENOENT. */
static int tracepoint_btf_id(const struct btf *btf, const char *name)
{
	char type[128];

	snprintf(type, sizeof(type), "btf_trace_%s", name);
	return btf__find_by_name_kind(btf, type, BTF_KIND_TYPEDEF);
}

bool bpfkit_btf_tracepoint_exists(const char *btf_path, const char *name)
{
	struct btf *btf = bpfkit_kernel_btf(btf_path);
	bool found;

	if (!btf)
		return false;
	found = tracepoint_btf_id(btf, name) > 0;
	btf__free(btf);
	return found;
}

bool bpfkit_tp_btf_autoload(struct bpf_program *const *tp_btf,
			    struct bpf_program *const *raw, size_t n,
			    const char *btf_path, const char *name)
{
	struct btf *btf = bpfkit_kernel_btf(btf_path);
	bool ok = false;
	size_t i;
	int id;

	if (btf) {
		id = tracepoint_btf_id(btf, name);
		ok = id > 0 && !bpfkit_probe_tracing(BPF_TRACE_RAW_TP, id);
		btf__free(btf);
	}
	for (i = 0; i < n; i++) {
		bpf_program__set_autoload(tp_btf[i], ok);
		bpf_program__set_autoload(raw[i], !ok);
	}
	return ok;
}
