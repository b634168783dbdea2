// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The shared histogram's user side: options, buckets, text, JSON, reports. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "container.h"
#include "diag.h"
#include "histogram.h"
#include "metrics.h"
#include "run.h"

#define STARS 40 /* width of the distribution bar */

static struct bpfkit_hist_opts opts;

void bpfkit_hist_init(const struct bpfkit_hist_opts *o)
{
	opts = *o;
}

/* One unit of the values: a microsecond, a millisecond (-m) or a Kbyte. */
static __u64 unit(void)
{
	if (opts.sizes)
		return 1024;
	return opts.millis ? 1000000 : 1000;
}

static struct bpfkit_hist_cfg current_cfg(void)
{
	struct bpfkit_hist_cfg cfg = {
		.unit_ns = unit(),
		.linear_step = opts.linear_step,
		.by = opts.by,
		.per_cpu = opts.per_cpu,
	};

	cfg.unit_shift = bpfkit_log2(cfg.unit_ns);

	return cfg;
}

void bpfkit_hist_cfg_init(volatile struct bpfkit_hist_cfg *cfg)
{
	struct bpfkit_hist_cfg c = current_cfg();

	cfg->unit_ns = c.unit_ns;
	cfg->unit_shift = c.unit_shift;
	cfg->linear_step = c.linear_step;
	cfg->by = c.by;
	cfg->per_cpu = c.per_cpu;
}

void bpfkit_hist_io_sizes(void)
{
	if (opts.millis) {
		bpfkit_usage_error(
			"-m/--milliseconds is for times; these buckets are sizes, in Kbytes");
		exit(BPFKIT_EXIT_USAGE);
	}
	opts.sizes = true;
	opts.by = BPFKIT_HIST_PROCESS;
}

const char *bpfkit_hist_unit(void)
{
	if (opts.sizes)
		return "Kbytes";
	return opts.millis ? "msecs" : "usecs";
}

__u64 bpfkit_hist_min(const struct bpfkit_hist_cfg *cfg, unsigned int slot)
{
	if (cfg->linear_step)
		return slot * cfg->linear_step;
	return slot ? 1ULL << slot : 0;
}

__u64 bpfkit_hist_max(const struct bpfkit_hist_cfg *cfg, unsigned int slot)
{
	if (cfg->linear_step)
		return (slot + 1) * cfg->linear_step - 1;
	return (2ULL << slot) - 1;
}

double bpfkit_hist_percentile(const struct bpfkit_hist_cfg *cfg,
			      const struct bpfkit_hist *h, double p)
{
	double target = p * h->count, seen = 0, lo, width;
	unsigned int i;

	if (!h->count)
		return 0;
	for (i = 0; i < BPFKIT_HIST_SLOTS; i++) {
		if (!h->slots[i] || seen + h->slots[i] < target) {
			seen += h->slots[i];
			continue;
		}
		lo = bpfkit_hist_min(cfg, i);
		width = bpfkit_hist_max(cfg, i) + 1 - lo;
		return lo + width * (target - seen) / h->slots[i];
	}
	return bpfkit_hist_max(cfg, BPFKIT_HIST_SLOTS - 1);
}

/* The last non-empty bucket, or -1. */
static int last_slot(const struct bpfkit_hist *h)
{
	int i;

	for (i = BPFKIT_HIST_SLOTS - 1; i >= 0; i--)
		if (h->slots[i])
			return i;
	return -1;
}

static double avg(const struct bpfkit_hist_cfg *cfg,
		  const struct bpfkit_hist *h)
{
	return h->count ? (double)h->sum_ns / h->count / cfg->unit_ns : 0;
}

static void print_bar(FILE *f, __u64 val, __u64 max)
{
	int stars = max ? val * STARS / max : 0, i;

	for (i = 0; i < STARS; i++)
		fputc(i < stars ? '*' : ' ', f);
}

