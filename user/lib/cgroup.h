/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * cgroup v2 for the --cgroup filter: where it is mounted, and a
 * directory's fd and id for the BPF side.
 */
#ifndef BPFKIT_CGROUP_H
#define BPFKIT_CGROUP_H

#include <linux/types.h>

/*
 * Where cgroup v2 is mounted, the first in MOUNTS (a file laid out like
 * /proc/mounts; NULL: that one), or NULL. Valid until the next call.
 */
const char *bpfkit_cgroup2_mount(const char *mounts);

/*
 * Open cgroup v2 directory PATH (--cgroup) into *FD, closing the one held
 * there, and take its id, the kernfs id in its file handle, into *ID (setup's
 * bpfkit_load() puts FD into the filter's cgroup array; the id tells the BPF
 * side that --cgroup is set). A bad PATH is a usage error, reported in one
 * line with where cgroup v2 is mounted; returns EINVAL for argp.
 */
int bpfkit_cgroup_open(const char *path, __u64 *id, int *fd);

#endif /* BPFKIT_CGROUP_H */
