// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The steps every tool takes from its command line to attached programs,
 * each given its part of the parsed options.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/perf_event.h>
#include "cli.h"
#include "diag.h"
#include "kernel.h"
#include "output.h"
#include "setup.h"

void bpfkit_setup(const struct bpfkit_tool *tool, int argc, char **argv)
{
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

static int open_sampler(int cpu, unsigned long hz, bool cycles)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = cycles ? PERF_TYPE_HARDWARE : PERF_TYPE_SOFTWARE,
		.config = cycles ? PERF_COUNT_HW_CPU_CYCLES :
				   PERF_COUNT_SW_CPU_CLOCK,
		.freq = 1,
		.sample_freq = hz,
	};

	return syscall(__NR_perf_event_open, &attr, -1, cpu, -1,
		       PERF_FLAG_FD_CLOEXEC);
}

/* The kernel's highest sampling rate, or 0 when it cannot be read. */
static unsigned long max_sample_rate(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_max_sample_rate", "re");
	unsigned long rate = 0;

	if (f) {
		if (fscanf(f, "%lu", &rate) != 1)
			rate = 0;
		fclose(f);
	}
	return rate;
}

int bpfkit_attach_sampling(struct bpf_program *prog, unsigned long hz,
			   struct bpfkit_sampling *out)
{
	int ncpus = libbpf_num_possible_cpus(), cpu, fd, err, attached = 0;
	bool cycles = true;

	if (ncpus < 0) {
		bpfkit_fail("count the CPUs", ncpus);
		return ncpus;
	}
	out->links = calloc(ncpus, sizeof(*out->links));
	if (!out->links) {
		bpfkit_fail("attach the sampling program", -ENOMEM);
		return -ENOMEM;
	}
	out->ncpus = ncpus;
	for (cpu = 0; cpu < ncpus; cpu++) {
		fd = open_sampler(cpu, hz, cycles);
		/* No PMU (a VM, or no cycles event): the timer, on every CPU. */
		if (fd < 0 && cycles && errno != ENODEV && !attached) {
			cycles = false;
			fd = open_sampler(cpu, hz, cycles);
		}
		if (fd < 0 && errno == ENODEV)
			continue; /* an offline CPU */
		if (fd < 0) {
			err = -errno;
			if (err == -EINVAL && max_sample_rate() &&
			    hz > max_sample_rate())
				bpfkit_error(
					"-F %lu is above this kernel's limit of %lu Hz (kernel.perf_event_max_sample_rate); give a lower -F",
					hz, max_sample_rate());
			else
				bpfkit_fail("open a perf event to sample with",
					    err);
			return err;
		}
		out->links[cpu] = bpf_program__attach_perf_event(prog, fd);
		if (!out->links[cpu]) {
			err = -errno;
			close(fd);
			bpfkit_fail("attach the sampling program", err);
			return err;
		}
		attached++;
	}
	out->event = cycles ? "cycles" : "cpu-clock";
	return 0;
}

void bpfkit_detach_sampling(struct bpfkit_sampling *s)
{
	int cpu;

	for (cpu = 0; cpu < s->ncpus; cpu++)
		bpf_link__destroy(s->links[cpu]);
	free(s->links);
	s->links = NULL;
	s->ncpus = 0;
}