void bpfkit_hist_print_text(FILE *f, const struct bpfkit_hist_cfg *cfg,
			    const char *unit, const struct bpfkit_hist *h)
{
	int last = last_slot(h), i;
	__u64 max = 0;

	if (last < 0) {
		fprintf(f, "no events\n");
		return;
	}
	for (i = 0; i <= last; i++)
		if (h->slots[i] > max)
			max = h->slots[i];
	fprintf(f, "%*s%-*s : count    distribution\n", 5, "", 19, unit);
	for (i = 0; i <= last; i++) {
		fprintf(f, "%*llu -> %-*llu : %-8llu |", 10,
			(unsigned long long)bpfkit_hist_min(cfg, i), 10,
			(unsigned long long)bpfkit_hist_max(cfg, i),
			(unsigned long long)h->slots[i]);
		print_bar(f, h->slots[i], max);
		fprintf(f, "|\n");
	}
	fprintf(f, "count %llu avg %.3f p99 %.3f\n",
		(unsigned long long)h->count, avg(cfg, h),
		bpfkit_hist_percentile(cfg, h, 0.99));
}

/* Totals columns: their header, then one row per key. */
#define TOTALS_FMT "%14s %10s %12s\n"
#define CPU_W 4 /* the CPU column of keys per CPU (-C) */

void bpfkit_hist_print_totals(FILE *f, const struct bpfkit_hist_cfg *cfg,
			      const struct bpfkit_hist *h)
{
	fprintf(f, "%14.3f %10llu %12.3f\n", (double)h->sum_ns / cfg->unit_ns,
		(unsigned long long)h->count, avg(cfg, h));
}

void bpfkit_hist_json(struct bpfkit_json *j, const struct bpfkit_hist_cfg *cfg,
		      const char *unit, const struct bpfkit_hist *h)
{
	int last = last_slot(h), i;

	bpfkit_json_str(j, "unit", unit, strlen(unit));
	bpfkit_json_array_begin(j, "buckets");
	for (i = 0; i <= last; i++)
		fprintf(j->f, "%s{\"min\":%llu,\"max\":%llu,\"count\":%llu}",
			i ? "," : "",
			(unsigned long long)bpfkit_hist_min(cfg, i),
			(unsigned long long)bpfkit_hist_max(cfg, i),
			(unsigned long long)h->slots[i]);
	bpfkit_json_array_end(j);
	bpfkit_json_uint(j, "count", h->count);
	bpfkit_json_double(j, "sum", (double)h->sum_ns / cfg->unit_ns);
	bpfkit_json_double(j, "avg", avg(cfg, h));
	bpfkit_json_double(j, "p50", bpfkit_hist_percentile(cfg, h, 0.5));
	bpfkit_json_double(j, "p90", bpfkit_hist_percentile(cfg, h, 0.9));
	bpfkit_json_double(j, "p99", bpfkit_hist_percentile(cfg, h, 0.99));
}

static const char *task_field;

static void print_task(FILE *f, const void *key, const struct bpfkit_hist *h)
{
	fprintf(f, "%s = %u ", task_field, *(const __u32 *)key);
	bpfkit_col_escape(f, h->name, sizeof(h->name), false);
}

static void json_task(struct bpfkit_json *j, const void *key,
		      const struct bpfkit_hist *h)
{
	bpfkit_json_uint(j, task_field, *(const __u32 *)key);
	bpfkit_json_str(j, "comm", h->name, sizeof(h->name));
}

/* pid or tid and comm, as --metrics-labels asks. */
static void metric_task(const void *key, const struct bpfkit_hist *h,
			const char **labels, char *buf, size_t size)
{
	bpfkit_metrics_task_labels(labels, 0, task_field, *(const __u32 *)key,
				   h->name, buf, size);
}

/*
 * --per-container: keys are mount namespaces (bpfkit_hist_add_task()),
 * named by their container (container.c), "-" for the host.
 */
static const char *container_of_key(const void *key)
{
	struct bpfkit_record rec = { .mntns = *(const __u32 *)key };

	return bpfkit_container_label(bpfkit_container_of(&rec));
}

static void print_container(FILE *f, const void *key,
			    const struct bpfkit_hist *h)
{
	const char *label = container_of_key(key);

	fprintf(f, "container = ");
	bpfkit_col_escape(f, label, strlen(label), false);
	/* Mount namespaces of no container: told apart by their inode. */
	if (!strcmp(label, "-"))
		fprintf(f, " (mntns %u)", *(const __u32 *)key);
}

