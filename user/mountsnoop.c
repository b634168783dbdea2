// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * mountsnoop: print every mount(2), umount2(2), fsopen(2), fsconfig(2),
 * fsmount(2), move_mount(2) and open_tree(2) with the process, the call
 * with its arguments decoded, and the result.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include "channel.h"
#include "cli.h"
#include "diag.h"
#include "output.h"
#include "run.h"
#include "setup.h"
#include "tracefs.h"
#include "mountsnoop.h"
#include "mountsnoop.skel.h"

/* Column widths, for the header and every row. */
enum { PID_W = 7, COMM_W = 15, NS_W = 10, RET_W = 7, FLAGS_LEN = 512 };

static const struct bpfkit_tool tool = {
	.name = "mountsnoop",
	.doc = "Trace mount(2), umount2(2) and the new mount API (fsopen, fsconfig, fsmount, move_mount, open_tree).\n"
	       "\v"
	       "Examples:\n"
	       "  mountsnoop                 # every mount call on the system\n"
	       "  mountsnoop -x              # failed calls only\n"
	       "  mountsnoop -c containerd -j   # containerd's calls, as JSON Lines\n",
	.options = BPFKIT_OPT_EVENTS | BPFKIT_OPT_FAILED,
};

static const char *const call_names[MOUNTSNOOP_CALLS] = {
	[MOUNTSNOOP_MOUNT] = "mount",
	[MOUNTSNOOP_UMOUNT] = "umount2",
	[MOUNTSNOOP_FSOPEN] = "fsopen",
	[MOUNTSNOOP_FSCONFIG] = "fsconfig",
	[MOUNTSNOOP_FSMOUNT] = "fsmount",
	[MOUNTSNOOP_MOVE_MOUNT] = "move_mount",
	[MOUNTSNOOP_OPEN_TREE] = "open_tree",
};

struct bit_name {
	__u64 bit;
	const char *name;
};

#define BIT(x)        \
	{             \
		x, #x \
	}

static const struct bit_name mount_flags[] = {
	BIT(MS_RDONLY),	     BIT(MS_NOSUID),
	BIT(MS_NODEV),	     BIT(MS_NOEXEC),
	BIT(MS_SYNCHRONOUS), BIT(MS_REMOUNT),
	BIT(MS_MANDLOCK),    BIT(MS_DIRSYNC),
	BIT(MS_NOSYMFOLLOW), BIT(MS_NOATIME),
	BIT(MS_NODIRATIME),  BIT(MS_BIND),
	BIT(MS_MOVE),	     BIT(MS_REC),
	BIT(MS_SILENT),	     BIT(MS_POSIXACL),
	BIT(MS_UNBINDABLE),  BIT(MS_PRIVATE),
	BIT(MS_SLAVE),	     BIT(MS_SHARED),
	BIT(MS_RELATIME),    BIT(MS_KERNMOUNT),
	BIT(MS_I_VERSION),   BIT(MS_STRICTATIME),
	BIT(MS_LAZYTIME),    {},
};

static const struct bit_name umount_flags[] = {
	BIT(MNT_FORCE),
	BIT(MNT_DETACH),
	BIT(MNT_EXPIRE),
	BIT(UMOUNT_NOFOLLOW),
	{},
};

static const struct bit_name fsopen_flags[] = { BIT(FSOPEN_CLOEXEC), {} };

static const struct bit_name fsmount_flags[] = { BIT(FSMOUNT_CLOEXEC), {} };

static const struct bit_name mount_attrs[] = {
	BIT(MOUNT_ATTR_RDONLY),	     BIT(MOUNT_ATTR_NOSUID),
	BIT(MOUNT_ATTR_NODEV),	     BIT(MOUNT_ATTR_NOEXEC),
	BIT(MOUNT_ATTR_NOATIME),     BIT(MOUNT_ATTR_STRICTATIME),
	BIT(MOUNT_ATTR_NODIRATIME),  BIT(MOUNT_ATTR_IDMAP),
	BIT(MOUNT_ATTR_NOSYMFOLLOW), {},
};

