// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The container room: a record's (cgroup v2 id, mount namespace) to the
 * container its task ran in, from cgroup paths and the runtimes' local
 * state; and --container / --host-only, half in the kernel's verdict map.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <glob.h>
#include <limits.h>
#include <search.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "bpfkit/filter.h"
#include "cgroup.h"
#include "container.h"
#include "diag.h"
#include "output.h"
#include "run.h"

static struct bpfkit_container_opts opts;
static const char *docker_dir = "/var/lib/docker";

static __u32 self_mntns;
static int verdicts_fd = -1; /* the kernel's bpfkit_containers map */

/* Path parsing. */

static bool all_hex(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') ||
		      (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return n > 0;
}

/* A container id: 12 to 64 lowercase hex digits. */
static bool is_id(const char *s, size_t n)
{
	return n >= BPFKIT_CONTAINER_SHORT_ID && n <= BPFKIT_CONTAINER_ID_LEN &&
	       all_hex(s, n);
}

static bool starts(const char *s, size_t n, const char *prefix)
{
	size_t len = strlen(prefix);

	return n >= len && !memcmp(s, prefix, len);
}

static bool ends(const char *s, size_t n, const char *suffix)
{
	size_t len = strlen(suffix);

	return n >= len && !memcmp(s + n - len, suffix, len);
}

static bool set_id(struct bpfkit_container *c, const char *runtime,
		   const char *s, size_t n)
{
	if (!is_id(s, n))
		return false;
	memcpy(c->id, s, n);
	c->id[n] = '\0';
	c->runtime = runtime;
	return true;
}

/* A systemd unit name's escapes (\x2d is '-') undone, into DST. */
static int hex_digit(char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	return -1;
}

static void unescape_unit(char *dst, size_t size, const char *s, size_t n)
{
	size_t i, o = 0;
	int hi, lo;

	for (i = 0; i < n && o + 1 < size; i++) {
		hi = i + 3 < n && s[i] == '\\' && s[i + 1] == 'x' ?
			     hex_digit(s[i + 2]) :
			     -1;
		lo = hi >= 0 ? hex_digit(s[i + 3]) : -1;
		/* Printable bytes only: no '/', newline or NUL from a name. */
		if (lo >= 0 && hi * 16 + lo > ' ' && hi * 16 + lo < 0x7f &&
		    hi * 16 + lo != '/') {
			dst[o++] = hi * 16 + lo;
			i += 3;
		} else {
			dst[o++] = s[i];
		}
	}
	dst[o] = '\0';
}

static bool set_name_id(struct bpfkit_container *c, const char *runtime,
			const char *s, size_t n, bool unit)
{
	if (!n || n >= sizeof(c->name))
		return false;
	if (unit)
		unescape_unit(c->name, sizeof(c->name), s, n);
	else
		snprintf(c->name, sizeof(c->name), "%.*s", (int)n, s);
	snprintf(c->id, sizeof(c->id), "%.*s", BPFKIT_CONTAINER_ID_LEN,
		 c->name);
	c->runtime = runtime;
	return true;
}

/*
 * Component S (N bytes) of a path, PREV the one above it (PN bytes): a
 * container's cgroup? KUBE: the path is under kubepods.
 */
static bool parse_component(const char *s, size_t n, const char *prev,
			    size_t pn, bool kube, struct bpfkit_container *c)
{
	bool scope = ends(s, n, ".scope");
	size_t len = scope ? n - strlen(".scope") : n;

	if (starts(s, len, "libpod-conmon-") || starts(s, len, "crio-conmon-"))
		return false;
	if (starts(s, len, "docker-"))
		return set_id(c, "docker", s + 7, len - 7);
	if (starts(s, len, "cri-containerd-"))
		return set_id(c, "containerd", s + 15, len - 15);
	if (starts(s, len, "crio-"))
		return set_id(c, "cri-o", s + 5, len - 5);
	if (starts(s, len, "libpod-"))
		return set_id(c, "podman", s + 7, len - 7);
	if (scope && starts(s, len, "machine-"))
		return set_name_id(c, "systemd-nspawn", s + 8, len - 8, true);
	if (starts(s, n, "lxc.payload."))
		return set_name_id(c, "lxc", s + 12, n - 12, false);
	if (prev && pn == 3 && !memcmp(prev, "lxc", 3))
		return set_name_id(c, "lxc", s, n, false);
	if (prev && pn == 6 && !memcmp(prev, "docker", 6))
		return set_id(c, "docker", s, n);
	if (kube && n == BPFKIT_CONTAINER_ID_LEN)
		return set_id(c, "containerd", s, n);
	return false;
}

/* A pod UID: 32 hex digits in 8-4-4-4-12, '_' (systemd) or '-' between. */
static bool set_pod_uid(struct bpfkit_container *c, const char *s, size_t n)
{
	char uid[sizeof(c->pod_uid)];
	size_t i;

	if (n != sizeof(uid) - 1)
		return false;
	for (i = 0; i < n; i++) {
		bool dash = i == 8 || i == 13 || i == 18 || i == 23;

		if (dash ? (s[i] != '-' && s[i] != '_') : !all_hex(s + i, 1))
			return false;
		uid[i] = dash ? '-' : s[i];
	}
	uid[n] = '\0';
	memcpy(c->pod_uid, uid, sizeof(uid));
	return true;
}

/* Component S of a kubepods path: a QoS class or a pod, into C. */
static void parse_kube(const char *s, size_t n, struct bpfkit_container *c)
{
	static const char *const classes[] = { "burstable", "besteffort" };
	const char *inner = s;
	size_t i, len = n;

	/* systemd: kubepods-burstable-pod<uid>.slice; cgroupfs: burstable */
	if (starts(s, n, "kubepods-") && ends(s, n, ".slice")) {
		inner = s + 9;
		len = n - 9 - 6;
	}
	for (i = 0; i < 2; i++) {
		size_t cl = strlen(classes[i]);

		if (starts(inner, len, classes[i]) &&
		    (len == cl || inner[cl] == '-')) {
			c->qos = classes[i];
			inner += cl + (len > cl);
			len -= cl + (len > cl);
		}
	}
	if (starts(inner, len, "pod"))
		set_pod_uid(c, inner + 3, len - 3);
}

bool bpfkit_container_parse(const char *path, struct bpfkit_container *c)
{
	const char *comp[64], *s = path;
	size_t len[64], n = 0, i;
	bool kube = false;

	memset(c, 0, sizeof(*c));
	while (*s && n < 64) {
		size_t l;

		s += strspn(s, "/");
		l = strcspn(s, "/\n");
		if (!l)
			break;
		comp[n] = s;
		len[n++] = l;
		s += l;
		if (*s == '\n')
			break;
	}
	for (i = 0; i < n; i++)
		kube |= starts(comp[i], len[i], "kubepods");
	/* The innermost container: the last component that names one. */
	for (i = n; i-- > 0;) {
		if (parse_component(comp[i], len[i], i ? comp[i - 1] : NULL,
				    i ? len[i - 1] : 0, kube, c))
			break;
	}
	if (!c->runtime) {
		memset(c, 0, sizeof(*c));
		return false;
	}
	if (kube) {
		size_t end = i;

		for (i = 0; i < end; i++)
			parse_kube(comp[i], len[i], c);
		if (c->pod_uid[0] && !c->qos)
			c->qos = "guaranteed";
	}
	return true;
}

bool bpfkit_container_parse_proc(const char *text, struct bpfkit_container *c)
{
	const char *line, *path;
	int pass;

	/* cgroup v2's line first, then every v1 hierarchy's. */
	for (pass = 0; pass < 2; pass++) {
		for (line = text; line && *line;
		     line = strchr(line, '\n') ? strchr(line, '\n') + 1 :
						 NULL) {
			bool v2 = !strncmp(line, "0::", 3);

			if (v2 != !pass)
				continue;
			path = strchr(line, ':');
			path = path ? strchr(path + 1, ':') : NULL;
			if (path && bpfkit_container_parse(path + 1, c))
				return true;
		}
	}
	memset(c, 0, sizeof(*c));
	return false;
}

/* Options. */

static bool is_name(const char *s)
{
	size_t i, n = strlen(s);

	if (!n || n >= BPFKIT_CONTAINER_NAME_LEN)
		return false;
	for (i = 0; i < n; i++) {
		char ch = s[i];
		bool alnum = (ch >= 'a' && ch <= 'z') ||
			     (ch >= 'A' && ch <= 'Z') ||
			     (ch >= '0' && ch <= '9');

		if (!alnum && (!i || (ch != '_' && ch != '.' && ch != '-')))
			return false;
	}
	return true;
}

int bpfkit_container_opt(struct bpfkit_container_opts *o, const char *arg)
{
	if (!is_name(arg))
		return bpfkit_usage_error(
			"invalid --container '%s': expected a container id (12 to 64 hex digits) or a name ([A-Za-z0-9][A-Za-z0-9_.-]*)",
			arg);
	if (o->nselect == BPFKIT_CONTAINER_SELECT_MAX)
		return bpfkit_usage_error(
			"invalid --container '%s': at most %d containers", arg,
			BPFKIT_CONTAINER_SELECT_MAX);
	o->select[o->nselect++] = arg;
	return 0;
}

/* A record's "container" object in JSON, when it ran in one. */
static void json_container(struct bpfkit_json *j,
			   const struct bpfkit_record *rec)
{
	const struct bpfkit_container *c = bpfkit_container_of(rec);

	if (!c)
		return;
	bpfkit_json_object_begin(j, "container");
	bpfkit_json_str(j, "id", c->id, sizeof(c->id));
	if (c->name[0])
		bpfkit_json_str(j, "name", c->name, sizeof(c->name));
	bpfkit_json_str(j, "runtime", c->runtime, strlen(c->runtime));
	if (c->pod_uid[0]) {
		bpfkit_json_str(j, "pod_uid", c->pod_uid, sizeof(c->pod_uid));
		bpfkit_json_str(j, "qos", c->qos, strlen(c->qos));
	}
	bpfkit_json_object_end(j);
}

/* A record's CONTAINER column (--containers); "?": its task is not known. */
static const char *column(const struct bpfkit_record *rec)
{
	if (bpfkit_record_task_unknown(rec))
		return "?";
	return bpfkit_container_label(bpfkit_container_of(rec));
}

void bpfkit_container_init(const struct bpfkit_container_opts *o)
{
	struct bpfkit_record_extras x = {
		.json = json_container,
		.column = o->column ? column : NULL,
		.name = "CONTAINER",
		.width = BPFKIT_CONTAINER_W,
	};

	opts = *o;
	bpfkit_output_extras(&x);
}

const struct bpfkit_container_opts *bpfkit_container_opts(void)
{
	return &opts;
}

bool bpfkit_container_selecting(void)
{
	return opts.nselect || opts.host_only;
}

/* A container's name, from its runtime's state on disk. */

/* The whole of file PATH, NUL-terminated (free() it); NULL if unreadable. */
static char *slurp(const char *path)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *f = fopen(path, "re"), *m;
	char chunk[65536];
	size_t n;

	if (!f)
		return NULL;
	m = open_memstream(&buf, &size);
	if (m) {
		while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
			fwrite(chunk, 1, n, m);
		fclose(m);
	}
	fclose(f);
	return buf;
}

