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

static struct bpfkit_container_opts opts;
static const char *podman_dir = "/var/lib/containers/storage";
static const char *docker_dir = "/var/lib/docker";

/* One (cgroup, mount namespace) resolved: its container, if any. */
struct cached_container {
	__u64 cgroup_id;
	__u32 mntns;
	bool in_container;
	char path[PATH_MAX]; /* the cgroup v2 directory, if found; or "" */
	struct bpfkit_container c;
};

static void *cache; /* tsearch() tree of struct cached_container */
static __u32 self_mntns;
static int verdicts_fd = -1; /* the kernel's bpfkit_containers map */
static __u64 last_sweep_ns;

void bpfkit_container_state_dirs(const char *podman, const char *docker)
{
	if (podman)
		podman_dir = podman;
	if (docker)
		docker_dir = docker;
}

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
static void unescape_unit(char *dst, size_t size, const char *s, size_t n)
{
	size_t i, o = 0;
	unsigned int ch;

	for (i = 0; i < n && o + 1 < size; i++) {
		if (s[i] == '\\' && i + 3 < n && s[i + 1] == 'x' &&
		    sscanf(s + i + 2, "%2x", &ch) == 1) {
			dst[o++] = ch;
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
	size_t i;

	if (n != 36)
		return false;
	for (i = 0; i < n; i++) {
		bool dash = i == 8 || i == 13 || i == 18 || i == 23;

		if (dash ? (s[i] != '-' && s[i] != '_') : !all_hex(s + i, 1))
			return false;
		c->pod_uid[i] = dash ? '-' : s[i];
	}
	c->pod_uid[n] = '\0';
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

void bpfkit_container_init(const struct bpfkit_container_opts *o)
{
	opts = *o;
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
 * podman keeps every container in containers/storage's
 * overlay-containers/containers.json: [{"id":"<64 hex>","names":["name"],...
 */
static void podman_name(struct bpfkit_container *c)
{
	char path[PATH_MAX], key[BPFKIT_CONTAINER_ID_LEN + 8], *buf, *at,
		*names;

	snprintf(path, sizeof(path), "%s/overlay-containers/containers.json",
		 podman_dir);
	buf = slurp(path);
	if (!buf)
		return;
	snprintf(key, sizeof(key), "\"id\":\"%s\"", c->id);
	at = strstr(buf, key);
	names = at ? strstr(at, "\"names\":[\"") : NULL;
	/* Its own names: before the next container's id. */
	if (names && (!strstr(at + 1, "\"id\":\"") ||
		      names < strstr(at + 1, "\"id\":\"")))
		json_string_at(names + 10, c->name, sizeof(c->name));
	free(buf);
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

static __u64 want_id;
static char *found_path;

static int match_id(const char *path, const struct stat *st, int type,
		    struct FTW *ftw)
{
	struct {
		struct file_handle fh;
		__u64 id;
	} h = { .fh.handle_bytes = sizeof(__u64) };
	int mount_id;

	if (type != FTW_D)
		return 0;
	if (name_to_handle_at(AT_FDCWD, path, &h.fh, &mount_id, 0) ||
	    h.id != want_id)
		return 0;
	snprintf(found_path, PATH_MAX, "%s", path);
	return 1;
}

/* The directory of cgroup v2 ID under the v2 mount, into PATH; false: none. */
static bool cgroup_path(__u64 id, char *path)
{
	const char *mount = bpfkit_cgroup2_mount(NULL);

	path[0] = '\0';
	if (!mount || !id)
		return false;
	want_id = id;
	found_path = path;
	return nftw(mount, match_id, 16, FTW_PHYS) == 1;
}

/* A live process in mount namespace MNTNS (0: none): its /proc/PID/cgroup. */
static bool parse_mntns(__u32 mntns, struct bpfkit_container *c)
{
	char path[PATH_MAX], *text;
	struct dirent *d;
	bool found = false;
	DIR *proc;

	proc = opendir("/proc");
	if (!proc)
		return false;
	while (!found && (d = readdir(proc))) {
		if (d->d_name[0] < '1' || d->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/ns/mnt", d->d_name);
		if (ns_inode(path) != mntns)
			continue;
		snprintf(path, sizeof(path), "/proc/%s/cgroup", d->d_name);
		text = slurp(path);
		found = text && bpfkit_container_parse_proc(text, c);
		free(text);
	}
	closedir(proc);
	return found;
}

static int cmp_entry(const void *a, const void *b)
{
	const struct cached_container *x = a, *y = b;

	if (x->cgroup_id != y->cgroup_id)
		return x->cgroup_id < y->cgroup_id ? -1 : 1;
	return x->mntns < y->mntns ? -1 : x->mntns > y->mntns;
}

static void resolve(struct cached_container *e)
{
	if (!self_mntns)
		self_mntns = ns_inode("/proc/self/ns/mnt");
	/* The container's own cgroup v2 directory, when its runtime made one. */
	if (cgroup_path(e->cgroup_id, e->path) &&
	    bpfkit_container_parse(e->path + strlen(bpfkit_cgroup2_mount(NULL)),
				   &e->c))
		e->in_container = true;
	/* Else, as in v1-only layouts, a task of its mount namespace's. */
	else if (e->mntns && e->mntns != self_mntns &&
		 parse_mntns(e->mntns, &e->c))
		e->in_container = true;
	if (e->in_container)
		find_name(&e->c);
}

/* Is entry E's cgroup or mount namespace still there? */
static bool alive(const struct cached_container *e)
{
	if (e->path[0])
		return !access(e->path, F_OK);
	return !e->in_container ||
	       parse_mntns(e->mntns, &(struct bpfkit_container){});
}

static struct cached_container **dead;
static size_t ndead;

static void collect_dead(const void *node, VISIT which, int depth)
{
	struct cached_container *e = *(struct cached_container *const *)node;
	struct cached_container **grown;

	if ((which != postorder && which != leaf) || alive(e))
		return;
	grown = realloc(dead, (ndead + 1) * sizeof(*dead));
	if (!grown)
		return;
	dead = grown;
	dead[ndead++] = e;
}

/*
 * Drop the entries whose cgroup and mount namespace have gone, at most
 * once a second, when a new pair is seen: ids are not reused, namespace
 * inode numbers may be.
 */
static void sweep(void)
{
	__u64 now = now_ns();
	size_t i;

	if (now - last_sweep_ns < 1000000000ULL)
		return;
	last_sweep_ns = now;
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

	if (node)
		return *(struct cached_container **)node;
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
	struct cached_container *e = lookup(rec->cgroup_id, rec->mntns);

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

	if (!bpfkit_container_selecting() || size < sizeof(*rec))
		return true;
	return give_verdict(rec->cgroup_id, rec->mntns,
			    bpfkit_container_of(rec));
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

int bpfkit_container_load(struct bpf_object *obj)
{
	struct bpf_map *map;
	bool seen[BPFKIT_CONTAINER_SELECT_MAX] = {};
	struct dirent *d;
	unsigned int i;
	DIR *proc;

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
	proc = opendir("/proc");
	while (proc && (d = readdir(proc))) {
		const struct bpfkit_container *c;
		struct bpfkit_record rec = {};
		char path[PATH_MAX];

		if (d->d_name[0] < '1' || d->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/ns/mnt", d->d_name);
		rec.mntns = ns_inode(path);
		rec.cgroup_id = proc_cgroup_id(d->d_name);
		if (!rec.mntns || !rec.cgroup_id)
			continue;
		c = bpfkit_container_of(&rec);
		give_verdict(rec.cgroup_id, rec.mntns, c);
		for (i = 0; c && i < opts.nselect; i++)
			seen[i] |= !strcmp(c->name, opts.select[i]) ||
				   !strncmp(c->id, opts.select[i],
					    strlen(opts.select[i]));
	}
	if (proc)
		closedir(proc);
	for (i = 0; i < opts.nselect; i++)
		if (!seen[i])
			bpfkit_error(
				"no container '%s' runs yet: waiting for one to start",
				opts.select[i]);
	return 0;
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