static const struct bit_name move_mount_flags[] = {
	BIT(MOVE_MOUNT_F_SYMLINKS),   BIT(MOVE_MOUNT_F_AUTOMOUNTS),
	BIT(MOVE_MOUNT_F_EMPTY_PATH), BIT(MOVE_MOUNT_T_SYMLINKS),
	BIT(MOVE_MOUNT_T_AUTOMOUNTS), BIT(MOVE_MOUNT_T_EMPTY_PATH),
	BIT(MOVE_MOUNT_SET_GROUP),    {},
};

static const struct bit_name open_tree_flags[] = {
	BIT(OPEN_TREE_CLONE),
	BIT(OPEN_TREE_CLOEXEC),
	BIT(AT_SYMLINK_NOFOLLOW),
	BIT(AT_NO_AUTOMOUNT),
	BIT(AT_EMPTY_PATH),
	BIT(AT_RECURSIVE),
	{},
};

static const char *const fsconfig_cmds[] = {
	[FSCONFIG_SET_FLAG] = "FSCONFIG_SET_FLAG",
	[FSCONFIG_SET_STRING] = "FSCONFIG_SET_STRING",
	[FSCONFIG_SET_BINARY] = "FSCONFIG_SET_BINARY",
	[FSCONFIG_SET_PATH] = "FSCONFIG_SET_PATH",
	[FSCONFIG_SET_PATH_EMPTY] = "FSCONFIG_SET_PATH_EMPTY",
	[FSCONFIG_SET_FD] = "FSCONFIG_SET_FD",
	[FSCONFIG_CMD_CREATE] = "FSCONFIG_CMD_CREATE",
	[FSCONFIG_CMD_RECONFIGURE] = "FSCONFIG_CMD_RECONFIGURE",
};

/* Write FLAGS as "A|B|0x..." by NAMES; "0" when none is set. */
static void decode_bits(const struct bit_name *names, __u64 flags, char *buf,
			size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	/* mount(2) still accepts the old magic number in the high bits. */
	if (names == mount_flags && (flags & MS_MGC_MSK) == MS_MGC_VAL) {
		n += snprintf(buf, len, "MS_MGC_VAL");
		flags &= ~(__u64)MS_MGC_MSK;
	}
	for (; names->name; names++) {
		if (!(flags & names->bit) || n >= len)
			continue;
		n += snprintf(buf + n, len - n, "%s%s", n ? "|" : "",
			      names->name);
		flags &= ~names->bit;
	}
	if (n < len && (flags || !n))
		snprintf(buf + n, len - n, n ? "|0x%llx" : "%#llx",
			 (unsigned long long)flags);
}

/* The flags' names, by call; false when the call has no flags. */
static bool flag_names(const struct mountsnoop_event *e, char *buf, size_t len)
{
	static const struct bit_name *const tables[MOUNTSNOOP_CALLS] = {
		[MOUNTSNOOP_MOUNT] = mount_flags,
		[MOUNTSNOOP_UMOUNT] = umount_flags,
		[MOUNTSNOOP_FSOPEN] = fsopen_flags,
		[MOUNTSNOOP_FSMOUNT] = fsmount_flags,
		[MOUNTSNOOP_MOVE_MOUNT] = move_mount_flags,
		[MOUNTSNOOP_OPEN_TREE] = open_tree_flags,
	};

	if (e->call >= MOUNTSNOOP_CALLS || !tables[e->call])
		return false;
	decode_bits(tables[e->call], e->flags, buf, len);
	return true;
}

static const char *fsconfig_cmd(__u64 cmd)
{
	return cmd < sizeof(fsconfig_cmds) / sizeof(fsconfig_cmds[0]) &&
			       fsconfig_cmds[cmd] ?
		       fsconfig_cmds[cmd] :
		       "?";
}

static const char *error_name(__s32 ret)
{
	return strerrorname_np(-(long)ret) ?: "?";
}

/* A kernel string as a quoted, escaped C string. */
static void print_quoted(const char *s, size_t len)
{
	putchar('"');
	bpfkit_col_escape(stdout, s, len, true);
	putchar('"');
}

/* A directory fd as strace shows it. */
static void print_dfd(__s32 fd)
{
	if (fd == AT_FDCWD)
		printf("AT_FDCWD");
	else
		printf("%d", fd);
}

