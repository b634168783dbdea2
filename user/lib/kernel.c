// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * What this kernel offers: privileges and BTF, tracefs and tracepoints,
 * the cgroup v2 mount, kprobes, trampolines and the functions behind
 * syscalls.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <mntent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <linux/capability.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "bpfkit/layout.h"
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

/* Tracepoint CATEGORY:NAME's format file into FORMAT; false: unreadable. */
static bool read_format(const char *category, const char *name, char *format,
			size_t size)
{
	const char *tracefs = bpfkit_tracefs();
	char path[256];
	size_t len;
	FILE *f;

	if (!tracefs)
		return false;
	snprintf(path, sizeof(path), "%s/events/%s/%s/format", tracefs,
		 category, name);
	f = fopen(path, "re");
	if (!f)
		return false;
	len = fread(format, 1, size - 1, f);
	fclose(f);
	format[len] = 0;
	return len > 0;
}

bool bpfkit_tracepoint_format_has(const char *category, const char *name,
				  const char *const *fields, size_t n)
{
	char format[8192], field[256];
	size_t i;

	if (!read_format(category, name, format, sizeof(format)))
		return false;
	for (i = 0; i < n; i++) {
		snprintf(field, sizeof(field), "field:%s", fields[i]);
		if (!strstr(format, field))
			return false;
	}
	return true;
}

/*
 * Does the format file's field declaration DECL (up to its ';', LEN bytes)
 * declare NAME: its last identifier, before any "[N]" ("char comm[16]",
 * "__data_loc char[] comm")?
 */
static bool field_is(const char *decl, size_t len, const char *name)
{
	size_t n = strlen(name);
	const char *end = decl + len;

	if (end > decl && end[-1] == ']')
		while (end > decl && *--end != '[')
			;
	while (end > decl && end[-1] == ' ')
		end--;
	return (size_t)(end - decl) >= n && !memcmp(end - n, name, n) &&
	       (end - decl == (long)n ||
		!(isalnum(end[-n - 1]) || end[-n - 1] == '_'));
}

int bpfkit_format_fields(const char *format, struct bpfkit_tp_field *fields,
			 size_t n)
{
	unsigned int offset, size;
	const char *at, *semi;
	size_t i;

	for (i = 0; i < n; i++)
		fields[i].offset = BPFKIT_ABSENT;
	/* "\tfield:unsigned long total_vm;\toffset:24;\tsize:8;..." */
	for (at = strstr(format, "field:"); at; at = strstr(at + 1, "field:")) {
		at += strlen("field:");
		semi = strchr(at, ';');
		if (!semi || sscanf(semi, ";\toffset:%u;\tsize:%u;", &offset,
				    &size) != 2)
			continue;
		for (i = 0; i < n; i++) {
			if (!field_is(at, semi - at, fields[i].name))
				continue;
			if (size != fields[i].size)
				return -ERANGE;
			fields[i].offset = offset;
		}
	}
	return 0;
}

int bpfkit_tracepoint_fields(const char *category, const char *name,
			     struct bpfkit_tp_field *fields, size_t n)
{
	char format[8192];
	int err = -ENOENT;