static void json_container(struct bpfkit_json *j, const void *key,
			   const struct bpfkit_hist *h)
{
	struct bpfkit_record rec = { .mntns = *(const __u32 *)key };
	const struct bpfkit_container *c = bpfkit_container_of(&rec);

	bpfkit_json_uint(j, "mntns", rec.mntns);
	if (c)
		bpfkit_json_str(j, "container_id", c->id, sizeof(c->id));
	bpfkit_json_str(j, "container", bpfkit_container_label(c),
			strlen(bpfkit_container_label(c)));
}

static void metric_container(const void *key, const struct bpfkit_hist *h,
			     const char **labels, char *buf, size_t size)
{
	snprintf(buf, size, "%s", container_of_key(key));
	labels[0] = "container";
	labels[1] = buf;
	labels[2] = NULL;
}

static int by_task(const void *a, const void *b)
{
	__u32 x = *(const __u32 *)a, y = *(const __u32 *)b;

	return x < y ? -1 : x > y;
}

/* Task keys (KEYS->tasks) as -P or -L says; one histogram leaves them. */
static void task_keys(struct bpfkit_hist_keys *keys)
{
	if (!keys->tasks || opts.by == BPFKIT_HIST_ALL)
		return;
	task_field = opts.by == BPFKIT_HIST_PROCESS ? "pid" : "tid";
	keys->key_size = sizeof(__u32);
	keys->print_key = print_task;
	keys->json_key = json_task;
	keys->compare = by_task;
	keys->metric_key = metric_task;
	if (opts.by == BPFKIT_HIST_CONTAINER) {
		keys->print_key = print_container;
		keys->json_key = json_container;
		keys->metric_key = metric_container;
	}
}

void bpfkit_hist_task_map(struct bpf_map *map)
{
	if (opts.by != BPFKIT_HIST_ALL)
		return;
	bpf_map__set_type(map, BPF_MAP_TYPE_PERCPU_ARRAY);
	bpf_map__set_max_entries(map, 1);
}

/* One key's histogram, taken from the map. */
struct entry {
	struct bpfkit_hist h;
	unsigned char key[]; /* key_size bytes */
};

struct bpfkit_hist_reader {
	int map_fd;
	struct bpfkit_hist_keys keys;
	struct bpfkit_hist_cfg cfg;
	__u64 le_ns[BPFKIT_HIST_SLOTS - 1]; /* the buckets' upper edges */
	const volatile __u64 *missed;
	__u64 missed_reported;
	__u64 events; /* values reported, over all intervals */
	unsigned int intervals;
	bool done; /* COUNT intervals reported */
	size_t entry_size;
	unsigned char *entries; /* BPFKIT_HIST_MAX_KEYS entries */
	unsigned char *next_key;
	__u32 max_keys; /* the map's size, as loaded */
	/* An array map's values as last reported, one per entry; else NULL. */
	struct bpfkit_hist *reported;
	/* A per-CPU array's value: one histogram per possible CPU; else NULL. */
	struct bpfkit_hist *cpus;
	int ncpus;
};

/*
 * The map's size, for reports of it being full; if it is an array, whose
 * entries cannot be deleted, the space to keep what was reported of each;
 * if a per-CPU array, the space to read each CPU's histograms.
 */
static int map_shape(struct bpfkit_hist_reader *r)
{
	struct bpf_map_info info = {};
	__u32 len = sizeof(info);
	int err;

	err = bpf_obj_get_info_by_fd(r->map_fd, &info, &len);
	if (err) {
		err = -errno;
		bpfkit_fail("read the histogram map's type", err);
		return err;
	}
	r->max_keys = info.max_entries;
	if (info.type == BPF_MAP_TYPE_PERCPU_ARRAY) {
		r->ncpus = libbpf_num_possible_cpus();
		if (r->ncpus < 0) {
			bpfkit_fail("count the possible CPUs", r->ncpus);
			return r->ncpus;
		}
		r->cpus = calloc(r->ncpus, sizeof(*r->cpus));
		if (!r->cpus)
			goto nomem;
	} else if (info.type != BPF_MAP_TYPE_ARRAY) {
		return 0;
	}
	r->reported = calloc(info.max_entries, sizeof(*r->reported));
	if (!r->reported)
		goto nomem;
	return 0;

nomem:
	bpfkit_fail("allocate the histograms", -ENOMEM);
	return -ENOMEM;
}

