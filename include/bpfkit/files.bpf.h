/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Files seen from the BPF side of the file tools: the struct file behind a
 * task's file descriptor, and a path's component names, every read CO-RE.
 */
#ifndef BPFKIT_FILES_BPF_H
#define BPFKIT_FILES_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include "bpfkit/core_fixes.bpf.h"
#include "bpfkit/files.h"

/*
 * The file open as FD in the current task's file table, or NULL. Through
 * the task's BTF pointers where the kernel has them (plain loads), else a
 * helper call per pointer; the table's slot is read by a helper either way.
 */
static __always_inline struct file *bpfkit_fd_file(long fd)
{
	struct file **fds, *f = NULL;
	struct fdtable *fdt;
	unsigned int max_fds;

	if (bpfkit_has_task_btf()) {
		fdt = bpf_get_current_task_btf()->files->fdt;
		if (!fdt)
			return NULL;
		max_fds = fdt->max_fds;
		fds = fdt->fd;
	} else {
		fdt = BPF_CORE_READ(
			(struct task_struct *)bpf_get_current_task(), files,
			fdt);
		if (!fdt)
			return NULL;
		max_fds = BPF_CORE_READ(fdt, max_fds);
		fds = BPF_CORE_READ(fdt, fd);
	}
	if (fd < 0 || fd >= max_fds)
		return NULL;
	bpf_core_read(&f, sizeof(f), &fds[fd]);
	return f;
}

/*
 * The names of PATH's components into NAMES, leaf first, up to the root of
 * the mount tree (a chroot's or container's root is no stop): from each
 * mount's root to its mount point in the parent mount, which takes a slot
 * of its own with an empty name (one counter for both keeps the verifier's
 * work linear in BPFKIT_PATH_DEPTH). The slots filled; BPFKIT_PATH_DEPTH
 * when there were more (the last ones are kept).
 */
static __always_inline __u32 bpfkit_path_names(const struct path *path,
					       char (*names)[BPFKIT_NAME_LEN])
{
	struct dentry *d = BPF_CORE_READ(path, dentry), *parent, *root;
	struct vfsmount *vfsmnt = BPF_CORE_READ(path, mnt);
	struct mount *mnt, *up;
	__u32 i;

	mnt = (void *)vfsmnt - bpf_core_field_offset(struct mount, mnt);
	root = BPF_CORE_READ(vfsmnt, mnt_root);
	for (i = 0; i < BPFKIT_PATH_DEPTH; i++) {
		parent = BPF_CORE_READ(d, d_parent);
		if (d == root || d == parent) {
			/* A mount's root: go on from where it is mounted. */
			up = BPF_CORE_READ(mnt, mnt_parent);
			if (up == mnt)
				break;
			d = BPF_CORE_READ(mnt, mnt_mountpoint);
			mnt = up;
			root = BPF_CORE_READ(mnt, mnt.mnt_root);
			names[i][0] = '\0';
			continue;
		}
		bpf_probe_read_kernel_str(names[i], BPFKIT_NAME_LEN,
					  BPF_CORE_READ(d, d_name.name));
		d = parent;
	}
	return i;
}

#endif /* BPFKIT_FILES_BPF_H */
