// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The steps every tool takes from its command line to attached programs,
 * each given its part of the parsed options.
 */
#include <errno.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <unistd.h>
#include <linux/capability.h>
#include "blockio.h"
#include "cli.h"
#include "diag.h"
#include "kernel.h"
#include "metrics.h"
#include "net.h"
#include "output.h"
#include "privs.h"
#include "setup.h"
#include "staging.h"

/* The CPU time this process has used so far, in ms. */
static double process_cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/*
 * The kernel's BTF (5.5 MB on Linux 6.18, two copies while parsed) is
 * parsed and freed several times before load: by the rooms' checks
 * (bpfkit_kernel_btf()) and by libbpf. A fixed mmap threshold gives each
 * copy back to the system when freed; glibc's sliding one would put the
 * later copies on the heap and keep it, 11 MB of resident memory for the
 * tool's life.
 */
#define MMAP_THRESHOLD (128 * 1024) /* glibc's default, held fixed */

void bpfkit_setup(const struct bpfkit_tool *tool, int argc, char **argv)
{
	double main_ms = bpfkit_clock_ms(), main_cpu_ms = process_cpu_ms();
	const struct bpfkit_tracepoint *tp;

	mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD);
	bpfkit_parse(tool, argc, argv);
	if (bpfkit_opts.verbose)
		bpfkit_phases_start(main_ms, main_cpu_ms);
	if (bpfkit_preflight(bpfkit_opts.btf_path, tool->binary))
		exit(BPFKIT_EXIT_FAIL);
	for (tp = tool->tracepoints; tp && tp->name; tp++)
		if (bpfkit_require_tracepoint(tp->category, tp->name, tp->why))
			exit(BPFKIT_EXIT_FAIL);
	if (tool->metrics)
		bpfkit_metrics_source(tool->metrics, NULL);
	bpfkit_phase("command line and preflight");
	/*
	 * With metrics but no --print, the terminal output (headers, events,
	 * reports) goes to /dev/null from here on, unseen.
	 */
	if (bpfkit_metrics_quiet() && !freopen("/dev/null", "w", stdout)) {
		bpfkit_fail("open /dev/null for the output", -errno);
		exit(BPFKIT_EXIT_FAIL);
	}
}

const struct bpf_object_open_opts *bpfkit_open_opts(void)
{
	static struct bpf_object_open_opts opts = {
		.sz = sizeof(opts),
	};

	opts.btf_custom_path = bpfkit_opts.btf_path;
	/*
	 * A type vmlinux lacks (another kernel version's layout, which a
	 * program checks for) sends libbpf through the modules' BTF, which
	 * it cannot list without CAP_SYS_ADMIN: the load would fail. The
	 * tools trace vmlinux's code only, so name its BTF as the target.
	 */
	if (!opts.btf_custom_path && !bpfkit_has_cap(CAP_SYS_ADMIN) &&
	    !access(BPFKIT_KERNEL_BTF, R_OK))
		opts.btf_custom_path = BPFKIT_KERNEL_BTF;
	return &opts;
}