/* The JSON string that starts at S (after its quote), into DST. */
static void json_string_at(const char *s, char *dst, size_t size)
{
	size_t n = strcspn(s, "\"\\");

	if (s[n] == '"' && n < size)
		snprintf(dst, size, "%.*s", (int)n, s);
}

/*
 * Where podman's containers storage is: storage.conf's graphroot (the file
 * CONTAINERS_STORAGE_CONF names, as podman reads it, else
 * /etc/containers/storage.conf's), or its default.
 */
static const char *podman_root(void)
{
	static char root[PATH_MAX];
	const char *conf = getenv("CONTAINERS_STORAGE_CONF");
	char line[PATH_MAX + 32], *q;
	FILE *f;

	if (root[0])
		return root;
	snprintf(root, sizeof(root), "/var/lib/containers/storage");
	f = fopen(conf ?: "/etc/containers/storage.conf", "re");
	while (f && fgets(line, sizeof(line), f)) {
		q = line + strspn(line, " \t");
		if (strncmp(q, "graphroot", 9))
			continue;
		q += 9 + strspn(q + 9, " \t");
		if (*q != '=')
			continue;
		q = strchr(q, '"');
		if (q && strchr(q + 1, '"')) {
			*strchr(q + 1, '"') = '\0';
			snprintf(root, sizeof(root), "%s", q + 1);
		}
		break;
	}
	if (f)
		fclose(f);
	return root;
}

