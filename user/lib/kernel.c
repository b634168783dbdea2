// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * What this kernel offers: privileges and BTF, tracefs and tracepoints,
 * the cgroup v2 mount, kprobes, trampolines and the functions behind
 * syscalls.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <mntent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <linux/capability.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "diag.h"
#include "kernel.h"

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

bool bpfkit_has_cap(int cap)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct caps[_LINUX_CAPABILITY_U32S_3] = {};

	if (syscall(SYS_capget, &hdr, caps))
		return geteuid() == 0;
	return has_cap(caps, cap);
}

/*
 * Loading and reading BPF needs CAP_BPF and CAP_PERFMON, or CAP_SYS_ADMIN;
 * user probes need CAP_SYS_ADMIN (the kernel's uprobe PMU opens its perf
 * events for nothing less): NULL when the effective set holds what is
 * needed, else the names of those missing.
 */
static const char *missing_caps(bool user_probes)
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
	if (user_probes)
		return "CAP_SYS_ADMIN";
	bpf = has_cap(caps, CAP_BPF);
	perfmon = has_cap(caps, CAP_PERFMON);
	if (bpf && perfmon)
		return NULL;
	return bpf     ? "CAP_PERFMON" :
	       perfmon ? "CAP_BPF" :
			 "CAP_BPF and CAP_PERFMON";
}

int bpfkit_preflight(const char *btf_path, bool user_probes)
{
	const char *missing = missing_caps(user_probes);

	if (missing && user_probes) {
		bpfkit_error(
			"needs root (CAP_SYS_ADMIN: this kernel opens user probes only for it, over CAP_BPF and CAP_PERFMON), and has no %s; run it with sudo, or with CAP_SYS_ADMIN and CAP_DAC_READ_SEARCH (see its man page)",
			missing);
		return -EPERM;
	}
	if (missing) {
		bpfkit_error(
			"needs root (CAP_BPF and CAP_PERFMON) to load BPF programs, and has no %s; run it with sudo, or with those capabilities (see its man page)",
			missing);
		return -EPERM;
	}
	/* libbpf finds tracepoints through tracefs. */
	if (!bpfkit_tracefs())
		return -ENOENT;
	if (!btf_path && access(BPFKIT_KERNEL_BTF, R_OK)) {
		bpfkit_error(
			"this kernel has no BTF (%s is missing); pass --btf FILE with this kernel's BTF (see 'make min-btf'), or boot a kernel built with CONFIG_DEBUG_INFO_BTF=y",
			BPFKIT_KERNEL_BTF);
		return -ENOENT;
	}
	return 0;
}

/* Set the effective and permitted sets to MASK, the inheritable one empty. */
static int set_caps(__u64 mask)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct caps[_LINUX_CAPABILITY_U32S_3] = {};
	int i;

	for (i = 0; i < _LINUX_CAPABILITY_U32S_3; i++)
		caps[i].effective = caps[i].permitted = mask >> (32 * i);
	return syscall(SYS_capset, &hdr, caps) ? -errno : 0;
}

/*
 * Does this kernel's bpf() need CAP_BPF for every command, even on objects
 * held by fd? Before Linux 6.5 it did with unprivileged_bpf_disabled; a
 * child without capabilities asks it about fd -1: EPERM says so, EBADF not.
 */
static bool bpf_needs_cap(void)
{
	union bpf_attr attr = { .map_fd = -1 };
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		set_caps(0);
		_exit(syscall(SYS_bpf, BPF_MAP_GET_NEXT_KEY, &attr,
			      sizeof(attr)) < 0 &&
		      errno == EPERM);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return true;
	return !WIFEXITED(status) || WEXITSTATUS(status);
}

