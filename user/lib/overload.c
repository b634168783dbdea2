// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Overload control, user side: options, the BPF side's settings, the
 * reports of who was throttled and --max-cpu's budget.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <bpf/bpf.h>
#include "diag.h"
#include "output.h"
#include "overload.h"

#define REPORT_NS 1000000000ULL /* a report and a --max-cpu step a second */
#define TOP_KEYS 3 /* keys a report names */
#define LOWER_FACTOR 0.9 /* aim this far below the limit */
#define RAISE_BELOW 0.7 /* raise the budget under this share of the limit */

struct bpfkit_overload {
	struct bpfkit_overload_opts opts;
	struct bpf_object_skeleton *skel;
	volatile __u64 *rate; /* the BPF side's bpfkit_overload_rate */
	int buckets_fd;
	int budget_fd; /* bpfkit_budget: each CPU's tally not yet in buckets */
	int ncpus; /* possible CPUs: bpfkit_budget's values */
	int stats_fd; /* BPF_ENABLE_STATS, held while the tool runs */
	__u64 next_ns, last_ns;
	__u64 produced, throttled, sent; /* at the last tick */
	__u64 cpu_ns; /* programs' run time and the process's CPU, then */
	struct bpfkit_key_drops *prev; /* the buckets at the last report */
	size_t nprev;
	double percent, peak; /* the tool's CPU, last second and most */
	__u64 lowest; /* the lowest budget --max-cpu set; 0: never lowered */
	unsigned int seconds_over; /* seconds above --max-cpu */
	unsigned int measured; /* seconds measured */
};

static __u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

bool bpfkit_overload_on(const struct bpfkit_overload_opts *opts)
{
	return opts->rate || opts->sample || opts->max_cpu;
}

int bpfkit_parse_rate_by(const char *arg, enum bpfkit_limit_by *by)
{
	if (!strcmp(arg, "pid"))
		*by = BPFKIT_LIMIT_BY_PID;
	else if (!strcmp(arg, "cgroup"))
		*by = BPFKIT_LIMIT_BY_CGROUP;
	else if (!strcmp(arg, "comm"))
		*by = BPFKIT_LIMIT_BY_COMM;
	else
		return bpfkit_usage_error(
			"invalid --rate-limit-by '%s': expected pid, cgroup or comm",
			arg);
	return 0;
}

int bpfkit_overload_check(const struct bpfkit_overload_opts *opts)
{
	if (opts->by && !opts->rate)
		return bpfkit_usage_error(
			"--rate-limit-by goes with --rate-limit N; give the limit too");
	if (opts->sample_random && !opts->sample)
		return bpfkit_usage_error(
			"--sample-random goes with --sample N; give the sampling rate too");
	return 0;
}

int bpfkit_overload_prepare(struct bpfkit_overload_cfg *cfg, __u64 *rate,
			    struct bpf_map *buckets,
			    const struct bpfkit_overload_opts *opts)
{
	long ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	int err = 0;

	if (!cfg || !rate || !buckets) {
		if (!bpfkit_overload_on(opts))
			return 0;
		bpfkit_error(
			"this tool's BPF object has no overload control: include bpfkit/channel.bpf.h in it");
		return -EINVAL;
	}
	cfg->by = opts->by;
	cfg->key_rate = opts->by ? opts->rate : 0;
	cfg->sample = opts->sample;
	cfg->sample_random = opts->sample_random;
	cfg->ncpus = ncpus > 0 ? ncpus : 1;
	if (getrandom(&cfg->seed, sizeof(cfg->seed), 0) != sizeof(cfg->seed))
		cfg->seed = now_ns() ^ getpid();
	*rate = opts->by ? 0 : opts->rate;
	/* No limit, no buckets: a few entries, for the verifier. */
	if (!opts->rate && !opts->max_cpu)
		err = bpf_map__set_max_entries(buckets,
					       libbpf_num_possible_cpus());
	if (err)
		bpfkit_fail("size the rate limit's buckets", err);
	return err;
}