/*
 * podman keeps every container in its storage driver's DRIVER-containers/
 * containers.json: [{"id":"<64 hex>","names":["name"],...
 */
static void podman_name(struct bpfkit_container *c)
{
	char pattern[PATH_MAX + 32], key[BPFKIT_CONTAINER_ID_LEN + 8];
	char *buf, *at, *names, *next;
	glob_t g;
	size_t i;

	snprintf(pattern, sizeof(pattern), "%s/*-containers/containers.json",
		 podman_root());
	if (glob(pattern, 0, NULL, &g))
		return;
	snprintf(key, sizeof(key), "\"id\":\"%s\"", c->id);
	for (i = 0; i < g.gl_pathc && !c->name[0]; i++) {
		buf = slurp(g.gl_pathv[i]);
		at = buf ? strstr(buf, key) : NULL;
		names = at ? strstr(at, "\"names\":[\"") : NULL;
		next = at ? strstr(at + 1, "\"id\":\"") : NULL;
		/* Its own names: before the next container's id. */
		if (names && (!next || names < next))
			json_string_at(names + 10, c->name, sizeof(c->name));
		free(buf);
	}
	globfree(&g);
}

/* docker: containers/<id>/config.v2.json's "Name":"/name". */
static void docker_name(struct bpfkit_container *c)
{
	char path[PATH_MAX], *buf, *at;

	snprintf(path, sizeof(path), "%s/containers/%s/config.v2.json",
		 docker_dir, c->id);
	buf = slurp(path);
	if (!buf)
		return;
	at = strstr(buf, "\"Name\":\"/");
	if (at)
		json_string_at(at + 9, c->name, sizeof(c->name));
	free(buf);
}