	if (read_format(category, name, format, sizeof(format)))
		err = bpfkit_format_fields(format, fields, n);
	if (err == -ENOENT)
		bpfkit_error(
			"cannot read tracepoint %s:%s's format file in tracefs: mount tracefs, or run as root",
			category, name);
	else if (err)
		bpfkit_error(
			"this kernel's %s:%s has a field of another size than this tool reads (see its format file in tracefs)",
			category, name);
	return err;
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

/* All of file PATH in a malloc()ed buffer, its size in *SIZE; or NULL. */
static char *read_file(const char *path, size_t *size)
{
	size_t len = 0, cap = 1 << 20;
	char *buf = malloc(cap), *more;
	FILE *f = fopen(path, "re");
	size_t n;

	while (buf && f && (n = fread(buf + len, 1, cap - len, f)) > 0) {
		len += n;
		if (len < cap)
			continue;
		more = realloc(buf, cap * 2);
		if (!more)
			free(buf);
		buf = more;
		cap *= 2;
	}
	if (f)
		fclose(f);
	if (buf && !len) {
		free(buf);
		buf = NULL;
	}
	*size = len;
	return buf;
}

/* Bytes that follow a type of KIND with VLEN members; -1: unknown kind. */
static long btf_type_extra(__u32 kind, __u32 vlen)
{
	switch (kind) {
	case BTF_KIND_INT:
	case BTF_KIND_VAR:
	case BTF_KIND_DECL_TAG:
		return 4;
	case BTF_KIND_ARRAY:
		return sizeof(struct btf_array);
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		return vlen * sizeof(struct btf_member);
	case BTF_KIND_ENUM:
		return vlen * sizeof(struct btf_enum);
	case BTF_KIND_ENUM64:
		return vlen * sizeof(struct btf_enum64);
	case BTF_KIND_FUNC_PROTO:
		return vlen * sizeof(struct btf_param);
	case BTF_KIND_DATASEC:
		return vlen * sizeof(struct btf_var_secinfo);
	case BTF_KIND_PTR:
	case BTF_KIND_FWD:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_FUNC:
	case BTF_KIND_FLOAT:
	case BTF_KIND_TYPE_TAG:
		return 0;
	}
	return -1;
}

/*
 * File PATH mapped into memory where its file system allows (the kernel's
 * BTF since Linux 6.16: no copy), else read: its size in *SIZE, *MAPPED
 * says which, for release_file(). NULL on failure, with errno set.
 */
static char *map_file(const char *path, size_t *size, bool *mapped)
{
	struct stat st;
	void *data;
	int fd;

	*mapped = false;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	data = fstat(fd, &st) || st.st_size <= 0 ?
		       MAP_FAILED :
		       mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (data == MAP_FAILED)
		return read_file(path, size);
	*mapped = true;
	*size = st.st_size;
	return data;
}

static void release_file(char *data, size_t size, bool mapped)
{
	if (mapped)
		munmap(data, size);
	else
		free(data);
}

/*
 * Raw BTF's types by id, as offsets from the first ([0] unused: 4 bytes
 * an entry, half what pointers take to fault in), and its strings.
 */
struct raw_btf {
	const char *type_data;
	__u32 *types;
	__u32 count;
	const char *strs;
	__u32 str_len;
	/* What holds them: the file, mapped or read, or libbpf's parse. */
	char *data;
	size_t size;
	bool mapped;
	struct btf *btf;
};

/* Index DATA's (SIZE bytes) types by id in one pass; -EINVAL: not BTF. */
static int raw_btf_index(const char *data, size_t size, struct raw_btf *rb)
{
	const struct btf_header *h = (const void *)data;
	const char *types, *end;
	__u32 cap = 0;
	long extra;
	void *more;

	if (size < sizeof(*h) || h->magic != BTF_MAGIC || h->hdr_len > size ||
	    (size_t)h->hdr_len + h->type_off + h->type_len > size ||
	    (size_t)h->hdr_len + h->str_off + h->str_len > size)
		return -EINVAL;
	types = data + h->hdr_len + h->type_off;
	end = types + h->type_len;
	rb->type_data = types;
	rb->strs = data + h->hdr_len + h->str_off;
	rb->str_len = h->str_len;
	rb->types = NULL;
	for (rb->count = 1; types + sizeof(struct btf_type) <= end;
	     rb->count++) {
		const struct btf_type *t = (const void *)types;

		if (rb->count >= cap) {
			cap = cap ? cap * 2 : 1 << 17;
			more = realloc(rb->types, cap * sizeof(*rb->types));
			if (!more)
				return -ENOMEM;
			rb->types = more;
		}
		rb->types[rb->count] = types - rb->type_data;
		extra = btf_type_extra(btf_kind(t), btf_vlen(t));
		if (extra < 0)
			return -EINVAL;
		types += sizeof(*t) + extra;
	}
	return 0;
}

static void raw_btf_close(struct raw_btf *rb)
{
	free(rb->types);
	btf__free(rb->btf);
	if (rb->data)
		release_file(rb->data, rb->size, rb->mapped);
}

/*
 * Index the kernel's BTF (BTF_PATH's if set) into *RB: 0 or -errno
 * (-EINVAL: not BTF). Close with raw_btf_close() either way.
 */
static int raw_btf_open(const char *btf_path, struct raw_btf *rb)
{
	const char *path = btf_path ?: BPFKIT_KERNEL_BTF;
	__u32 raw_size;
	const void *raw;
	int err;

	*rb = (struct raw_btf){};
	rb->data = map_file(path, &rb->size, &rb->mapped);
	if (!rb->data)
		return -errno ?: -EINVAL;
	err = raw_btf_index(rb->data, rb->size, rb);
	/* Not raw BTF: an ELF file's .BTF (a vmlinux), as libbpf reads it. */
	if (err == -EINVAL && (rb->btf = btf__parse(path, NULL))) {
		free(rb->types);
		rb->types = NULL;
		raw = btf__raw_data(rb->btf, &raw_size);
		err = raw ? raw_btf_index(raw, raw_size, rb) : -EINVAL;
	}
	return err;
}

/*
 * The kernel's BTF indexed by the first raw pass a tool makes, kept for
 * the others until bpfkit_btf_release() (bpfkit_load() calls it, once
 * every layout is read): a tool's layouts, its enumerators and its
 * tracepoints' typedefs cost one walk over the 120000 and more types, not
 * one each.
 */
static struct raw_btf kept_btf;
static char *kept_btf_path; /* --btf FILE; NULL: the running kernel's */
static struct stat kept_btf_stat; /* the file it came from, as it was */
static bool btf_kept;

void bpfkit_btf_release(void)
{
	btf__free(kernel_btf);
	kernel_btf = NULL;
	if (btf_kept)
		raw_btf_close(&kept_btf);
	free(kept_btf_path);
	kept_btf_path = NULL;
	btf_kept = false;
}

/* Whether the kept BTF came from BTF_PATH's file as it is now. */
static bool btf_is_kept(const char *btf_path)
{
	struct stat st;

	return btf_kept && !strcmp(btf_path ?: "", kept_btf_path ?: "") &&
	       !stat(btf_path ?: BPFKIT_KERNEL_BTF, &st) &&
	       st.st_dev == kept_btf_stat.st_dev &&
	       st.st_ino == kept_btf_stat.st_ino &&
	       st.st_size == kept_btf_stat.st_size &&
	       st.st_mtim.tv_sec == kept_btf_stat.st_mtim.tv_sec &&
	       st.st_mtim.tv_nsec == kept_btf_stat.st_mtim.tv_nsec;
}

/* The kernel's BTF (BTF_PATH's if set) in *RB, indexed once: 0 or -errno. */
static int raw_btf_get(const char *btf_path, const struct raw_btf **rb)
{
	int err;

	*rb = &kept_btf;
	if (btf_is_kept(btf_path))
		return 0;
	bpfkit_btf_release();
	if (stat(btf_path ?: BPFKIT_KERNEL_BTF, &kept_btf_stat))
		return -errno;
	if (btf_path && !(kept_btf_path = strdup(btf_path)))
		return -ENOMEM;
	err = raw_btf_open(btf_path, &kept_btf);
	if (err) {
		raw_btf_close(&kept_btf);
		bpfkit_btf_release();
		return err;
	}
	btf_kept = true;
	return 0;
}

static const char *raw_btf_name(const struct raw_btf *rb, __u32 off)
{
	return off < rb->str_len ? rb->strs + off : "";
}

static const struct btf_type *raw_btf_type(const struct raw_btf *rb, __u32 id)
{
	return id && id < rb->count ?
		       (const void *)(rb->type_data + rb->types[id]) :
		       NULL;
}

/* The size of type ID, through typedefs and qualifiers; 0 if unknown. */
static __u32 raw_btf_size(const struct raw_btf *rb, __u32 id)
{
	const struct btf_type *t;
	int depth;

	for (depth = 0; (t = raw_btf_type(rb, id)) && depth < 32; depth++) {
		switch (btf_kind(t)) {
		case BTF_KIND_INT:
		case BTF_KIND_ENUM:
		case BTF_KIND_ENUM64:
		case BTF_KIND_STRUCT:
		case BTF_KIND_UNION:
			return t->size;
		case BTF_KIND_PTR:
			return sizeof(void *);
		case BTF_KIND_ARRAY: {
			const struct btf_array *a = (const void *)(t + 1);

			return a->nelems * raw_btf_size(rb, a->type);
		}
		case BTF_KIND_TYPEDEF:
		case BTF_KIND_CONST:
		case BTF_KIND_VOLATILE:
		case BTF_KIND_RESTRICT:
		case BTF_KIND_TYPE_TAG:
			id = t->type;
			continue;
		}
		return 0;
	}
	return 0;
}

/*
 * Member NAME of struct or union T, whose own offset is BASE bits, or of
 * the anonymous ones inside it: its type id, its bit offset in *BITS, its
 * width in *WIDTH when it is a bitfield (else 0).
 */
static __u32 raw_btf_member(const struct raw_btf *rb, const struct btf_type *t,
			    const char *name, __u32 base, __u32 *bits,
			    __u32 *width, int depth)
{
	const struct btf_member *m = (const void *)(t + 1);
	const struct btf_type *inner;
	__u32 i, off, id;

	for (i = 0; i < btf_vlen(t); i++, m++) {
		off = base + (btf_kflag(t) ? BTF_MEMBER_BIT_OFFSET(m->offset) :
					     m->offset);
		if (m->name_off) {
			if (strcmp(raw_btf_name(rb, m->name_off), name))
				continue;
			*width = btf_kflag(t) ?
					 BTF_MEMBER_BITFIELD_SIZE(m->offset) :
					 0;
			*bits = off;
			return m->type;
		}
		inner = raw_btf_type(rb, m->type);
		if (!inner || depth >= 8 ||
		    (!btf_is_struct(inner) && !btf_is_union(inner)))
			continue;
		id = raw_btf_member(rb, inner, name, off, bits, width,
				    depth + 1);
		if (id)
			return id;
	}
	return 0;
}

/* The id of the first type named NAME of which IS_KIND holds; 0: none. */
static __u32 raw_btf_find(const struct raw_btf *rb, const char *name,
			  bool (*is_kind)(const struct btf_type *t))
{
	const struct btf_type *t;
	__u32 id;

	for (id = 1; id < rb->count; id++) {
		t = raw_btf_type(rb, id);
		if (is_kind(t) && t->name_off &&
		    !strcmp(raw_btf_name(rb, t->name_off), name))
			return id;
	}
	return 0;
}

/*
 * The type named NAME: a struct (a definition, not a forward one), or
 * with IS_ENUM an enum (ENUM or ENUM64); NULL when there is none.
 */
static const struct btf_type *raw_btf_named(const struct raw_btf *rb,
					    const char *name, bool is_enum)
{
	return raw_btf_type(rb, raw_btf_find(rb, name,
					     is_enum ? btf_is_any_enum :
						       btf_is_struct));
}

/*
 * Members older kernels have under another name (and size): read there,
 * an integer member's SIZE bytes are its low ones, at its start on a
 * little-endian machine.
 */
static const struct renamed_member {
	const char *type, *name, *old_name;
	__u32 old_size;
} renamed_members[] = {
	/* Linux 5.14 made task_struct's "long state" "unsigned int __state". */
	{ "task_struct", "__state", "state", 8 },
};

/*
 * Member M of struct T: its type id and bit offset, under an older name
 * where the kernel has it so (renamed_members); *SIZE: the bytes it has,
 * or BPFKIT_BITFIELD(its width) for a bitfield.
 */
static __u32 raw_btf_named_member(const struct raw_btf *rb,
				  const struct btf_type *t,
				  const struct bpfkit_btf_member *m,
				  __u32 *bits, __u32 *size)
{
	const struct renamed_member *r;
	__u32 width, id = raw_btf_member(rb, t, m->name, 0, bits, &width, 0);

	*size = !id ? 0 : width ? BPFKIT_BITFIELD(width) : raw_btf_size(rb, id);
	for (r = renamed_members;
	     !id && r < renamed_members + sizeof(renamed_members) /
						  sizeof(renamed_members[0]);
	     r++) {
		if (strcmp(r->type, m->type) || strcmp(r->name, m->name))
			continue;
		id = raw_btf_member(rb, t, r->old_name, 0, bits, &width, 0);
		if (!id || width || raw_btf_size(rb, id) != r->old_size)
			return 0;
		*size = m->size;
		if (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ && m->size)
			*bits += (r->old_size - m->size) * 8;
	}
	return id;
}

/* Enumerator NAME of enum T: 0 and its value in *VALUE, or -ENOENT. */
static int raw_btf_enumerator(const struct raw_btf *rb,
			      const struct btf_type *t, const char *name,
			      __u32 *value)
{
	const struct btf_enum64 *e64 = (const void *)(t + 1);
	const struct btf_enum *e = (const void *)(t + 1);
	__u32 i;

	for (i = 0; i < btf_vlen(t); i++) {
		if (btf_is_enum64(t) &&
		    !strcmp(raw_btf_name(rb, e64[i].name_off), name)) {
			*value = e64[i].val_lo32;
			return e64[i].val_hi32 ? -ERANGE : 0;
		}
		if (!btf_is_enum64(t) &&
		    !strcmp(raw_btf_name(rb, e[i].name_off), name)) {
			*value = e[i].val;
			return 0;
		}
	}
	return -ENOENT;
}

/*
 * Resolve M in type T (a struct, or for BPFKIT_ENUMERATOR an enum; NULL:
 * the kernel has none of that name) into m->offset: 0, -ENOENT or -ERANGE.
 */
static int raw_btf_resolve(const struct raw_btf *rb, const struct btf_type *t,
			   struct bpfkit_btf_member *m)
{
	__u32 want = m->size & ~BPFKIT_OPTIONAL(0), bits, size_read, id;
	__u32 bitfield = want & BPFKIT_BITFIELD(0);