static int fill_metrics(struct bpfkit_metrics *m, void *ctx);

int bpfkit_hist_open(struct bpfkit_hist_reader **rp, int map_fd,
		     const struct bpfkit_hist_keys *keys,
		     const volatile __u64 *missed)
{
	struct bpfkit_hist_reader *r = calloc(1, sizeof(*r));
	int err, i;

	*rp = NULL;
	if (!r)
		goto nomem;
	r->map_fd = map_fd;
	r->keys = *keys;
	task_keys(&r->keys);
	r->cfg = current_cfg();
	for (i = 0; i < BPFKIT_HIST_SLOTS - 1; i++)
		r->le_ns[i] =
			(bpfkit_hist_max(&r->cfg, i) + 1) * r->cfg.unit_ns;
	r->missed = missed;
	/* Keep every entry's histogram 8-byte aligned. */
	r->entry_size = (sizeof(struct entry) + r->keys.key_size + 7) & ~7UL;
	r->entries = calloc(BPFKIT_HIST_MAX_KEYS, r->entry_size);
	r->next_key = calloc(1, r->keys.key_size);
	if (!r->entries || !r->next_key) {
		bpfkit_hist_free(r);
		goto nomem;
	}
	err = map_shape(r);
	if (err) {
		bpfkit_hist_free(r);
		return err;
	}
	if (keys->metric)
		bpfkit_metrics_source(fill_metrics, r);
	*rp = r;
	return 0;

nomem:
	bpfkit_fail("allocate the histograms", -ENOMEM);
	return -ENOMEM;
}

void bpfkit_hist_free(struct bpfkit_hist_reader *r)
{
	if (!r)
		return;
	free(r->entries);
	free(r->next_key);
	free(r->reported);
	free(r->cpus);
	free(r);
}

static struct entry *entry_at(struct bpfkit_hist_reader *r, int i)
{
	return (struct entry *)(r->entries + i * r->entry_size);
}

/*
 * An array entry's histogram NOW, less what was reported of it (REPORTED),
 * which becomes NOW: values added while we read show in the next interval.
 */
static void take_new(struct bpfkit_hist *now, struct bpfkit_hist *reported)
{
	struct bpfkit_hist total = *now;
	int i;

	for (i = 0; i < BPFKIT_HIST_SLOTS; i++)
		now->slots[i] -= reported->slots[i];
	now->count -= reported->count;
	now->sum_ns -= reported->sum_ns;
	*reported = total;
}

/* Array entry KEY into H: with a per-CPU array, all CPUs' sum. */
static int read_array(struct bpfkit_hist_reader *r, const void *key,
		      struct bpfkit_hist *h)
{
	int cpu, i;

	if (!r->cpus)
		return bpf_map_lookup_elem(r->map_fd, key, h);
	if (bpf_map_lookup_elem(r->map_fd, key, r->cpus))
		return -1;
	*h = r->cpus[0];
	for (cpu = 1; cpu < r->ncpus; cpu++) {
		for (i = 0; i < BPFKIT_HIST_SLOTS; i++)
			h->slots[i] += r->cpus[cpu].slots[i];
		h->count += r->cpus[cpu].count;
		h->sum_ns += r->cpus[cpu].sum_ns;
	}
	return 0;
}

/* Take each key's histogram out of the map (a copy with --cumulative). */
static int take_all(struct bpfkit_hist_reader *r)
{
	size_t ksize = r->keys.key_size;
	void *prev = NULL;
	struct entry *e;
	int n = 0, i, kept = 0;

	while (n < BPFKIT_HIST_MAX_KEYS &&
	       !bpf_map_get_next_key(r->map_fd, prev, r->next_key)) {
		e = entry_at(r, n++);
		memcpy(e->key, r->next_key, ksize);
		prev = e->key;
	}
	for (i = 0; i < n; i++) {
		e = entry_at(r, i);
		if (r->reported) {
			/* Array entry I (key I): what it gained since. */
			if (read_array(r, e->key, &e->h))
				continue;
			if (!opts.cumulative)
				take_new(&e->h, &r->reported[i]);
		} else if (opts.cumulative) {
			if (bpf_map_lookup_elem(r->map_fd, e->key, &e->h))
				continue;
		} else if (bpf_map_lookup_and_delete_elem(r->map_fd, e->key,
							  &e->h)) {
			/* Hash maps before Linux 5.14 cannot do both at once. */
			if (bpf_map_lookup_elem(r->map_fd, e->key, &e->h))
				continue;
			bpf_map_delete_elem(r->map_fd, e->key);
		}
		if (!e->h.count)
			continue;
		if (kept != i)
			memcpy(entry_at(r, kept), e, r->entry_size);
		kept++;
	}
	return kept;
}