static void find_name(struct bpfkit_container *c)
{
	if (c->name[0] || strlen(c->id) != BPFKIT_CONTAINER_ID_LEN)
		return;
	if (!strcmp(c->runtime, "podman"))
		podman_name(c);
	else if (!strcmp(c->runtime, "docker"))
		docker_name(c);
}

/* From ids to a container. */

static __u32 ns_inode(const char *path)
{
	struct stat st;

	return stat(path, &st) ? 0 : st.st_ino;
}

static __u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/*
 * What the system holds, read at most every REFRESH_NS: every cgroup v2
 * directory's id and path, and every mount namespace other than ours with
 * the container its first process's /proc/PID/cgroup names, if any.
 */
#define REFRESH_NS 100000000ULL
#define RETRIES 2 /* looks at a pair found in no container, at most */

struct cgroup_dir {
	__u64 id;
	char *path; /* below the v2 mount */
};

struct mount_ns {
	__u32 inum;
	bool in_container;
	struct bpfkit_container c;
};

static struct cgroup_dir *dirs;
static size_t ndirs, dirs_size;
static struct mount_ns *mntnses;
static size_t nmntnses, mntnses_size;
static __u64 refreshed_ns;
static size_t mount_len;

static int add_dir(const char *path, const struct stat *st, int type,
		   struct FTW *ftw)
{
	struct {
		struct file_handle fh;
		__u64 id;
	} h = { .fh.handle_bytes = sizeof(__u64) };
	struct cgroup_dir *grown;
	int mount_id;

	if (type != FTW_D ||
	    name_to_handle_at(AT_FDCWD, path, &h.fh, &mount_id, 0))
		return 0;
	if (ndirs == dirs_size) {
		dirs_size = dirs_size ? 2 * dirs_size : 256;
		grown = realloc(dirs, dirs_size * sizeof(*dirs));
		if (!grown)
			return 1;
		dirs = grown;
	}
	dirs[ndirs].id = h.id;
	dirs[ndirs].path = strdup(path + mount_len);
	if (dirs[ndirs].path)
		ndirs++;
	return 0;
}

static void add_mntns(__u32 inum, const char *pid)
{
	struct mount_ns *m, *grown;
	char path[64], *text;
	size_t i;

	for (i = 0; i < nmntnses; i++)
		if (mntnses[i].inum == inum)
			return;
	if (nmntnses == mntnses_size) {
		mntnses_size = mntnses_size ? 2 * mntnses_size : 64;
		grown = realloc(mntnses, mntnses_size * sizeof(*mntnses));
		if (!grown)
			return;
		mntnses = grown;
	}
	m = &mntnses[nmntnses++];
	m->inum = inum;
	snprintf(path, sizeof(path), "/proc/%s/cgroup", pid);
	text = slurp(path);
	m->in_container = text && bpfkit_container_parse_proc(text, &m->c);
	free(text);
}