	if (!t)
		return -ENOENT;
	if (want == BPFKIT_ENUMERATOR)
		return raw_btf_enumerator(rb, t, m->name, &m->offset);
	if (want == BPFKIT_STRUCT_SIZE) {
		m->offset = t->size;
		return 0;
	}
	id = raw_btf_named_member(rb, t, m, &bits, &size_read);
	/*
	 * A bitfield, read by the bits (bpfkit_read_bits(): within 4 bytes
	 * from its first), or a member read at a byte offset.
	 */
	if (!id || bitfield != (size_read & BPFKIT_BITFIELD(0)) ||
	    (!bitfield && bits % 8))
		return -ENOENT;
	if (want && size_read != want)
		return -ERANGE;
	if (bitfield && bits % 8 + (size_read & 0xff) > 32)
		return -ERANGE;
	m->offset = bitfield ? bits : bits / 8;
	return 0;
}

int bpfkit_btf_member_offsets(const char *btf_path,
			      struct bpfkit_btf_member *members, size_t n,
			      const struct bpfkit_btf_member **failed)
{
	const struct btf_type *t = NULL;
	const struct raw_btf *rb;
	bool is_enum;
	size_t i;
	int err;

	*failed = members;
	err = raw_btf_get(btf_path, &rb);
	for (i = 0; !err && i < n; i++) {
		*failed = &members[i];
		is_enum = (members[i].size & ~BPFKIT_OPTIONAL(0)) ==
			  BPFKIT_ENUMERATOR;
		/* Each type looked up once for the run of members in it. */
		if (!i || strcmp(members[i].type, members[i - 1].type) ||
		    is_enum != ((members[i - 1].size & ~BPFKIT_OPTIONAL(0)) ==
				BPFKIT_ENUMERATOR))
			t = raw_btf_named(rb, members[i].type, is_enum);
		err = raw_btf_resolve(rb, t, &members[i]);
		/* A member some kernels lack: absent here, not an error. */
		if (err == -ENOENT && (members[i].size & BPFKIT_OPTIONAL(0))) {
			members[i].offset = BPFKIT_ABSENT;
			err = 0;
		}
	}
	return err;
}

int bpfkit_btf_enumerators(const char *btf_path, const char *name,
			   int (*fn)(const char *name, __s64 value, void *ctx),
			   void *ctx)
{
	const struct btf_enum64 *e64;
	const struct btf_enum *e;
	const struct btf_type *t;
	const struct raw_btf *rb;
	__u32 i;
	int err;

	err = raw_btf_get(btf_path, &rb);
	t = err ? NULL : raw_btf_named(rb, name, true);
	if (!err && !t)
		err = -ENOENT;
	e = t ? (const void *)(t + 1) : NULL;
	e64 = (const void *)e;
	for (i = 0; !err && i < btf_vlen(t); i++)
		err = btf_is_enum64(t) ?
			      fn(raw_btf_name(rb, e64[i].name_off),
				 btf_enum64_value(&e64[i]), ctx) :
			      fn(raw_btf_name(rb, e[i].name_off),
				 btf_kflag(t) ? (__s64)(__s32)e[i].val :
						(__s64)e[i].val,
				 ctx);
	return err;
}

int bpfkit_require_btf_members(const char *btf_path,
			       struct bpfkit_btf_member *members, size_t n)
{
	const struct bpfkit_btf_member *m;
	int err = bpfkit_btf_member_offsets(btf_path, members, n, &m);
	const char *why = err == -ENOENT ? "not there" :
			  err == -ERANGE ? "not the size the tool reads" :
			  err == -EINVAL ? "not BTF" :
					   strerror(-err);

	if (err)
		bpfkit_error(
			"kernel BTF %s has no usable %s.%s (%s): give this kernel's BTF with --btf FILE",
			btf_path ?: BPFKIT_KERNEL_BTF, m->type, m->name, why);
	return err;
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

__u64 bpfkit_prog_skipped_runs(const struct bpf_program *p)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);
	int fd = bpf_program__fd(p);

	if (fd < 0 || bpf_obj_get_info_by_fd(fd, &info, &len))
		return 0;
	return info.recursion_misses;
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
