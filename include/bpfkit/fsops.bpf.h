/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The BPF side the file system tools share (fsslower, fsdist): reads,
 * writes, opens and fsyncs timed from their syscall's entry to its exit,
 * the file found by its fd in the task's file table and its file system
 * by the file's inode (i_sb->s_type->name), all by CO-RE reads. The tool
 * includes this file and defines
 *
 *	static __always_inline void fs_done(void *ctx,
 *					    const struct bpfkit_fs_call *c,
 *					    __u64 ns, long ret);
 *
 * called at the exit of each call the filters select (an open only when
 * it succeeded: a failed one has no file), NS its time, RET its return
 * value. The tool finds the file there with bpfkit_fs_file(), after its
 * cheaper checks. User space (user/lib/fsops.h) keeps the programs of the
 * syscalls this kernel has and sets the -t types.
 */
#ifndef BPFKIT_FSOPS_BPF_H
#define BPFKIT_FSOPS_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include "bpfkit/files.bpf.h"
#include "bpfkit/fsops.h"
#include "bpfkit/staging.bpf.h"

#define BPFKIT_S_IFMT 00170000
#define BPFKIT_S_IFREG 0100000

/* -t: the types traced (n 0: all). */
const volatile struct bpfkit_fs_types bpfkit_fs_types;

/* A call in flight, staged at its entry (bpfkit_stage()). */
struct bpfkit_fs_call {
	__u64 start_ns;
	__s64 pos; /* pread64, pwrite64: the offset asked; else -1 */
	__u32 fd; /* the file's; an open's, its result at exit */
	__u32 op; /* enum bpfkit_fs_op */
};

BPFKIT_STAGING(struct bpfkit_fs_call);

/* Whether TYPE, zero-padded, is one -t names (or -t names none). */
static __always_inline bool fs_type_wanted(const __u64 *type)
{
	const volatile __u64 *name;
	__u32 i;

	if (!bpfkit_fs_types.n)
		return true;
	for (i = 0; i < BPFKIT_FS_MAX_TYPES; i++) {
		if (i >= bpfkit_fs_types.n)
			break;
		name = (const volatile __u64 *)bpfkit_fs_types.names[i];
		if (type[0] == name[0] && type[1] == name[1])
			return true;
	}
	return false;
}

/*
 * A file system type's name, zero-padded, and whether -t traces it: read
 * the first time a type is seen, by its struct file_system_type, so that a
 * call reads a pointer rather than a string.
 */
struct bpfkit_fs_type {
	__u64 name[BPFKIT_FS_TYPE_LEN / 8];
	__u64 wanted;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 256);
	__type(key, __u64);
	__type(value, struct bpfkit_fs_type);
} bpfkit_fs_types_seen SEC(".maps");

/*
 * The regular file call C was made on, with its file system type's name
 * in TYPE (BPFKIT_FS_TYPE_LEN bytes, 8-aligned); NULL when its fd holds
 * none, another kind of file (a pipe's or a socket's waits are not file
 * system time), or a type -t leaves out.
 */
static __always_inline struct file *
bpfkit_fs_file(const struct bpfkit_fs_call *c, char *type)
{
	struct file *f = bpfkit_fd_file(c->fd);
	struct bpfkit_fs_type *t, seen = {};
	struct file_system_type *fst;
	__u64 *words = (__u64 *)type;
	struct inode *inode;
	__u64 key;

	if (!f)
		return NULL;
	inode = BPF_CORE_READ(f, f_inode);
	if ((BPF_CORE_READ(inode, i_mode) & BPFKIT_S_IFMT) != BPFKIT_S_IFREG)
		return NULL;
	fst = BPF_CORE_READ(inode, i_sb, s_type);
	key = (__u64)fst;
	t = bpf_map_lookup_elem(&bpfkit_fs_types_seen, &key);
	if (t) {
		seen = *t;
	} else {
		/* A full map: the name read again next time. */
		bpf_probe_read_kernel_str(seen.name, BPFKIT_FS_TYPE_LEN,
					  BPF_CORE_READ(fst, name));
		seen.wanted = fs_type_wanted(seen.name);
		bpf_map_update_elem(&bpfkit_fs_types_seen, &key, &seen,
				    BPF_NOEXIST);
	}
	if (!seen.wanted)
		return NULL;
	words[0] = seen.name[0];
	words[1] = seen.name[1];
	return f;
}

static __always_inline void fs_done(void *ctx, const struct bpfkit_fs_call *c,
				    __u64 ns, long ret);

static __always_inline int fs_enter(__u32 op, __u64 fd, __s64 pos)
{
	struct bpfkit_fs_call c = {
		.start_ns = bpf_ktime_get_ns(),
		.pos = pos,
		.fd = fd,
		.op = op,
	};

	bpfkit_stage(&bpfkit_staging, &c, sizeof(c));
	return 0;
}

static __always_inline int fs_exit(void *ctx, long ret)
{
	struct bpfkit_fs_call c, *staged;
	__u64 ns;

	staged = bpfkit_staged(&bpfkit_staging);
	if (!staged)
		return 0;
	c = *staged;
	bpfkit_unstage(&bpfkit_staging, staged);
	ns = bpf_ktime_get_ns() - c.start_ns;
	if (c.op == BPFKIT_FS_OPEN)
		c.fd = ret;
	if (c.op != BPFKIT_FS_OPEN || ret >= 0)
		fs_done(ctx, &c, ns, ret);
	return 0;
}

/*
 * The two programs of syscall NAME, an operation OP on the file at
 * descriptor FD (0 for an open: its result names it), at offset POS (-1:
 * the file's own); FD and POS may read the entry's arguments, ctx->args.
 */
#define BPFKIT_FS_SYSCALL(name, op, fd, pos)                 \
	SEC("tracepoint/syscalls/sys_enter_" #name)          \
	int fs_enter_##name(struct syscall_trace_enter *ctx) \
	{                                                    \
		return fs_enter(op, fd, pos);                \
	}                                                    \
	SEC("tracepoint/syscalls/sys_exit_" #name)           \
	int fs_exit_##name(struct syscall_trace_exit *ctx)   \
	{                                                    \
		return fs_exit(ctx, ctx->ret);               \
	}

BPFKIT_FS_SYSCALL(read, BPFKIT_FS_READ, ctx->args[0], -1)
BPFKIT_FS_SYSCALL(write, BPFKIT_FS_WRITE, ctx->args[0], -1)
BPFKIT_FS_SYSCALL(pread64, BPFKIT_FS_READ, ctx->args[0], ctx->args[3])
BPFKIT_FS_SYSCALL(pwrite64, BPFKIT_FS_WRITE, ctx->args[0], ctx->args[3])
BPFKIT_FS_SYSCALL(open, BPFKIT_FS_OPEN, 0, -1)
BPFKIT_FS_SYSCALL(openat, BPFKIT_FS_OPEN, 0, -1)
BPFKIT_FS_SYSCALL(openat2, BPFKIT_FS_OPEN, 0, -1)
BPFKIT_FS_SYSCALL(fsync, BPFKIT_FS_FSYNC, ctx->args[0], -1)
BPFKIT_FS_SYSCALL(fdatasync, BPFKIT_FS_FSYNC, ctx->args[0], -1)

#endif /* BPFKIT_FSOPS_BPF_H */
