// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The steps every tool takes from its command line to attached programs,
 * each given its part of the parsed options.
 */
#include <errno.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "diag.h"
#include "kernel.h"
#include "output.h"
#include "setup.h"

/*
 * The kernel's BTF (5.5 MB on Linux 6.18, two copies while parsed) is
 * parsed and freed several times before load: by the kernel room's checks
 * and by libbpf. A fixed mmap threshold gives each copy back to the system
 * when freed; glibc's sliding one would put the later copies on the heap
 * and keep it, 11 MB of resident memory for the tool's life.
 */
#define MMAP_THRESHOLD (128 * 1024) /* glibc's default, held fixed */

void bpfkit_setup(const struct bpfkit_tool *tool, int argc, char **argv)
{
	mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD);
	bpfkit_parse(tool, argc, argv);
	if (bpfkit_preflight(bpfkit_opts.btf_path))
		exit(BPFKIT_EXIT_FAIL);
}

const struct bpf_object_open_opts *bpfkit_open_opts(void)
{
	static struct bpf_object_open_opts opts = {
		.sz = sizeof(opts),
	};

	opts.btf_custom_path = bpfkit_opts.btf_path;
	return &opts;
}

/* Put the --cgroup directory (FD, if any) into the filter's cgroup array. */
static int set_cgroup(struct bpf_object *obj, int fd)
{
	struct bpf_map *map;
	__u32 slot = 0;
	int err;

	if (fd < 0)
		return 0;
	map = bpf_object__find_map_by_name(obj, "bpfkit_cgroup");
	if (!map) {
		err = -ENOENT;
		bpfkit_fail(
			"find the bpfkit_cgroup map (include bpfkit/filter.bpf.h)",
			err);
		return err;
	}
	err = bpf_map__update_elem(map, &slot, sizeof(slot), &fd, sizeof(fd),
				   BPF_ANY);
	if (err)
		bpfkit_fail("set the --cgroup filter", err);
	return err;
}

/*
 * Tests shrink a staging map to make it overflow (--test-map-entries):
 * the events it then has no room for must be counted lost.
 */
static int resize_test_map(struct bpf_object *obj,
			   const struct bpfkit_map_size *size)
{
	struct bpf_map *map;
	int err;

	if (!size->map)
		return 0;
	map = bpf_object__find_map_by_name(obj, size->map);
	if (!map) {
		bpfkit_error(
			"invalid --test-map-entries: this tool's BPF object has no map '%s'",
			size->map);
		return -ENOENT;
	}
	err = bpf_map__set_max_entries(map, size->entries);
	if (err)
		bpfkit_fail("resize a map for --test-map-entries", err);
	return err;
}

int bpfkit_load(struct bpf_object_skeleton *s, struct bpfkit_filter *filter,
		struct bpfkit_channel_cfg *channel)
{
	int err;

	err = resize_test_map(*s->obj, &bpfkit_opts.test_map);
	if (err)
		return err;
	*filter = bpfkit_opts.filter;
	if (channel) {
		err = bpfkit_channel_prepare(*s->obj, channel,
					     &bpfkit_opts.channel);
		if (err)
			return err;
	}
	err = bpf_object__load_skeleton(s);
	if (err) {
		bpfkit_fail("load BPF programs", err);
		return err;
	}
	return set_cgroup(*s->obj, bpfkit_opts.cgroup_fd);
}

/* The skeleton's link slot of PROG, so that destroying it detaches PROG. */
static struct bpf_link **link_of(struct bpf_object_skeleton *s,
				 const struct bpf_program *prog)
{
	int i;

	for (i = 0; i < s->prog_cnt; i++) {
		if (*s->progs[i].prog == prog)
			return s->progs[i].link;
	}
	return NULL;
}

/*
 * Open the event channel when FN is set, before anything is attached, and
 * start the clock: times count from here, so no event comes before the start.
 */
static int open_channel(struct bpf_object_skeleton *s, bpfkit_event_fn fn,
			void *ctx, struct bpfkit_channel **ch)
{
	int err;

	bpfkit_output_start();
	if (!fn)
		return 0;
	*ch = bpfkit_channel_open(s, &bpfkit_opts.channel, fn, ctx);
	if (!*ch) {
		err = -errno;
		bpfkit_fail("open the event channel", err);
		return err;
	}
	return 0;
}

int bpfkit_attach_target(struct bpf_object_skeleton *s,
			 const struct bpfkit_target *target, bpfkit_event_fn fn,
			 void *ctx, struct bpfkit_channel **ch)
{
	const char *what = target ? target->what : "attach BPF programs";
	struct bpf_link **link;
	int err;

	err = open_channel(s, fn, ctx, ch);
	if (err)
		return err;
	/* A kprobe named at run time first; the skeleton skips set links. */
	if (target && target->func) {
		link = link_of(s, target->prog);
		*link = bpf_program__attach_kprobe(target->prog, false,
						   target->func);
		if (!*link) {
			err = -errno;
			bpfkit_fail(what, err);
			return err;
		}
	}
	err = bpf_object__attach_skeleton(s);
	if (err)
		bpfkit_fail(what, err);
	return err;
}

/* Attach one user probe into PROG's link slot; reports its own failure. */
static int attach_user_probe(struct bpf_object_skeleton *s,
			     const struct bpfkit_user_probe *p)
{
	LIBBPF_OPTS(bpf_uprobe_opts, opts, .func_name = p->name,
		    .retprobe = p->retprobe);
	struct bpf_link **link = link_of(s, p->prog);
	int err;

	if (p->provider)
		*link = bpf_program__attach_usdt(p->prog, -1, p->binary,
						 p->provider, p->name, NULL);
	else
		*link = bpf_program__attach_uprobe_opts(p->prog, -1, p->binary,
							0, &opts);
	if (*link)
		return 0;
	err = -errno;
	if (err == -ENOENT && p->provider)
		bpfkit_error(
			"%s has no USDT probe %s:%s (readelf -n %s lists its probes); give a binary built with it",
			p->binary, p->provider, p->name, p->binary);
	else if (err == -ENOENT)
		bpfkit_error(
			"%s has no function %s (nm -D %s lists its symbols); give a binary that has it",
			p->binary, p->name, p->binary);
	else
		bpfkit_error("failed to attach to %s%s%s in %s: %s",
			     p->provider ?: "", p->provider ? ":" : "", p->name,
			     p->binary, strerror(-err));
	return err;
}

int bpfkit_attach_user(struct bpf_object_skeleton *s,
		       const struct bpfkit_user_probe *probes, size_t n,
		       bpfkit_event_fn fn, void *ctx,
		       struct bpfkit_channel **ch)
{
	size_t i;
	int err;

	err = open_channel(s, fn, ctx, ch);
	if (err)
		return err;
	for (i = 0; i < n; i++) {
		err = attach_user_probe(s, &probes[i]);
		if (err)
			return err;
	}
	err = bpf_object__attach_skeleton(s);
	if (err)
		bpfkit_fail("attach BPF programs", err);
	return err;
}

int bpfkit_attach(struct bpf_object_skeleton *s, bpfkit_event_fn fn, void *ctx,
		  struct bpfkit_channel **ch)
{
	return bpfkit_attach_target(s, NULL, fn, ctx, ch);
}
