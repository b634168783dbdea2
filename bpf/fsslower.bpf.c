// SPDX-License-Identifier: GPL-2.0
/*
 * fsslower: reads, writes, opens and fsyncs of regular files slower than
 * a threshold, each sent with its file's name and file system type.
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include "bpfkit/fsops.bpf.h"
#include "fsslower.h"

char LICENSE[] SEC("license") = "GPL";

/* -m: send calls that took this long or longer only. */
const volatile __u64 min_ns;

/* The record is too big for the stack: build it here. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct fsslower_event);
} fsslower_scratch SEC(".maps");

/*
 * The offset of a read or write: the one asked (pread64, pwrite64), else
 * where the file's offset was before the call moved it by RET bytes.
 */
static __always_inline __s64 offset_of(const struct bpfkit_fs_call *c,
				       struct file *f, long ret)
{
	if (c->op != BPFKIT_FS_READ && c->op != BPFKIT_FS_WRITE)
		return -1;
	if (c->pos >= 0)
		return c->pos;
	return BPF_CORE_READ(f, f_pos) - (ret > 0 ? ret : 0);
}

static __always_inline void fs_done(void *ctx, const struct bpfkit_fs_call *c,
				    __u64 ns, long ret)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	struct fsslower_event *e;
	struct file *f;
	long len;

	if (ns < min_ns)
		return;
	e = bpfkit_scratch(&fsslower_scratch);
	if (!e)
		return;
	f = bpfkit_fs_file(c, e->fstype);
	if (!f)
		return;
	e->ns = ns;
	e->ret = ret;
	e->offset = offset_of(c, f, ret);
	e->pid = pid_tgid >> 32;
	e->tid = pid_tgid;
	e->uid = bpf_get_current_uid_gid();
	e->op = c->op;
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	len = bpf_probe_read_kernel_str(e->file, sizeof(e->file),
					BPF_CORE_READ(f, f_path.dentry,
						      d_name.name));
	if (len <= 0) {
		e->file[0] = '\0';
		len = 1;
	}
	if (len > sizeof(e->file))
		len = sizeof(e->file);

	/* Send the header and the name's bytes only. */
	bpfkit_emit(ctx, &e->rec, offsetof(struct fsslower_event, file) + len);
}
