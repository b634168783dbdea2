// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Privileges: checked before open, given up once attached. */
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/bpf.h>
#include <linux/capability.h>
#include "diag.h"
#include "kernel.h"
#include "privs.h"
#include "tracefs.h"

#ifndef CAP_PERFMON
#define CAP_PERFMON 38
#endif
#ifndef CAP_BPF
#define CAP_BPF 39
#endif

#define CAP(c) (1ULL << (c))

/* The effective capability set; without capget(), root's all, or none. */
static __u64 effective_caps(void)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct caps[_LINUX_CAPABILITY_U32S_3] = {};

	if (syscall(SYS_capget, &hdr, caps))
		return geteuid() == 0 ? ~0ULL : 0;
	return caps[0].effective | (__u64)caps[1].effective << 32;
}

bool bpfkit_has_cap(int cap)
{
	return effective_caps() & CAP(cap);
}

const char *bpfkit_caps_missing(__u64 effective, bool user_probes)
{
	bool bpf = effective & CAP(CAP_BPF);
	bool perfmon = effective & CAP(CAP_PERFMON);

	if (effective & CAP(CAP_SYS_ADMIN))
		return NULL;
	if (user_probes)
		return "CAP_SYS_ADMIN";
	if (bpf && perfmon)
		return NULL;
	return bpf     ? "CAP_PERFMON" :
	       perfmon ? "CAP_BPF" :
			 "CAP_BPF and CAP_PERFMON";
}

int bpfkit_preflight(const char *btf_path, bool user_probes)
{
	const char *missing =
		bpfkit_caps_missing(effective_caps(), user_probes);

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