static void refresh(void)
{
	const char *mount = bpfkit_cgroup2_mount(NULL);
	char path[64];
	struct dirent *d;
	DIR *proc;
	__u32 inum;

	refreshed_ns = now_ns();
	while (ndirs)
		free(dirs[--ndirs].path);
	nmntnses = 0;
	if (mount) {
		mount_len = strlen(mount);
		nftw(mount, add_dir, 16, FTW_PHYS);
	}
	proc = opendir("/proc");
	while (proc && (d = readdir(proc))) {
		if (d->d_name[0] < '1' || d->d_name[0] > '9' ||
		    strlen(d->d_name) > 16)
			continue;
		snprintf(path, sizeof(path), "/proc/%s/ns/mnt", d->d_name);
		inum = ns_inode(path);
		if (inum && inum != self_mntns)
			add_mntns(inum, d->d_name);
	}
	if (proc)
		closedir(proc);
}

static const struct cgroup_dir *find_dir(__u64 id)
{
	size_t i;

	for (i = 0; i < ndirs; i++)
		if (dirs[i].id == id)
			return &dirs[i];
	return NULL;
}

static const struct mount_ns *find_mntns(__u32 inum)
{
	size_t i;

	for (i = 0; i < nmntnses; i++)
		if (mntnses[i].inum == inum)
			return &mntnses[i];
	return NULL;
}

/* One (cgroup, mount namespace) pair resolved: its container, if any. */
struct cached_container {
	__u64 cgroup_id;
	__u32 mntns;
	unsigned int tries; /* looks so far, while in no container */
	__u64 looked_ns; /* refreshed_ns of the last look */
	bool in_container;
	struct bpfkit_container c;
};

static void *cache; /* tsearch() tree of struct cached_container */
static __u64 last_sweep_ns;

static int cmp_entry(const void *a, const void *b)
{
	const struct cached_container *x = a, *y = b;

	if (x->cgroup_id != y->cgroup_id)
		return x->cgroup_id < y->cgroup_id ? -1 : 1;
	return x->mntns < y->mntns ? -1 : x->mntns > y->mntns;
}

/* Look E's pair up in what was read last. */
static bool look(struct cached_container *e)
{
	const struct cgroup_dir *dir = find_dir(e->cgroup_id);
	const struct mount_ns *m = find_mntns(e->mntns);

	e->looked_ns = refreshed_ns;
	e->tries++;
	/* The container's own cgroup v2 directory, when its runtime made one. */
	if (dir && bpfkit_container_parse(dir->path, &e->c))
		e->in_container = true;
	/* Else, as in v1-only layouts, its mount namespace's processes'. */
	else if (m && m->in_container) {
		e->c = m->c;
		e->in_container = true;
	}
	if (e->in_container)
		find_name(&e->c);
	return e->in_container;
}

/*
 * Resolve E: our own mount namespace is the host's; another pair is looked
 * up, and again after a refresh if it is in no container yet (its runtime
 * may have been making it), up to RETRIES times.
 */
static void resolve(struct cached_container *e)
{
	if (e->in_container || e->mntns == self_mntns || e->tries >= RETRIES)
		return;
	if (e->tries && e->looked_ns == refreshed_ns &&
	    now_ns() - refreshed_ns < REFRESH_NS)
		return;
	if (!e->tries && look(e))
		return;
	if (now_ns() - refreshed_ns >= REFRESH_NS)
		refresh();
	if (refreshed_ns != e->looked_ns)
		look(e);
}

/* Settled: in a container, or in none for good. */
static bool settled(const struct cached_container *e)
{
	return e->in_container || e->mntns == self_mntns || e->tries >= RETRIES;
}

static struct cached_container **dead;
static size_t ndead, dead_size;

static void collect_dead(const void *node, VISIT which, int depth)
{
	struct cached_container *e = *(struct cached_container *const *)node;
	struct cached_container **grown;

	if ((which != postorder && which != leaf) || find_dir(e->cgroup_id) ||
	    (e->mntns != self_mntns && find_mntns(e->mntns)))
		return;
	if (ndead == dead_size) {
		dead_size = dead_size ? 2 * dead_size : 16;
		grown = realloc(dead, dead_size * sizeof(*dead));
		if (!grown)
			return;
		dead = grown;
	}
	dead[ndead++] = e;
}

