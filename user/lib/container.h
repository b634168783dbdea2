/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The container room: which container a record's task ran in, from the
 * cgroup v2 id and mount namespace in its header (struct bpfkit_record).
 * The id and runtime come from the cgroup path (docker, containerd's CRI,
 * CRI-O, podman, systemd-nspawn, LXC; a Kubernetes pod's UID and QoS class
 * from kubepods paths), the name from the runtime's local state, read
 * without its daemon (podman, docker; nspawn's and LXC's are in the path).
 * Resolved once per (cgroup, mount namespace), cached, dropped when the
 * cgroup and the namespace have gone; --containers, --container and
 * --host-only are this room's options.
 */
#ifndef BPFKIT_CONTAINER_H
#define BPFKIT_CONTAINER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <linux/types.h>
#include "bpfkit/channel.h"

#define BPFKIT_CONTAINER_ID_LEN 64 /* the longest id: 64 hex digits */
#define BPFKIT_CONTAINER_NAME_LEN 128
#define BPFKIT_CONTAINER_SHORT_ID 12 /* the id's digits a column shows */
#define BPFKIT_CONTAINER_W 12 /* the CONTAINER column's width */
#define BPFKIT_CONTAINER_SELECT_MAX 16 /* --container given this often */

/* A container, as its cgroup path and its runtime's state say. */
struct bpfkit_container {
	char id[BPFKIT_CONTAINER_ID_LEN + 1]; /* hex, or nspawn/LXC's name */
	char name[BPFKIT_CONTAINER_NAME_LEN]; /* "" when none is known */
	const char *runtime; /* "docker", "containerd", "cri-o", "podman", ... */
	char pod_uid[37]; /* a Kubernetes pod's UID, with dashes; or "" */
	const char *qos; /* its QoS class: "guaranteed", ...; or NULL */
};

/* The container room's options. */
struct bpfkit_container_opts {
	bool column; /* --containers: a CONTAINER column */
	bool host_only; /* --host-only: what runs in no container */
	bool per_container; /* --per-container: histograms per container */
	unsigned int nselect; /* --container ID|NAME, given this often */
	const char *select[BPFKIT_CONTAINER_SELECT_MAX];
};

/*
 * The container a cgroup PATH (v1 or v2, systemd or cgroupfs driver) is
 * a container's, into *C; false (and *C cleared) when it is none.
 */
bool bpfkit_container_parse(const char *path, struct bpfkit_container *c);

/*
 * The same for TEXT, laid out like /proc/PID/cgroup: the first line whose
 * path names a container, the v2 line ("0::") tried first.
 */
bool bpfkit_container_parse_proc(const char *text, struct bpfkit_container *c);

/*
 * Take --container ARG (an id of 12 to 64 hex digits, a prefix of one, or a
 * name) into OPTS; a malformed one is a usage error in one line, EINVAL.
 */
int bpfkit_container_opt(struct bpfkit_container_opts *opts, const char *arg);

/* Use OPTS from now on (the command line's hand-out). */
void bpfkit_container_init(const struct bpfkit_container_opts *opts);

/* The options in use. */
const struct bpfkit_container_opts *bpfkit_container_opts(void);

/* True with --container or --host-only. */
bool bpfkit_container_selecting(void);

/*
 * Whether REC's header names no task: a record about another task than
 * the one that sent it (a socket's owner) whose task the kernel did not
 * see (bpfkit_emit_stamped()); its ids are all zero.
 */
static inline bool bpfkit_record_task_unknown(const struct bpfkit_record *rec)
{
	return !rec->mntns;
}

/*
 * The container REC's task ran in, NULL for the host (or none known, or
 * an unknown task): cached per (cgroup id, mount namespace), valid until
 * the next call.
 */
const struct bpfkit_container *
bpfkit_container_of(const struct bpfkit_record *rec);

/* Whether container C (NULL: the host) passes --container / --host-only. */
bool bpfkit_container_selected(const struct bpfkit_container *c);

/*
 * Whether the record DATA (SIZE bytes) passes --container / --host-only:
 * user space's half of the selection, for a record whose (cgroup, mount
 * namespace) the kernel had no verdict for yet; it gives the kernel one.
 */
bool bpfkit_container_wanted(const void *data, size_t size);

/*
 * C's label in a column: its name, its id's first 12 digits, or "-" (a
 * record's column is "?" when its task is not known).
 */
const char *bpfkit_container_label(const struct bpfkit_container *c);

struct bpf_object;

/*
 * Before load: size OBJ's bpfkit_containers map for a selection (it has
 * one entry otherwise). 0 or -errno, reported.
 */
int bpfkit_container_prepare(struct bpf_object *obj);

/*
 * The kernel's half of the selection: give OBJ's bpfkit_containers map
 * the verdicts of every process now running, before attach; RESCANNING
 * (a tool whose kernel side never asks user space: BPFKIT_CONTAINERS_KNOWN)
 * gives new ones every second from the run loop. 0 or -errno.
 */
int bpfkit_container_load(struct bpf_object *obj, bool rescanning);

/* Records the kernel left out by container (the verdict map's counts). */
__u64 bpfkit_container_filtered(void);

#endif /* BPFKIT_CONTAINER_H */