int bpfkit_open_failed(void)
{
	bpfkit_fail("open BPF object", -errno);
	return BPFKIT_EXIT_FAIL;
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

/*
 * With -v, what the load's phases are timed by: when libbpf said it had
 * parsed the kernel BTF and created its last map (its own debug messages),
 * and each program's verifier statistics (log level BPF_LOG_STATS, which
 * holds the verifier's error too when it rejects the program).
 */
#define STATS_LOG_SIZE 65536

static struct {
	libbpf_print_fn_t print;
	double btf_ms, maps_ms;
	bool btf_loaded; /* libbpf loads it only for CO-RE and BTF programs */
	int maps;
} load_clock;

static int stamp_print(enum libbpf_print_level level, const char *fmt,
		       va_list args)
{
	if (strstr(fmt, "loading kernel BTF '")) {
		load_clock.btf_ms = bpfkit_clock_ms();
		load_clock.btf_loaded = true;
	} else if (strstr(fmt, "': created successfully")) {
		load_clock.maps_ms = bpfkit_clock_ms();
		load_clock.maps++;
	}
	return load_clock.print(level, fmt, args);
}

/* A stats log for every program that loads; NULL when out of memory. */
static char *stats_logs(struct bpf_object_skeleton *s)
{
	char *logs = calloc(s->prog_cnt, STATS_LOG_SIZE);
	struct bpf_program *prog;
	int i;

	for (i = 0; logs && i < s->prog_cnt; i++) {
		prog = *s->progs[i].prog;
		if (!bpf_program__autoload(prog))
			continue;
		bpf_program__set_log_buf(prog, logs + i * STATS_LOG_SIZE,
					 STATS_LOG_SIZE);
		bpf_program__set_log_level(prog, 4 /* BPF_LOG_STATS */);
	}
	return logs;
}

/*
 * After a failed load: what the verifier said of each program it checked.
 * The stats log level still carries its messages, a rejection's reason
 * among them; libbpf prints no log of a buffer the caller gave it.
 */
static void print_verifier_logs(struct bpf_object_skeleton *s, char *logs)
{
	const char *log;
	int i;

	for (i = 0; i < s->prog_cnt; i++) {
		log = logs + i * STATS_LOG_SIZE;
		if (bpf_program__autoload(*s->progs[i].prog) && *log)
			fprintf(stderr, "%s: verifier log of %s:\n%s",
				bpfkit_opts.tool,
				bpf_program__name(*s->progs[i].prog), log);
	}
}

/*
 * One line per loaded program: the verifier's own time (from its log) and
 * the instructions it walked (bpf_prog_info's verified_insns); their sum.
 */
static double print_verification(struct bpf_object_skeleton *s, char *logs)
{
	const char *log, *at;
	struct bpf_prog_info info;
	__u32 len = sizeof(info);
	double sum = 0, ms;
	char detail[128];
	unsigned int us;
	int i;

	for (i = 0; i < s->prog_cnt; i++) {
		struct bpf_program *prog = *s->progs[i].prog;
		char name[160];

		if (!bpf_program__autoload(prog))
			continue;
		log = logs + i * STATS_LOG_SIZE;
		at = strstr(log, "verification time ");
		ms = at && sscanf(at, "verification time %u usec", &us) == 1 ?
			     us / 1e3 :
			     0;
		memset(&info, 0, sizeof(info));
		len = sizeof(info);
		if (bpf_obj_get_info_by_fd(bpf_program__fd(prog), &info, &len))
			info.verified_insns = 0;
		snprintf(name, sizeof(name), "verify %s",
			 bpf_program__name(prog));
		snprintf(detail, sizeof(detail), ", %u insns verified",
			 info.verified_insns);
		bpfkit_phase_line(name, ms, detail);
		sum += ms;
	}
	return sum;
}

/* Load S; with -v, time kernel BTF, maps, and each program's verification. */
static int load_timed(struct bpf_object_skeleton *s)
{
	double start = bpfkit_clock_ms(), verify;
	char *logs, detail[32];
	int err;

	if (!bpfkit_phases_on())
		return bpf_object__load_skeleton(s);
	logs = stats_logs(s);
	load_clock.btf_ms = load_clock.maps_ms = start;
	load_clock.btf_loaded = false;
	load_clock.maps = 0;
	load_clock.print = libbpf_set_print(stamp_print);
	err = bpf_object__load_skeleton(s);
	libbpf_set_print(load_clock.print);
	if (err && logs)
		print_verifier_logs(s, logs);
	if (!err) {
		bpfkit_phase_line("kernel BTF", load_clock.btf_ms - start,
				  load_clock.btf_loaded ?
					  "" :
					  " (not loaded: nothing needs it)");
		snprintf(detail, sizeof(detail), " (%d created)",
			 load_clock.maps);
		bpfkit_phase_line(
			"maps", load_clock.maps_ms - load_clock.btf_ms, detail);
		verify = logs ? print_verification(s, logs) : 0;
		bpfkit_phase_line(
			"CO-RE relocation, JIT and the rest of load",
			bpfkit_clock_ms() - load_clock.maps_ms - verify, "");
		bpfkit_phase("load");
	}
	free(logs);
	return err;
}

void *bpfkit_object_var(struct bpf_object_skeleton *s, const char *section,
			const char *name, size_t size)
{
	struct bpf_map *map = bpf_object__find_map_by_name(*s->obj, section);
	const struct btf *btf = bpf_object__btf(*s->obj);
	const struct btf_var_secinfo *v;
	const struct btf_type *sec;
	char *data = NULL;
	int id, i;

	for (i = 0; map && i < s->map_cnt; i++)
		if (*s->maps[i].map == map && s->maps[i].mmaped)
			data = *s->maps[i].mmaped;
	id = btf ? btf__find_by_name_kind(btf, section, BTF_KIND_DATASEC) :
		   -ENOENT;
	if (!data || id < 0)
		return NULL;
	sec = btf__type_by_id(btf, id);
	v = btf_var_secinfos(sec);
	for (i = 0; i < btf_vlen(sec); i++, v++) {
		if (strcmp(btf__name_by_offset(
				   btf,
				   btf__type_by_id(btf, v->type)->name_off),
			   name))
			continue;
		if (v->size == size)
			return data + v->offset;
		bpfkit_error(
			"the BPF object's %s is %u bytes, the library's %zu: build the tool against this library's headers",
			name, v->size, size);
		errno = EINVAL;
		return NULL;
	}
	errno = ENOENT;
	return NULL;
}

/* A room's setting NAME in .rodata; NULL (*ERR set if not ENOENT): none. */
static void *rodata_var(struct bpf_object_skeleton *s, const char *name,
			size_t size, int *err)
{
	void *v = bpfkit_object_var(s, ".rodata", name, size);

	if (!v && errno != ENOENT)
		*err = -errno;
	return v;
}

/* Whether bpfkit_load() prepared an event channel for bpfkit_attach*(). */
static bool channel_ready;

/* A tool whose BPF object lacks WHAT it asks for: one line, -EINVAL. */
static int no_room(const char *what, const char *header)
{
	bpfkit_error(
		"this tool's BPF object has no %s: include bpfkit/%s.bpf.h in it",
		what, header);
	return -EINVAL;
}

/* Overload control's settings: the read-only ones and the global rate. */
static int prepare_overload(struct bpf_object_skeleton *s)
{
	struct bpfkit_overload_cfg *cfg;
	__u64 *rate;
	int err = 0;

	cfg = rodata_var(s, "bpfkit_overload_cfg", sizeof(*cfg), &err);
	rate = bpfkit_object_var(s, ".bss", "bpfkit_overload_rate",
				 sizeof(*rate));
	if (!rate && errno != ENOENT)
		err = -errno;
	return err   ?:
		       bpfkit_overload_prepare(
			       cfg, rate,
			       bpf_object__find_map_by_name(*s->obj,
							    "bpfkit_buckets"),
			       &bpfkit_opts.channel.overload);
}

/*
 * The settings of the rooms the object includes (their .bpf.h headers'
 * read-only globals), as the options say: the filters, the event
 * channel's (which it prepares), the histograms', the network's, the
 * stacks' and the disk's.
 */
static int write_settings(struct bpf_object_skeleton *s)
{
	const char *test_map = bpfkit_opts.test_map.map;
	struct bpfkit_channel_cfg *channel;
	struct bpfkit_filter *filter;
	void *cfg;
	int err = 0;

	filter = rodata_var(s, "bpfkit_filter", sizeof(*filter), &err);
	if (filter)
		*filter = bpfkit_opts.filter;
	else if (!err && bpfkit_filter_narrows(&bpfkit_opts.filter))
		err = no_room("filters", "filter");
	cfg = rodata_var(s, "bpfkit_hist_cfg", sizeof(struct bpfkit_hist_cfg),
			 &err);
	if (cfg)
		bpfkit_hist_cfg_init(cfg);
	cfg = rodata_var(s, "bpfkit_net_cfg", sizeof(struct bpfkit_net_cfg),
			 &err);
	if (cfg)
		bpfkit_net_cfg_init(cfg);
	cfg = rodata_var(s, "bpfkit_stack_cfg", sizeof(struct bpfkit_stack_cfg),
			 &err);
	if (cfg)
		bpfkit_stack_cfg_init(cfg, &bpfkit_opts.stacks);
	cfg = rodata_var(s, "bpfkit_rq_dev_filter", sizeof(__u32), &err);
	if (cfg)
		*(__u32 *)cfg = bpfkit_opts.disk;
	cfg = rodata_var(s, "bpfkit_task_storage", sizeof(bool), &err);
	if (cfg && !err)
		err = bpfkit_staging_prepare(
			*s->obj, cfg,
			test_map && !strcmp(test_map, BPFKIT_STAGING_MAP));
	channel = rodata_var(s, "bpfkit_channel_cfg", sizeof(*channel), &err);
	if (channel && !err)
		err = bpfkit_channel_prepare(*s->obj, channel,
					     &bpfkit_opts.channel);
	channel_ready = channel && !err;
	return err ?: prepare_overload(s);
}

int bpfkit_load(struct bpf_object_skeleton *s)
{
	int err;

	bpfkit_phase("open");
	/* Every layout is read by now: the kernel's BTF is needed no more. */
	bpfkit_btf_release();

	err = resize_test_map(*s->obj, &bpfkit_opts.test_map) ?:
								write_settings(s);
	/* --container, --host-only: room for the verdicts (container.c). */
	if (!err)
		err = bpfkit_container_prepare(*s->obj);
	if (err)
		return err;
	err = load_timed(s);
	if (err && bpfkit_core_missing()) {
		bpfkit_error(
			"kernel BTF %s has no usable %s (no CO-RE match): give this kernel's BTF with --btf FILE",
			bpfkit_opts.btf_path ?: BPFKIT_KERNEL_BTF,
			bpfkit_core_missing());
		return err;
	}
	if (err) {
		bpfkit_fail("load BPF programs", err);
		return err;
	}
	return set_cgroup(*s->obj, bpfkit_opts.cgroup_fd) ?:
		       bpfkit_container_load(*s->obj,
					     bpfkit_opts.filter.containers ==
						     BPFKIT_CONTAINERS_KNOWN);
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

/* Overload control, once loaded, for the channel CH to tick. */
static int open_overload(struct bpf_object_skeleton *s,
			 struct bpfkit_channel *ch)
{
	struct bpfkit_overload *ov;
	volatile __u64 *rate;

	rate = bpfkit_object_var(s, ".bss", "bpfkit_overload_rate",
				 sizeof(*rate));
	ov = bpfkit_overload_open(s, rate, &bpfkit_opts.channel.overload);
	if (!ov) {
		/* --max-cpu without run-time stats has said why. */
		if (errno != EOPNOTSUPP)
			bpfkit_fail("set up overload control", -errno);
		return -errno;
	}
	bpfkit_channel_overload(ch, ov);
	return 0;
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
	bpfkit_metrics_object(*s->obj);
	if (!fn)
		return 0;
	if (!channel_ready)
		return no_room("event channel", "channel");
	*ch = bpfkit_channel_open(s, &bpfkit_opts.channel, fn, ctx);
	if (!*ch) {
		err = -errno;
		bpfkit_fail("open the event channel", err);
		return err;
	}
	return open_overload(s, *ch);
}

/* Attach every program left to autoattach; WHAT names a failure. */
static int attach_rest(struct bpf_object_skeleton *s, const char *what)
{
	int err = bpf_object__attach_skeleton(s);

	if (err)
		bpfkit_fail(what, err);
	bpfkit_phase("channel and attach");
	return err;
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
	return attach_rest(s, what);
}

int bpfkit_attach_syscalls(struct bpf_object_skeleton *s,
			   const struct bpfkit_syscall_tp *tps, size_t n,
			   bpfkit_event_fn fn, void *ctx,
			   struct bpfkit_channel **ch)
{
	struct bpf_link *link;
	char exit_tp[64];
	size_t i;
	int err;

	err = open_channel(s, fn, ctx, ch);
	if (err)
		return err;
	/* Exits first: no record an enter program stages misses its exit. */
	for (i = 0; i < n; i++) {
		if (!bpf_program__autoload(tps[i].enter) || !tps[i].exit ||
		    strcmp(bpf_program__section_name(tps[i].exit),
			   "tracepoint"))
			continue;
		snprintf(exit_tp, sizeof(exit_tp), "sys_exit_%s", tps[i].name);
		link = bpf_program__attach_tracepoint(tps[i].exit, "syscalls",
						      exit_tp);
		err = link ? bpfkit_channel_add_link(*ch, link) : -errno;
		if (err) {
			bpfkit_fail("attach to the syscalls' exits", err);
			return err;
		}
	}
	return attach_rest(s, "attach BPF programs");
}

const char *bpfkit_mapped_libc(int pid, char *buf, size_t len)
{
	char line[4096], *path, *base;
	const char *found = NULL;
	FILE *f;

	if (pid)
		snprintf(line, sizeof(line), "/proc/%d/maps", pid);
	f = fopen(pid ? line : "/proc/self/maps", "re");
	if (!f)
		return NULL;
	while (!found && fgets(line, sizeof(line), f)) {
		path = strchr(line, '/');
		if (!path)
			continue;
		path[strcspn(path, "\n")] = '\0';
		base = strrchr(path, '/') + 1;
		if (strncmp(base, "libc.so", 7) && strncmp(base, "libc-", 5))
			continue;
		if (pid)
			snprintf(buf, len, "/proc/%d/root%s", pid, path);
		else
			snprintf(buf, len, "%s", path);
		found = buf;
	}
	fclose(f);
	return found;
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
		*link = bpf_program__attach_usdt(p->prog, p->pid ?: -1,
						 p->binary, p->provider,
						 p->name, NULL);
	else
		*link = bpf_program__attach_uprobe_opts(p->prog, p->pid ?: -1,
							p->binary, 0, &opts);
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

int bpfkit_attach_user_probes(struct bpf_object_skeleton *s,
			      const struct bpfkit_user_probe *probes, size_t n)
{
	size_t i;
	int err;

	for (i = 0; i < n; i++) {
		err = attach_user_probe(s, &probes[i]);
		if (err)
			return err;
	}
	return 0;
}

int bpfkit_attach_user(struct bpf_object_skeleton *s,
		       const struct bpfkit_user_probe *probes, size_t n,
		       bpfkit_event_fn fn, void *ctx,
		       struct bpfkit_channel **ch)
{
	int err;

	err = open_channel(s, fn, ctx, ch) ?:
		      bpfkit_attach_user_probes(s, probes, n);
	if (err)
		return err;
	return attach_rest(s, "attach BPF programs");
}

int bpfkit_attach(struct bpf_object_skeleton *s, bpfkit_event_fn fn, void *ctx,
		  struct bpfkit_channel **ch)
{
	return bpfkit_attach_target(s, NULL, fn, ctx, ch);
}

int bpfkit_run(struct bpfkit_channel *ch, const struct bpfkit_tick *tick)
{
	int err, ret;

	err = bpfkit_metrics_start(ch, tick ? tick->interval_ms : 0);
	if (err)
		return err;
	if (tick)
		err = bpfkit_run_every(tick);
	if (err) {
		bpfkit_fail("start the interval timer", err);
		return err;
	}
	err = bpfkit_drop_privileges(&bpfkit_opts.drop);
	if (err)
		return err;
	bpfkit_output_start();
	err = bpfkit_run_loop();

	/* Drain and sum up, unless stdout went away or failed. */
	bpfkit_metrics_stop();
	if (ch && !bpfkit_check_stdout()) {
		bpfkit_channel_drain(ch);
		if (!bpfkit_check_stdout())
			bpfkit_channel_summarize(ch);
	}
	ret = bpfkit_output_flush();
	return ret < 0 ? ret : err;
}

int bpfkit_hist_run(struct bpf_object_skeleton *s, struct bpf_map *map,
		    const struct bpfkit_hist_keys *keys)
{
	const volatile __u64 *missed;
	struct bpfkit_hist_reader *r;
	struct bpfkit_tick tick;
	int err;

	missed = bpfkit_object_var(s, ".bss", "bpfkit_hist_missed",
				   sizeof(*missed));
	if (!missed) {
		err = -errno;
		bpfkit_fail(
			"find the histograms' counter (bpfkit/histogram.bpf.h)",
			err);
		return err;
	}
	err = bpfkit_hist_open(&r, bpf_map__fd(map), keys, missed) ?:
		      bpfkit_attach(s, NULL, NULL, NULL);
	if (!err) {
		tick = bpfkit_hist_tick(r);
		err = bpfkit_run(NULL, tick.interval_ms ? &tick : NULL);
		err = bpfkit_hist_end(r, err);
	}
	bpfkit_hist_free(r);
	return err;
}

/* A run of bpfkit_interval_run(): its reports so far. */
struct interval_run {
	int (*report)(void *ctx);
	void *ctx;
	unsigned long reports;
	bool done; /* COUNT reports made */
};

static int interval_tick(void *ctx)
{
	struct interval_run *t = ctx;
	int err = t->report(t->ctx);

	if (err)
		return err;
	t->reports++;
	t->done = bpfkit_opts.hist.count &&
		  t->reports >= bpfkit_opts.hist.count;
	return t->done;
}

int bpfkit_interval_run(struct bpf_object_skeleton *s, int (*report)(void *ctx),
			void *ctx, unsigned long default_s)
{
	unsigned long secs = bpfkit_opts.hist.interval ?: default_s;
	struct interval_run t = { .report = report, .ctx = ctx };
	struct bpfkit_tick tick = {
		.interval_ms = secs * 1000,
		.fn = interval_tick,
		.ctx = &t,
	};
	int err, ret;

	err = bpfkit_attach(s, NULL, NULL, NULL);
	if (err)
		return err;
	err = bpfkit_run(NULL, secs ? &tick : NULL);
	if (err || t.done)
		return err;
	/* As event tools do, stop quietly once the reader has gone. */
	ret = bpfkit_check_stdout();
	if (ret)
		return ret < 0 ? ret : 0;
	return report(ctx);
}
