// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The file system tools' shared user side: see fsops.h. */
#include <errno.h>
#include <string.h>
#include "diag.h"
#include "setup.h"
#include "tracefs.h"
#include "fsops.h"

int bpfkit_fs_parse_types(const char *arg, struct bpfkit_fs_types *types)
{
	const char *p = arg;
	size_t len;

	memset(types, 0, sizeof(*types));
	for (;;) {
		len = strcspn(p, ",");
		if (!len || len >= BPFKIT_FS_TYPE_LEN ||
		    strspn(p, "abcdefghijklmnopqrstuvwxyz0123456789_") != len)
			return bpfkit_usage_error(
				"invalid -t/--type '%s': expected file system type names (as in /proc/filesystems, at most %d characters) separated by commas",
				arg, BPFKIT_FS_TYPE_LEN - 1);
		if (types->n == BPFKIT_FS_MAX_TYPES)
			return bpfkit_usage_error(
				"invalid -t/--type '%s': at most %d types", arg,
				BPFKIT_FS_MAX_TYPES);
		memcpy(types->names[types->n++], p, len);
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

/* The syscalls of fsops.bpf.h, by the name of their programs' suffix. */
static const char *const syscalls[] = {
	"read",	  "write",   "pread64", "pwrite64",  "open",
	"openat", "openat2", "fsync",	"fdatasync",
};

enum { NR_SYSCALLS = sizeof(syscalls) / sizeof(syscalls[0]) };

int bpfkit_fs_prepare(struct bpf_object_skeleton *s,
		      const struct bpfkit_fs_types *types)
{
	struct bpfkit_syscall_tp tps[NR_SYSCALLS];
	struct bpfkit_fs_types *t;
	char name[64];
	size_t i;

	for (i = 0; i < NR_SYSCALLS; i++) {
		tps[i].name = syscalls[i];
		snprintf(name, sizeof(name), "fs_enter_%s", syscalls[i]);
		tps[i].enter = bpf_object__find_program_by_name(*s->obj, name);
		snprintf(name, sizeof(name), "fs_exit_%s", syscalls[i]);
		tps[i].exit = bpf_object__find_program_by_name(*s->obj, name);
		if (!tps[i].enter || !tps[i].exit) {
			bpfkit_fail("find the programs of bpfkit/fsops.bpf.h",
				    -ENOENT);
			return -ENOENT;
		}
	}
	t = bpfkit_object_var(s, ".rodata", "bpfkit_fs_types", sizeof(*t));
	if (!t) {
		bpfkit_fail("find the -t setting of bpfkit/fsops.bpf.h",
			    -errno);
		return -ENOENT;
	}
	*t = *types;
	return bpfkit_syscall_tps_autoload(tps, NR_SYSCALLS,
					   "sys_enter_read tracepoints");
}

const char *bpfkit_fs_op_name(__u32 op)
{
	static const char *const names[] = {
		[BPFKIT_FS_READ] = "read",
		[BPFKIT_FS_WRITE] = "write",
		[BPFKIT_FS_OPEN] = "open",
		[BPFKIT_FS_FSYNC] = "fsync",
	};

	return op < BPFKIT_FS_OPS ? names[op] : "?";
}