int bpfkit_drop_privileges(const struct bpfkit_drop_opts *drop)
{
	__u64 keep;
	int cap, err;

	if (!drop->user)
		return 0;
	keep = bpf_needs_cap() ? 1ULL << CAP_BPF : 0;
	/* The ambient and bounding sets first, while CAP_SETPCAP lasts. */
	prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
	for (cap = 0; prctl(PR_CAPBSET_READ, cap, 0, 0, 0) >= 0; cap++)
		if (!(keep & (1ULL << cap)))
			prctl(PR_CAPBSET_DROP, cap, 0, 0, 0);
	if (keep && prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0)) {
		err = -errno;
		bpfkit_fail("keep CAP_BPF across the user switch", err);
		return err;
	}
	if (initgroups(drop->user, drop->gid) ||
	    setresgid(drop->gid, drop->gid, drop->gid) ||
	    setresuid(drop->uid, drop->uid, drop->uid)) {
		err = -errno;
		bpfkit_error(
			"cannot switch to user %s for --drop-privileges: %s; start it as root, or with CAP_SETUID and CAP_SETGID too",
			drop->user, strerror(-err));
		return err;
	}
	err = set_caps(keep);
	if (!err && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		err = -errno;
	if (err)
		bpfkit_fail("drop the capabilities", err);
	return err;
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

/* Does this kernel have syscall NAME's two tracepoints? */
static bool syscall_tps_exist(const char *name)
{
	char enter_tp[64], exit_tp[64];

	snprintf(enter_tp, sizeof(enter_tp), "sys_enter_%s", name);
	snprintf(exit_tp, sizeof(exit_tp), "sys_exit_%s", name);
	return bpfkit_tracepoint_exists("syscalls", enter_tp) &&
	       bpfkit_tracepoint_exists("syscalls", exit_tp);
}

int bpfkit_syscall_tps_autoload(const struct bpfkit_syscall_tp *tps, size_t n,
				const char *missing)
{
	bool found = false, ok;
	size_t i;

	for (i = 0; i < n; i++)
		bpf_program__set_autoload(tps[i].exit, false);
	for (i = 0; i < n; i++) {
		ok = syscall_tps_exist(tps[i].name);
		bpf_program__set_autoload(tps[i].enter, ok);
		if (ok)
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

bool bpfkit_kernel_at_least(unsigned int major, unsigned int minor)
{
	unsigned int have_major, have_minor;
	struct utsname u;

	if (uname(&u) ||
	    sscanf(u.release, "%u.%u", &have_major, &have_minor) != 2)
		return false;
	return have_major > major ||
	       (have_major == major && have_minor >= minor);
}

void bpfkit_sparse_map(struct bpf_map *map)
{
	if (bpfkit_kernel_at_least(6, 1))
		bpf_map__set_map_flags(map, bpf_map__map_flags(map) |
						    BPF_F_NO_PREALLOC);
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

/* The kernel's BTF, loaded once (bpfkit_kernel_btf()) and kept until load. */
static struct btf *kernel_btf;

const struct btf *bpfkit_kernel_btf(const char *btf_path)
{
	if (kernel_btf)
		return kernel_btf;
	kernel_btf = btf_path ? btf__parse(btf_path, NULL) :
				btf__load_vmlinux_btf();
	return kernel_btf;
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

void bpfkit_btf_release(void)
{
	btf__free(kernel_btf);
	kernel_btf = NULL;
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

int bpfkit_kernel_funcs(struct bpfkit_kernel_func *funcs, size_t n)
{
	struct bpfkit_kernel_func *open = NULL; /* found, its end not yet */
	size_t ended = 0, len = 0, i;
	char *line = NULL, *sym, *nl;
	static char buf[1 << 16];
	unsigned long long addr;
	char type;
	FILE *f;

	for (i = 0; i < n; i++)
		funcs[i].start = funcs[i].end = 0;
	f = fopen("/proc/kallsyms", "re");
	if (!f)
		return -errno;
	setvbuf(f, buf, _IOFBF, sizeof(buf));
	/*
	 * vmlinux's symbols come sorted by address: the next one ends a
	 * function. "ADDR TYPE NAME[\t[MODULE]]", parsed by hand: fscanf()
	 * took tens of milliseconds over the 200000 lines.
	 */
	while (ended < n && !funcs[0].end && getline(&line, &len, f) > 0) {
		addr = strtoull(line, &sym, 16);
		if (!addr || sym[0] != ' ' || !sym[1] || sym[2] != ' ')
			continue;
		if (open && addr > open->start) {
			open->end = addr;
			open = NULL;
			ended++;
		}
		type = sym[1];
		sym += 3;
		nl = strpbrk(sym, "\t\n");
		if (nl)
			*nl = '\0';
		if (open || (type != 't' && type != 'T'))
			continue;
		for (i = 0; i < n; i++) {
			if (!funcs[i].start && !strcmp(sym, funcs[i].name)) {
				funcs[i].start = addr;
				open = &funcs[i];
				break;
			}
		}
	}
	free(line);
	fclose(f);
	/* A function found last, with no symbol after it, has no end. */
	if (open)
		open->start = 0;
	return ended;
}