/* KEY's CPU with -C (keys->cpus); BPFKIT_HIST_ANY_CPU otherwise. */
static __u32 key_cpu(const struct bpfkit_hist_keys *keys, const void *key)
{
	__u32 cpu = BPFKIT_HIST_ANY_CPU;

	if (keys->cpus)
		memcpy(&cpu, (const char *)key + keys->cpu_offset, sizeof(cpu));
	return cpu;
}

/* The keys of the report being sorted. */
static const struct bpfkit_hist_keys *sort_keys;

static int by_entry(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;
	__u32 xcpu, ycpu;
	int c;

	if (!sort_keys->compare) {
		if (x->h.count != y->h.count)
			return x->h.count < y->h.count ? 1 : -1;
		return 0;
	}
	c = sort_keys->compare(x->key, y->key);
	if (c)
		return c;
	xcpu = key_cpu(sort_keys, x->key);
	ycpu = key_cpu(sort_keys, y->key);
	return xcpu < ycpu ? -1 : xcpu > ycpu;
}

static void print_json(struct bpfkit_hist_reader *r, const struct entry *e)
{
	static const struct bpfkit_hist empty;
	struct bpfkit_json j;

	bpfkit_json_begin(&j, stdout, NULL);
	bpfkit_json_uint(&j, "interval", r->intervals);
	if (e && r->keys.json_key)
		r->keys.json_key(&j, e->key, &e->h);
	if (e && key_cpu(&r->keys, e->key) != BPFKIT_HIST_ANY_CPU)
		bpfkit_json_uint(&j, "cpu", key_cpu(&r->keys, e->key));
	bpfkit_hist_json(&j, &r->cfg, bpfkit_hist_unit(), e ? &e->h : &empty);
	bpfkit_json_end(&j);
}

static void print_text(struct bpfkit_hist_reader *r, const struct entry *e,
		       bool first)
{
	__u32 cpu = key_cpu(&r->keys, e->key);
	char total[32];

	if (r->keys.totals_header && !opts.dist) {
		if (first) {
			snprintf(total, sizeof(total), "TOTAL_%s",
				 bpfkit_hist_unit());
			printf("%s", r->keys.totals_header);
			if (r->keys.cpus && opts.per_cpu)
				printf("%-*s ", CPU_W, "CPU");
			printf(TOTALS_FMT, total, "COUNT", "AVG");
		}
		r->keys.print_row(stdout, e->key, &e->h);
		if (cpu != BPFKIT_HIST_ANY_CPU)
			printf("%-*u ", CPU_W, cpu);
		bpfkit_hist_print_totals(stdout, &r->cfg, &e->h);
		return;
	}
	if (!first)
		printf("\n");
	if (r->keys.print_key) {
		r->keys.print_key(stdout, e->key, &e->h);
		if (cpu != BPFKIT_HIST_ANY_CPU)
			printf(" cpu = %u", cpu);
		printf("\n");
	}
	bpfkit_hist_print_text(stdout, &r->cfg, bpfkit_hist_unit(), &e->h);
}

/*
 * Values that found the map full, or whose start found no room, since the
 * last report, like lost events.
 */