/*
 * Drop the pairs whose cgroup and mount namespace have both gone,
 * at most once a second, as what the system holds is read again: ids are
 * not reused, but namespace inode numbers may be.
 */
static void sweep(void)
{
	size_t i;

	if (refreshed_ns - last_sweep_ns < 1000000000ULL)
		return;
	last_sweep_ns = refreshed_ns;
	ndead = 0;
	twalk(cache, collect_dead);
	for (i = 0; i < ndead; i++) {
		tdelete(dead[i], &cache, cmp_entry);
		free(dead[i]);
	}
}

static struct cached_container *lookup(__u64 cgroup_id, __u32 mntns)
{
	struct cached_container key = { .cgroup_id = cgroup_id,
					.mntns = mntns },
				*e;
	void *node = tfind(&key, &cache, cmp_entry);

	if (!self_mntns)
		self_mntns = ns_inode("/proc/self/ns/mnt");
	if (node) {
		e = *(struct cached_container **)node;
		if (!settled(e))
			resolve(e);
		return e;
	}
	sweep();
	e = calloc(1, sizeof(*e));
	if (!e)
		return NULL;
	*e = key;
	resolve(e);
	if (!tsearch(e, &cache, cmp_entry)) {
		free(e);
		return NULL;
	}
	return e;
}

const struct bpfkit_container *
bpfkit_container_of(const struct bpfkit_record *rec)
{
	struct cached_container *e;

	if (bpfkit_record_task_unknown(rec))
		return NULL;
	e = lookup(rec->cgroup_id, rec->mntns);

	return e && e->in_container ? &e->c : NULL;
}

bool bpfkit_container_selected(const struct bpfkit_container *c)
{
	unsigned int i;

	if (opts.host_only)
		return !c;
	if (!opts.nselect)
		return true;
	for (i = 0; c && i < opts.nselect; i++) {
		const char *s = opts.select[i];

		if (!strcmp(c->name, s) || !strcmp(c->id, s) ||
		    (is_id(s, strlen(s)) && !strncmp(c->id, s, strlen(s))))
			return true;
	}
	return false;
}

/* Tell the kernel the verdict of (CGROUP_ID, MNTNS), once. */
static bool give_verdict(__u64 cgroup_id, __u32 mntns,
			 const struct bpfkit_container *c)
{
	struct bpfkit_container_key key = { .cgroup_id = cgroup_id,
					    .mntns = mntns };
	struct bpfkit_container_verdict v = {
		.selected = bpfkit_container_selected(c),
	};

	if (verdicts_fd >= 0)
		bpf_map_update_elem(verdicts_fd, &key, &v, BPF_NOEXIST);
	return v.selected;
}

bool bpfkit_container_wanted(const void *data, size_t size)
{
	const struct bpfkit_record *rec = data;
	struct cached_container *e;

	if (!bpfkit_container_selecting() || size < sizeof(*rec))
		return true;
	/* Neither in a container nor on the host, for all we know. */
	if (bpfkit_record_task_unknown(rec))
		return false;
	e = lookup(rec->cgroup_id, rec->mntns);
	if (!e)
		return bpfkit_container_selected(NULL);
	/* The kernel gets a verdict only once it holds for good. */
	if (!settled(e))
		return bpfkit_container_selected(e->in_container ? &e->c :
								   NULL);
	return give_verdict(rec->cgroup_id, rec->mntns,
			    e->in_container ? &e->c : NULL);
}

const char *bpfkit_container_label(const struct bpfkit_container *c)
{
	static char shortid[BPFKIT_CONTAINER_SHORT_ID + 1];

	if (!c)
		return "-";
	if (c->name[0])
		return c->name;
	snprintf(shortid, sizeof(shortid), "%.*s", BPFKIT_CONTAINER_SHORT_ID,
		 c->id);
	return shortid;
}