/* The programs' run time (BPF_ENABLE_STATS) and the process's CPU, in ns. */
static __u64 tool_cpu_ns(const struct bpfkit_overload *ov)
{
	struct bpf_prog_info info;
	struct rusage ru;
	__u64 ns = 0;
	__u32 len;
	int i, fd;

	for (i = 0; i < ov->skel->prog_cnt; i++) {
		memset(&info, 0, sizeof(info));
		len = sizeof(info);
		fd = bpf_program__fd(*ov->skel->progs[i].prog);
		if (fd >= 0 && !bpf_obj_get_info_by_fd(fd, &info, &len))
			ns += info.run_time_ns;
	}
	if (!getrusage(RUSAGE_SELF, &ru))
		ns += (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) *
			      1000000000ULL +
		      (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000ULL;
	return ns;
}

struct bpfkit_overload *
bpfkit_overload_open(struct bpf_object_skeleton *s, volatile __u64 *rate,
		     const struct bpfkit_overload_opts *opts)
{
	struct bpfkit_overload *ov = calloc(1, sizeof(*ov));
	struct bpf_map *buckets, *budget;

	if (!ov)
		return NULL;
	ov->opts = *opts;
	ov->skel = s;
	ov->stats_fd = -1;
	ov->buckets_fd = -1;
	if (!bpfkit_overload_on(opts))
		return ov;
	ov->rate = rate;
	buckets = bpf_object__find_map_by_name(*s->obj, "bpfkit_buckets");
	if (!ov->rate || !buckets) {
		bpfkit_overload_free(ov);
		errno = ENOENT;
		return NULL;
	}
	ov->buckets_fd = bpf_map__fd(buckets);
	budget = bpf_object__find_map_by_name(*s->obj, "bpfkit_budget");
	ov->budget_fd = budget ? bpf_map__fd(budget) : -1;
	ov->ncpus = libbpf_num_possible_cpus();
	if (opts->max_cpu) {
		/* Run-time stats for as long as the fd is open (Linux 5.8). */
		ov->stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
		if (ov->stats_fd < 0) {
			bpfkit_error(
				"--max-cpu cannot measure the BPF programs' run time: %s (it needs Linux 5.8 or later); run without --max-cpu",
				strerror(errno));
			bpfkit_overload_free(ov);
			errno = EOPNOTSUPP;
			return NULL;
		}
		ov->cpu_ns = tool_cpu_ns(ov);
	}
	ov->last_ns = now_ns();
	ov->next_ns = ov->last_ns + REPORT_NS;
	return ov;
}

static int cmp_key(const void *a, const void *b)
{
	return memcmp(&((const struct bpfkit_key_drops *)a)->key,
		      &((const struct bpfkit_key_drops *)b)->key,
		      sizeof(struct bpfkit_limit_key));
}

void bpfkit_sort_drops(struct bpfkit_key_drops *d, size_t n)
{
	/* qsort()'s base must not be null, even for no element. */
	if (n > 1)
		qsort(d, n, sizeof(*d), cmp_key);
}

size_t bpfkit_top_drops(const struct bpfkit_key_drops *prev, size_t nprev,
			const struct bpfkit_key_drops *cur, size_t ncur,
			struct bpfkit_key_drops *top, size_t ntop)
{
	const struct bpfkit_key_drops *was;
	struct bpfkit_key_drops d;
	size_t i, j, n = 0;

	for (i = 0; i < ncur && ntop; i++) {
		d = cur[i];
		was = nprev ? bsearch(&cur[i], prev, nprev, sizeof(*prev),
				      cmp_key) :
			      NULL;
		/* An LRU bucket forgotten and made again starts over. */
		if (was && was->drops <= d.drops)
			d.drops -= was->drops;
		if (!d.drops)
			continue;
		/* Insert in place, most first, keeping NTOP at most. */
		for (j = n; j > 0 && top[j - 1].drops < d.drops; j--)
			if (j < ntop)
				top[j] = top[j - 1];
		if (j < ntop) {
			top[j] = d;
			if (n < ntop)
				n++;
		}
	}
	return n;
}

/* Append one to D of *N (room for *CAP), growing it; false: no memory. */
static bool add_drops(struct bpfkit_key_drops **d, size_t *n, size_t *cap,
		      const struct bpfkit_key_drops *one)
{
	struct bpfkit_key_drops *more;

	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 64;
		more = realloc(*d, *cap * sizeof(*more));
		if (!more)
			return false;
		*d = more;
	}
	(*d)[(*n)++] = *one;
	return true;
}

/*
 * Add each CPU's tally of the last process the global limit throttled
 * there (bpfkit_budget) to D, of *N sorted, which stays sorted.
 */