static void report_missed(struct bpfkit_hist_reader *r)
{
	__u64 total = *r->missed, missed = total - r->missed_reported;
	struct bpfkit_json j;

	if (!missed)
		return;
	r->missed_reported = total;
	if (bpfkit_output_json()) {
		bpfkit_json_begin_type(&j, stdout, "lost");
		bpfkit_json_uint(&j, "lost", missed);
		bpfkit_json_uint(&j, "total", total);
		bpfkit_json_end(&j);
	}
	bpfkit_error(
		"lost %llu events (%llu in total): the histogram map (%u key%s) or a start-time map is full; use narrower filters or fewer keys",
		(unsigned long long)missed, (unsigned long long)total,
		r->max_keys, r->max_keys == 1 ? "" : "s");
}

static void print_time(void)
{
	char buf[16];
	time_t t = time(NULL);

	strftime(buf, sizeof(buf), "%H:%M:%S", localtime(&t));
	printf("%s\n", buf);
}

int bpfkit_hist_report(struct bpfkit_hist_reader *r)
{
	__u64 events = 0;
	int n, i;

	n = take_all(r);
	sort_keys = &r->keys;
	if (n)
		qsort(r->entries, n, r->entry_size, by_entry);
	r->intervals++;
	if (!bpfkit_output_json()) {
		if (r->intervals > 1)
			printf("\n");
		if (opts.timestamp)
			print_time();
		if (!n)
			printf("no events\n");
	} else if (!n) {
		print_json(r, NULL);
	}
	for (i = 0; i < n; i++) {
		const struct entry *e = entry_at(r, i);

		if (bpfkit_output_json())
			print_json(r, e);
		else
			print_text(r, e, !i);
		events += e->h.count;
	}
	/* Cumulative counts include the earlier intervals' values. */
	r->events = opts.cumulative ? events : r->events + events;
	report_missed(r);
	return bpfkit_output_flush();
}

/* A scrape: every key's histogram, as its series of the tool's metric. */
static int fill_metrics(struct bpfkit_metrics *m, void *ctx)
{
	struct bpfkit_hist_reader *r = ctx;
	const char *labels[17] = { NULL };
	char buf[256], cpu[16];
	int n, i, l, err;

	err = bpfkit_metrics_family(m, r->keys.metric, BPFKIT_HISTOGRAM,
				    r->keys.metric_help);
	if (!err && opts.sizes)
		bpfkit_metrics_bytes(m);
	n = take_all(r);
	for (i = 0; i < n && !err; i++) {
		struct entry *e = entry_at(r, i);

		/* The kernel does not end a full-length name. */
		e->h.name[sizeof(e->h.name) - 1] = '\0';
		labels[0] = NULL;
		if (r->keys.metric_key)
			r->keys.metric_key(e->key, &e->h, labels, buf,
					   sizeof(buf));
		if (key_cpu(&r->keys, e->key) != BPFKIT_HIST_ANY_CPU) {
			for (l = 0; labels[l]; l += 2)
				;
			snprintf(cpu, sizeof(cpu), "%u",
				 key_cpu(&r->keys, e->key));
			labels[l] = "cpu";
			labels[l + 1] = cpu;
			labels[l + 2] = NULL;
		}
		err = bpfkit_metrics_add_hist(m, labels, r->le_ns, &e->h);
	}
	return err;
}

static int tick(void *ctx)
{
	struct bpfkit_hist_reader *r = ctx;
	int ret = bpfkit_hist_report(r);

	/* A failed or closed stdout ends the run too. */
	if (ret)
		return ret;
	r->done = opts.count && r->intervals >= opts.count;
	return r->done;
}

struct bpfkit_tick bpfkit_hist_tick(struct bpfkit_hist_reader *r)
{
	return (struct bpfkit_tick){ .interval_ms = opts.interval * 1000,
				     .fn = tick,
				     .ctx = r };
}

int bpfkit_hist_end(struct bpfkit_hist_reader *r, int err)
{
	/* As event tools do, stop quietly once the reader has gone. */
	int ret = bpfkit_check_stdout();

	if (ret)
		return ret < 0 ? ret : 0;
	if (!err && !r->done) {
		ret = bpfkit_hist_report(r);
		if (ret)
			return ret < 0 ? ret : 0;
	}
	/* Losses were reported as they happened; sum them up too. */
	if (*r->missed)
		bpfkit_error("%llu events, %llu lost",
			     (unsigned long long)r->events,
			     (unsigned long long)*r->missed);
	return err;
}