/* The call as "mount("src", "/mnt", "tmpfs", MS_NOSUID, "size=1m")". */
static void print_call(const struct mountsnoop_event *e, const char *flags)
{
	char attrs[FLAGS_LEN];

	printf("%s(", call_names[e->call]);
	switch (e->call) {
	case MOUNTSNOOP_MOUNT:
		print_quoted(e->source, sizeof(e->source));
		printf(", ");
		print_quoted(e->target, sizeof(e->target));
		printf(", ");
		print_quoted(e->fstype, sizeof(e->fstype));
		printf(", %s, ", flags);
		print_quoted(e->data, sizeof(e->data));
		break;
	case MOUNTSNOOP_UMOUNT:
		print_quoted(e->target, sizeof(e->target));
		printf(", %s", flags);
		break;
	case MOUNTSNOOP_FSOPEN:
		print_quoted(e->fstype, sizeof(e->fstype));
		printf(", %s", flags);
		break;
	case MOUNTSNOOP_FSCONFIG:
		printf("%d, %s, ", e->fd, fsconfig_cmd(e->aux));
		print_quoted(e->fstype, sizeof(e->fstype));
		printf(", ");
		print_quoted(e->source, sizeof(e->source));
		printf(", %d", e->fd2);
		break;
	case MOUNTSNOOP_FSMOUNT:
		decode_bits(mount_attrs, e->aux, attrs, sizeof(attrs));
		printf("%d, %s, %s", e->fd, flags, attrs);
		break;
	case MOUNTSNOOP_MOVE_MOUNT:
		print_dfd(e->fd);
		printf(", ");
		print_quoted(e->source, sizeof(e->source));
		printf(", ");
		print_dfd(e->fd2);
		printf(", ");
		print_quoted(e->target, sizeof(e->target));
		printf(", %s", flags);
		break;
	case MOUNTSNOOP_OPEN_TREE:
		print_dfd(e->fd);
		printf(", ");
		print_quoted(e->source, sizeof(e->source));
		printf(", %s", flags);
		break;
	}
	putchar(')');
}

static void print_json(const struct mountsnoop_event *e, const char *flags)
{
	struct bpfkit_json j;

	bpfkit_json_begin(&j, stdout, &e->rec);
	bpfkit_json_task(&j, e->pid, e->tid, e->uid, e->comm);
	bpfkit_json_uint(&j, "mnt_ns", e->mnt_ns);
	bpfkit_json_str(&j, "syscall", call_names[e->call], 16);
	bpfkit_json_int(&j, "ret", e->ret < 0 ? -1 : e->ret);
	bpfkit_json_int(&j, "errno", e->ret < 0 ? -(long)e->ret : 0);
	if (e->ret < 0)
		bpfkit_json_str(&j, "error", error_name(e->ret), 32);
	if (flags) {
		bpfkit_json_uint(&j, "flags", e->flags);
		bpfkit_json_str(&j, "flag_names", flags, strlen(flags));
	}
	switch (e->call) {
	case MOUNTSNOOP_MOUNT:
		bpfkit_json_str(&j, "source", e->source, sizeof(e->source));
		bpfkit_json_str(&j, "target", e->target, sizeof(e->target));
		bpfkit_json_str(&j, "fstype", e->fstype, sizeof(e->fstype));
		bpfkit_json_str(&j, "data", e->data, sizeof(e->data));
		break;
	case MOUNTSNOOP_UMOUNT:
		bpfkit_json_str(&j, "target", e->target, sizeof(e->target));
		break;
	case MOUNTSNOOP_FSOPEN:
		bpfkit_json_str(&j, "fstype", e->fstype, sizeof(e->fstype));
		break;
	case MOUNTSNOOP_FSCONFIG:
		bpfkit_json_int(&j, "fd", e->fd);
		bpfkit_json_str(&j, "cmd", fsconfig_cmd(e->aux), 32);
		bpfkit_json_str(&j, "key", e->fstype, sizeof(e->fstype));
		bpfkit_json_str(&j, "value", e->source, sizeof(e->source));
		bpfkit_json_int(&j, "aux", e->fd2);
		break;
	case MOUNTSNOOP_FSMOUNT:
		bpfkit_json_int(&j, "fd", e->fd);
		bpfkit_json_uint(&j, "attr_flags", e->aux);
		break;
	case MOUNTSNOOP_MOVE_MOUNT:
		bpfkit_json_int(&j, "from_dfd", e->fd);
		bpfkit_json_str(&j, "source", e->source, sizeof(e->source));
		bpfkit_json_int(&j, "to_dfd", e->fd2);
		bpfkit_json_str(&j, "target", e->target, sizeof(e->target));
		break;
	case MOUNTSNOOP_OPEN_TREE:
		bpfkit_json_int(&j, "dfd", e->fd);
		bpfkit_json_str(&j, "source", e->source, sizeof(e->source));
		break;
	}
	bpfkit_json_end(&j);
}