/* The cgroup v2 id of process PID (its "0::" line); 0 if unknown. */
static __u64 proc_cgroup_id(const char *pid)
{
	const char *mount = bpfkit_cgroup2_mount(NULL);
	struct {
		struct file_handle fh;
		__u64 id;
	} h = { .fh.handle_bytes = sizeof(__u64) };
	char path[PATH_MAX], *text, *line;
	int mount_id;

	snprintf(path, sizeof(path), "/proc/%s/cgroup", pid);
	text = slurp(path);
	line = text ? strstr(text, "0::") : NULL;
	if (!mount || !line || (line != text && line[-1] != '\n')) {
		free(text);
		return 0;
	}
	line[strcspn(line, "\n")] = '\0';
	snprintf(path, sizeof(path), "%s%s", mount, line + 3);
	free(text);
	if (name_to_handle_at(AT_FDCWD, path, &h.fh, &mount_id, 0))
		return 0;
	return h.id;
}

#define VERDICTS_MAX 4096 /* (cgroup, mount namespace) pairs with a verdict */
#define RESCAN_MS 1000 /* new containers, for a tool that asks not */

int bpfkit_container_prepare(struct bpf_object *obj)
{
	struct bpf_map *map;
	int err;

	if (!bpfkit_container_selecting())
		return 0;
	map = bpf_object__find_map_by_name(obj, "bpfkit_containers");
	if (!map) {
		bpfkit_error(
			"this tool's BPF object has no bpfkit_containers map: include bpfkit/filter.bpf.h in it");
		return -EINVAL;
	}
	err = bpf_map__set_max_entries(map, VERDICTS_MAX);
	if (err)
		bpfkit_fail("size the container verdicts map", err);
	return err;
}

/*
 * Give every running process's pair its verdict, once it holds for good;
 * mark in SEEN (NULL: no marks) the --container arguments that matched.
 */
static void give_verdicts(bool *seen)
{
	struct dirent *d;
	unsigned int i;
	DIR *proc = opendir("/proc");

	while (proc && (d = readdir(proc))) {
		struct cached_container *e;
		char path[PATH_MAX];
		__u64 cgroup_id;
		__u32 mntns;

		if (d->d_name[0] < '1' || d->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/ns/mnt", d->d_name);
		mntns = ns_inode(path);
		cgroup_id = proc_cgroup_id(d->d_name);
		e = mntns && cgroup_id ? lookup(cgroup_id, mntns) : NULL;
		if (!e || !settled(e))
			continue;
		give_verdict(cgroup_id, mntns, e->in_container ? &e->c : NULL);
		for (i = 0; seen && e->in_container && i < opts.nselect; i++)
			seen[i] |= bpfkit_container_selected(&e->c) &&
				   (!strcmp(e->c.name, opts.select[i]) ||
				    !strncmp(e->c.id, opts.select[i],
					     strlen(opts.select[i])));
	}
	if (proc)
		closedir(proc);
}

/* The tick of a tool the kernel selects for alone: new containers' pairs. */
static int rescan(void *ctx)
{
	give_verdicts(NULL);
	return 0;
}

int bpfkit_container_load(struct bpf_object *obj, bool rescanning)
{
	static const struct bpfkit_tick tick = {
		.interval_ms = RESCAN_MS,
		.fn = rescan,
	};
	bool seen[BPFKIT_CONTAINER_SELECT_MAX] = {};
	struct bpf_map *map;
	unsigned int i;

	if (!bpfkit_container_selecting())
		return 0;
	map = bpf_object__find_map_by_name(obj, "bpfkit_containers");
	if (!map) {
		bpfkit_error(
			"this tool's BPF object has no bpfkit_containers map: include bpfkit/filter.bpf.h in it");
		return -EINVAL;
	}
	verdicts_fd = bpf_map__fd(map);
	/* Every process now running: its pair's verdict, before attach. */
	give_verdicts(seen);
	for (i = 0; i < opts.nselect; i++)
		if (!seen[i])
			bpfkit_error(
				"no container '%s' runs yet: waiting for one to start",
				opts.select[i]);
	return rescanning ? bpfkit_run_every(&tick) : 0;
}

__u64 bpfkit_container_filtered(void)
{
	struct bpfkit_container_key key, next, *prev = NULL;
	struct bpfkit_container_verdict v;
	__u64 n = 0;

	if (verdicts_fd < 0)
		return 0;
	while (!bpf_map_get_next_key(verdicts_fd, prev, &next)) {
		if (!bpf_map_lookup_elem(verdicts_fd, &next, &v))
			n += v.filtered;
		key = next;
		prev = &key;
	}
	return n;
}