static struct bpfkit_key_drops *add_budgets(const struct bpfkit_overload *ov,
					    struct bpfkit_key_drops *d,
					    size_t *n)
{
	struct bpfkit_budget *per = calloc(ov->ncpus, sizeof(*per));
	struct bpfkit_key_drops one, *at;
	size_t cap = *n;
	__u32 zero = 0;
	int i;

	if (!per || ov->budget_fd < 0 ||
	    bpf_map_lookup_elem(ov->budget_fd, &zero, per)) {
		free(per);
		return d;
	}
	for (i = 0; i < ov->ncpus; i++) {
		if (!per[i].drops)
			continue;
		memset(&one, 0, sizeof(one));
		one.key.id = per[i].pid;
		one.pid = per[i].pid;
		one.drops = per[i].drops;
		memcpy(one.comm, per[i].comm, sizeof(one.comm));
		at = *n ? bsearch(&one, d, *n, sizeof(*d), cmp_key) : NULL;
		if (at) {
			/* Named as it was when throttled, not when first seen. */
			at->drops += one.drops;
			memcpy(at->comm, one.comm, sizeof(at->comm));
		} else if (add_drops(&d, n, &cap, &one))
			bpfkit_sort_drops(d, *n);
	}
	free(per);
	return d;
}

/* Every bucket now, sorted; NULL (*N 0) when none or out of memory. */
static struct bpfkit_key_drops *read_buckets(int fd, size_t *n)
{
	struct bpfkit_limit_key key, next;
	struct bpfkit_key_drops *d = NULL, one;
	struct bpfkit_bucket b;
	size_t cap = 0;
	void *at = NULL;

	*n = 0;
	while (!bpf_map_get_next_key(fd, at, &next)) {
		key = next;
		at = &key;
		if (bpf_map_lookup_elem(fd, &key, &b))
			continue;
		one.key = key;
		one.drops = b.drops;
		one.pid = b.pid;
		memcpy(one.comm, b.comm, sizeof(b.comm));
		if (!add_drops(&d, n, &cap, &one))
			break;
	}
	bpfkit_sort_drops(d, *n);
	return d;
}

/* Name KEY as --rate-limit-by keyed it, for the text report. */
static int key_text(char *buf, size_t size, enum bpfkit_limit_by by,
		    const struct bpfkit_key_drops *d)
{
	switch (by) {
	case BPFKIT_LIMIT_BY_CGROUP:
		return snprintf(buf, size, "cgroup %llu (pid %u %.16s)",
				(unsigned long long)d->key.id, d->pid, d->comm);
	case BPFKIT_LIMIT_BY_COMM:
		return snprintf(buf, size, "comm %.16s (pid %u)", d->key.comm,
				d->pid);
	default:
		return snprintf(buf, size, "pid %u (%.16s)", d->pid, d->comm);
	}
}

/* Who was throttled since the last report: NEW of TOTAL events. */
static void report_throttled(struct bpfkit_overload *ov, __u64 new, __u64 total)
{
	struct bpfkit_key_drops top[TOP_KEYS], *cur;
	struct bpfkit_json j;
	char line[512];
	size_t i, n, ncur, len;

	cur = read_buckets(ov->buckets_fd, &ncur);
	if (ov->opts.by == BPFKIT_LIMIT_BY_NONE)
		cur = add_budgets(ov, cur, &ncur);
	n = bpfkit_top_drops(ov->prev, ov->nprev, cur, ncur, top, TOP_KEYS);
	free(ov->prev);
	ov->prev = cur;
	ov->nprev = ncur;
	if (bpfkit_output_json()) {
		bpfkit_json_begin_type(&j, stdout, "throttled");
		bpfkit_json_uint(&j, "throttled", new);
		bpfkit_json_uint(&j, "total", total);
		if (ov->opts.max_cpu)
			bpfkit_json_double(&j, "cpu_percent", ov->percent);
		bpfkit_json_array_begin(&j, "top");
		for (i = 0; i < n; i++) {
			bpfkit_json_object_begin(&j, NULL);
			if (ov->opts.by == BPFKIT_LIMIT_BY_CGROUP)
				bpfkit_json_uint(&j, "cgroup_id",
						 top[i].key.id);
			bpfkit_json_uint(&j, "pid", top[i].pid);
			bpfkit_json_str(&j, "comm", top[i].comm,
					sizeof(top[i].comm));
			bpfkit_json_uint(&j, "throttled", top[i].drops);
			bpfkit_json_object_end(&j);
		}
		bpfkit_json_array_end(&j);
		bpfkit_json_end(&j);
		return;
	}
	len = snprintf(line, sizeof(line),
		       "throttled %llu events (%llu in total)",
		       (unsigned long long)new, (unsigned long long)total);
	for (i = 0; i < n && len < sizeof(line); i++) {
		len += snprintf(line + len, sizeof(line) - len, "%s",
				i ? ", " : ": most from ");
		if (len < sizeof(line))
			len += key_text(line + len, sizeof(line) - len,
					ov->opts.by, &top[i]);
		if (len < sizeof(line))
			len += snprintf(line + len, sizeof(line) - len, " %llu",
					(unsigned long long)top[i].drops);
	}
	bpfkit_error("%s", line);
}