static enum bpfkit_verdict print_event(void *ctx, const void *data, size_t size)
{
	const struct mountsnoop_event *e = data;
	char flags[FLAGS_LEN], ret[16];
	bool has_flags;

	/* Records come whole; perf may pad the end. */
	if (size < sizeof(*e) || e->call >= MOUNTSNOOP_CALLS)
		return BPFKIT_UNREADABLE;
	has_flags = flag_names(e, flags, sizeof(flags));
	if (bpfkit_output_json()) {
		print_json(e, has_flags ? flags : NULL);
		return BPFKIT_SHOWN;
	}
	if (e->ret >= 0)
		snprintf(ret, sizeof(ret), "%d", e->ret);
	else
		snprintf(ret, sizeof(ret), "%s", error_name(e->ret));
	bpfkit_print_time(&e->rec);
	printf("%-*u ", PID_W, e->pid);
	bpfkit_print_str(e->comm, sizeof(e->comm), COMM_W);
	printf("%-*u %-*s ", NS_W, e->mnt_ns, RET_W, ret);
	print_call(e, flags);
	putchar('\n');
	return BPFKIT_SHOWN;
}

/* The calls: each one's enter program, and the exit program they share. */
enum { NR_CALLS = 7 };

static void mount_calls(struct mountsnoop_bpf *skel,
			struct bpfkit_syscall_tp calls[NR_CALLS])
{
	const struct bpfkit_syscall_tp c[NR_CALLS] = {
		{ skel->progs.mount_enter, skel->progs.mount_exit, "mount" },
		{ skel->progs.umount_enter, skel->progs.mount_exit, "umount" },
		{ skel->progs.fsopen_enter, skel->progs.mount_exit, "fsopen" },
		{ skel->progs.fsconfig_enter, skel->progs.mount_exit,
		  "fsconfig" },
		{ skel->progs.fsmount_enter, skel->progs.mount_exit,
		  "fsmount" },
		{ skel->progs.move_mount_enter, skel->progs.mount_exit,
		  "move_mount" },
		{ skel->progs.open_tree_enter, skel->progs.mount_exit,
		  "open_tree" },
	};

	memcpy(calls, c, sizeof(c));
}

int main(int argc, char **argv)
{
	struct bpfkit_syscall_tp calls[NR_CALLS];
	struct mountsnoop_bpf *skel = NULL;
	struct bpfkit_channel *ch = NULL;
	int err;

	/* Parse options; check privileges, tracefs and kernel BTF. */
	bpfkit_setup(&tool, argc, argv);

	/* Open the BPF object. */
	skel = mountsnoop_bpf__open_opts(bpfkit_open_opts());
	if (!skel)
		return bpfkit_open_failed();

	/* Set our own filter and keep the tracepoints this kernel has. */
	skel->rodata->failed_only = bpfkit_opts.failed_only;
	mount_calls(skel, calls);
	err = bpfkit_syscall_tps_autoload(calls, NR_CALLS,
					  "sys_enter_mount tracepoint");
	if (err)
		goto cleanup;

	/* Load and verify. */
	err = bpfkit_load(skel->skeleton);
	if (err)
		goto cleanup;

	/* Open the event channel, then attach to the mount syscalls. */
	err = bpfkit_attach_syscalls(skel->skeleton, calls, NR_CALLS,
				     print_event, NULL, &ch);
	if (err)
		goto cleanup;

	/* Print the header, then events until the end. */
	bpfkit_print_header("%-*s %-*s %-*s %-*s CALL\n", PID_W, "PID", COMM_W,
			    "COMM", NS_W, "MNT_NS", RET_W, "RET");
	err = bpfkit_run(ch, NULL);

cleanup:
	bpfkit_channel_free(ch);
	mountsnoop_bpf__destroy(skel);
	return bpfkit_exit_code(err);
}
