// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * mount-trigger COMM DIR: name this process COMM and print its pid; then,
 * in the caller's mount namespace (make it private: unshare -m), mount a
 * tmpfs on DIR and unmount it, try a mount with a bad option (EINVAL), and
 * mount one with the new API (fsopen, fsconfig, fsmount, move_mount) and
 * unmount it. Prints "CALL RESULT" per call: 0 or the new fd, or -errno.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/prctl.h>

static int report(const char *call, int ret)
{
	printf("%s %d\n", call, ret < 0 ? -errno : ret);
	return ret;
}

int main(int argc, char **argv)
{
	const char *dir = argv[2];
	int fs, mnt;

	if (argc != 3) {
		fprintf(stderr, "usage: mount-trigger COMM DIR\n");
		return 2;
	}
	if (prctl(PR_SET_NAME, argv[1])) {
		perror("mount-trigger: prctl");
		return 1;
	}
	printf("%d\n", getpid());

	report("mount",
	       mount("bk-src", dir, "tmpfs", MS_NOSUID | MS_NODEV, "size=1m"));
	report("umount2", umount2(dir, 0));
	report("mount", mount("bk-src", dir, "tmpfs", 0, "size=bogus"));

	fs = report("fsopen", fsopen("tmpfs", FSOPEN_CLOEXEC));
	report("fsconfig", fsconfig(fs, FSCONFIG_SET_STRING, "size", "1m", 0));
	report("fsconfig", fsconfig(fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0));
	mnt = report("fsmount", fsmount(fs, FSMOUNT_CLOEXEC, MOUNT_ATTR_NODEV));
	report("move_mount",
	       move_mount(mnt, "", AT_FDCWD, dir, MOVE_MOUNT_F_EMPTY_PATH));
	report("umount2", umount2(dir, MNT_DETACH));
	return 0;
}