__u64 bpfkit_cpu_rate(__u64 rate, __u64 user_rate, __u64 produced, __u64 sent,
		      double percent, double max_percent)
{
	double base, want;

	if (percent > max_percent) {
		base = rate && rate < sent ? rate : sent;
		want = base * max_percent / percent * LOWER_FACTOR;
		return want >= 1 ? (__u64)want : 1;
	}
	if (!rate || percent >= max_percent * RAISE_BELOW)
		return rate;
	want = rate + rate / 4 + 1;
	if (user_rate && want >= user_rate)
		return user_rate;
	if (!user_rate && want >= produced)
		return 0;
	return want;
}

/* --max-cpu's step: measure the last DT_NS, move the budget. */
static void limit_cpu(struct bpfkit_overload *ov, __u64 dt_ns, __u64 produced,
		      __u64 sent)
{
	__u64 cpu = tool_cpu_ns(ov), rate = *ov->rate, want;
	__u64 user_rate = ov->opts.by ? 0 : ov->opts.rate;

	ov->percent = dt_ns ? (cpu - ov->cpu_ns) * 100.0 / dt_ns : 0;
	ov->cpu_ns = cpu;
	/* The first second holds the tool's own start (attaching): no step. */
	if (!ov->measured++)
		return;
	if (ov->percent > ov->peak)
		ov->peak = ov->percent;
	if (ov->percent > ov->opts.max_cpu)
		ov->seconds_over++;
	want = bpfkit_cpu_rate(rate, user_rate, produced, sent, ov->percent,
			       ov->opts.max_cpu);
	if (want == rate)
		return;
	*ov->rate = want;
	if (want && (!rate || want < rate) &&
	    (!user_rate || want < user_rate)) {
		if (!ov->lowest)
			bpfkit_error(
				"using %.1f%% of a CPU, above --max-cpu %lu: lowering the event budget to %llu events/s while above it",
				ov->percent, ov->opts.max_cpu,
				(unsigned long long)want);
		if (!ov->lowest || want < ov->lowest)
			ov->lowest = want;
	}
}

bool bpfkit_overload_due(const struct bpfkit_overload *ov)
{
	return ov && bpfkit_overload_on(&ov->opts) && now_ns() >= ov->next_ns;
}

void bpfkit_overload_tick(struct bpfkit_overload *ov, __u64 produced,
			  __u64 throttled, __u64 sampled, bool final)
{
	__u64 now = now_ns(), sent = 0;

	if (!ov || !bpfkit_overload_on(&ov->opts) ||
	    (now < ov->next_ns && !final))
		return;
	/* The per-CPU counts are read apart: never below zero. */
	if (produced > throttled + sampled)
		sent = produced - throttled - sampled;
	if (ov->opts.max_cpu && !final)
		limit_cpu(ov, now - ov->last_ns, produced - ov->produced,
			  sent - ov->sent);
	if (throttled > ov->throttled)
		report_throttled(ov, throttled - ov->throttled, throttled);
	ov->produced = produced;
	ov->throttled = throttled;
	ov->sent = sent;
	ov->last_ns = now;
	ov->next_ns = now + REPORT_NS;
}

void bpfkit_overload_summary_text(const struct bpfkit_overload *ov)
{
	if (!ov || !ov->opts.max_cpu)
		return;
	if (ov->lowest)
		bpfkit_error(
			"--max-cpu %lu: throttled by it (the tool used up to %.1f%% of a CPU, above the limit for %u s; the event budget went down to %llu events/s)",
			ov->opts.max_cpu, ov->peak, ov->seconds_over,
			(unsigned long long)ov->lowest);
	else
		bpfkit_error(
			"--max-cpu %lu: not needed (the tool used up to %.1f%% of a CPU)",
			ov->opts.max_cpu, ov->peak);
}

void bpfkit_overload_summary_json(const struct bpfkit_overload *ov,
				  struct bpfkit_json *j)
{
	if (!ov || !ov->opts.max_cpu)
		return;
	bpfkit_json_uint(j, "max_cpu", ov->opts.max_cpu);
	bpfkit_json_bool(j, "max_cpu_throttled", ov->lowest != 0);
	bpfkit_json_double(j, "cpu_percent_peak", ov->peak);
	bpfkit_json_uint(j, "max_cpu_lowest_rate", ov->lowest);
}

void bpfkit_overload_free(struct bpfkit_overload *ov)
{
	if (!ov)
		return;
	if (ov->stats_fd >= 0)
		close(ov->stats_fd);
	free(ov->prev);
	free(ov);
}
