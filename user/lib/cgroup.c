// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* cgroup v2: its mount, and directories for the --cgroup filter. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <mntent.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/vfs.h>
#include <linux/magic.h>
#include "cgroup.h"
#include "diag.h"

const char *bpfkit_cgroup2_mount(const char *mounts)
{
	static char dir[PATH_MAX];
	struct mntent *m;
	FILE *f;

	dir[0] = '\0';
	f = setmntent(mounts ?: "/proc/mounts", "re");
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

/* Where to find cgroup v2 directories, for --cgroup's errors. */
static const char *cgroup2_hint(void)
{
	static char hint[PATH_MAX + 64];
	const char *dir = bpfkit_cgroup2_mount(NULL);

	if (!dir)
		return "cgroup v2 is not mounted (mount -t cgroup2 none DIR)";
	snprintf(hint, sizeof(hint),
		 "cgroup v2 is mounted at %s, give a directory under it", dir);
	return hint;
}

int bpfkit_cgroup_open(const char *path, __u64 *id, int *fd)
{
	struct {
		struct file_handle fh;
		__u64 id;
	} h = { .fh.handle_bytes = sizeof(__u64) };
	struct statfs st;
	int mount_id, dir;

	if (statfs(path, &st))
		return bpfkit_usage_error("invalid --cgroup '%s': %s; %s", path,
					  strerror(errno), cgroup2_hint());
	if (st.f_type == CGROUP_SUPER_MAGIC)
		return bpfkit_usage_error(
			"invalid --cgroup '%s': a cgroup v1 directory, but cgroup v2 is needed; %s",
			path, cgroup2_hint());
	if (st.f_type != CGROUP2_SUPER_MAGIC)
		return bpfkit_usage_error(
			"invalid --cgroup '%s': not a cgroup v2 directory; %s",
			path, cgroup2_hint());
	dir = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dir < 0)
		return bpfkit_usage_error("invalid --cgroup '%s': %s; %s", path,
					  strerror(errno), cgroup2_hint());
	if (name_to_handle_at(dir, "", &h.fh, &mount_id, AT_EMPTY_PATH)) {
		close(dir);
		return bpfkit_usage_error("invalid --cgroup '%s': %s", path,
					  strerror(errno));
	}
	if (*fd >= 0)
		close(*fd);
	*fd = dir;
	*id = h.id;
	return 0;
}
