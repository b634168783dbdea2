// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Prometheus metrics: the registry, the text format 0.0.4, the strict
 * GET-only HTTP responder the run loop polls, and the textfile writer.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <bpf/bpf.h>
#include "channel.h"
#include "diag.h"
#include "metrics.h"
#include "output.h"
#include "run.h"

#ifndef BPFKIT_VERSION
#define BPFKIT_VERSION "unknown"
#endif

#define MAX_CONNS 16 /* connections at once; the oldest gives way */
#define REQUEST_MAX 8192 /* request line and headers, bytes */
#define CONN_TIMEOUT_MS 5000 /* a connection's whole life */
#define SWEEP_MS 1000 /* how often connections past it are closed */
#define TEXTFILE_MS 10000 /* --textfile without an interval */
#define MAX_LABELS 8 /* label pairs per series */

static struct bpfkit_metrics_opts opts;
static struct timespec start_time;

void bpfkit_metrics_init(const struct bpfkit_metrics_opts *o)
{
	opts = *o;
	clock_gettime(CLOCK_REALTIME, &start_time);
}

bool bpfkit_metrics_enabled(void)
{
	return opts.listen || opts.textfile_dir;
}

bool bpfkit_metrics_quiet(void)
{
	return bpfkit_metrics_enabled() && !opts.print;
}

bool bpfkit_metrics_label(unsigned int label)
{
	return opts.labels & label;
}

void bpfkit_metrics_task_labels(const char **labels, int k,
				const char *id_label, unsigned int id,
				const char *comm, char *buf, size_t size)
{
	if (bpfkit_metrics_label(BPFKIT_LABEL_PID)) {
		snprintf(buf, size, "%u", id);
		labels[k++] = id_label;
		labels[k++] = buf;
	}
	if (bpfkit_metrics_label(BPFKIT_LABEL_COMM)) {
		labels[k++] = "comm";
		labels[k++] = comm;
	}
	labels[k] = NULL;
}

/* --- the registry --- */

struct series {
	char *labels; /* escaped: a="x",b="y"; "" for none */
	double value; /* counter or gauge */
	__u64 slots[BPFKIT_HIST_SLOTS]; /* histogram: per bucket */
	__u64 sum_ns; /* histogram: sum */
};

struct family {
	char *name;
	const char *help;
	enum bpfkit_metric_type type;
	__u64 le_ns[BPFKIT_HIST_SLOTS - 1]; /* histogram: its buckets' edges */
	bool bytes; /* histogram: edges and sums in bytes, not nanoseconds */
	char *other; /* the labels of the "other" series */
	struct series *series;
	size_t n, cap;
	size_t folded; /* series folded into "other" at the last write */
};

struct bpfkit_metrics {
	unsigned long max_series;
	struct family *families;
	size_t n, cap;
};

struct bpfkit_metrics *bpfkit_metrics_new(unsigned long max_series)
{
	struct bpfkit_metrics *m = calloc(1, sizeof(*m));

	if (m)
		m->max_series = max_series;
	return m;
}

void bpfkit_metrics_free(struct bpfkit_metrics *m)
{
	size_t i, j;

	if (!m)
		return;
	for (i = 0; i < m->n; i++) {
		struct family *f = &m->families[i];

		for (j = 0; j < f->n; j++)
			free(f->series[j].labels);
		free(f->series);
		free(f->name);
		free(f->other);
	}
	free(m->families);
	free(m);
}

static void *grow(void *p, size_t *cap, size_t n, size_t size)
{
	size_t c = *cap ? *cap * 2 : 16;

	if (n < *cap)
		return p;
	p = reallocarray(p, c, size);
	if (p)
		*cap = c;
	return p;
}

int bpfkit_metrics_family(struct bpfkit_metrics *m, const char *name,
			  enum bpfkit_metric_type type, const char *help)
{
	struct family *fams = grow(m->families, &m->cap, m->n, sizeof(*fams));
	struct family *f;

	if (!fams)
		return -ENOMEM;
	m->families = fams;
	f = &fams[m->n];
	memset(f, 0, sizeof(*f));
	f->name = strdup(name);
	if (!f->name)
		return -ENOMEM;
	f->help = help;
	f->type = type;
	m->n++;
	return 0;
}

/*
 * A label value as the format wants it: backslash, quote and newline
 * escaped, valid UTF-8 kept, other control bytes and invalid UTF-8 as
 * U+FFFD (a scraper refuses invalid UTF-8 and other escapes).
 */
static void escape_value(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t len = strlen(str), i = 0, n;
	unsigned int cp;

	while (i < len) {
		unsigned char c = s[i];

		if (c == '\\' || c == '"') {
			fputc('\\', f);
			fputc(c, f);
		} else if (c == '\n') {
			fputs("\\n", f);
		} else if (c >= 0x20 && c < 0x7f) {
			fputc(c, f);
		} else if (c >= 0x80 &&
			   (n = bpfkit_utf8_len(s + i, len - i, &cp))) {
			fwrite(s + i, 1, n, f);
			i += n;
			continue;
		} else {
			fputs("\xef\xbf\xbd", f);
		}
		i++;
	}
}

/* LABELS as name="value" pairs; with OTHER every value is "other". */
static char *format_labels(const char *const *labels, bool other)
{
	char *out = NULL;
	size_t size, i;
	FILE *f = open_memstream(&out, &size);

	if (!f)
		return NULL;
	for (i = 0; labels && labels[i] && labels[i + 1] && i < 2 * MAX_LABELS;
	     i += 2) {
		fprintf(f, "%s%s=\"", i ? "," : "", labels[i]);
		escape_value(f, other ? "other" : labels[i + 1]);
		fputc('"', f);
	}
	if (fclose(f)) {
		free(out);
		return NULL;
	}
	return out;
}

static struct series *new_series(struct bpfkit_metrics *m,
				 const char *const *labels)
{
	struct family *f = m->n ? &m->families[m->n - 1] : NULL;
	struct series *s;

	if (!f)
		return NULL;
	s = grow(f->series, &f->cap, f->n, sizeof(*s));
	if (!s)
		return NULL;
	f->series = s;
	s = &s[f->n];
	memset(s, 0, sizeof(*s));
	s->labels = format_labels(labels, false);
	if (!f->other)
		f->other = format_labels(labels, true);
	if (!s->labels || !f->other) {
		free(s->labels);
		return NULL;
	}
	f->n++;
	return s;
}

int bpfkit_metrics_add(struct bpfkit_metrics *m, const char *const *labels,
		       double value)
{
	struct series *s = new_series(m, labels);

	if (!s)
		return -ENOMEM;
	s->value = value;
	return 0;
}

int bpfkit_metrics_add_hist(struct bpfkit_metrics *m, const char *const *labels,
			    const __u64 *le_ns, const struct bpfkit_hist *h)
{
	struct series *s = new_series(m, labels);

	if (!s)
		return -ENOMEM;
	memcpy(m->families[m->n - 1].le_ns, le_ns,
	       sizeof(m->families[0].le_ns));
	memcpy(s->slots, h->slots, sizeof(s->slots));
	s->sum_ns = h->sum_ns;
	return 0;
}

void bpfkit_metrics_bytes(struct bpfkit_metrics *m)
{
	m->families[m->n - 1].bytes = true;
}

static __u64 hist_count(const struct series *s)
{
	__u64 n = 0;
	int i;

	for (i = 0; i < BPFKIT_HIST_SLOTS; i++)
		n += s->slots[i];
	return n;
}

static double weight(const struct family *f, const struct series *s)
{
	return f->type == BPFKIT_HISTOGRAM ? hist_count(s) : s->value;
}

/* Add FROM's values into TO. */
static void merge(struct series *to, const struct series *from)
{
	int i;

	to->value += from->value;
	to->sum_ns += from->sum_ns;
	for (i = 0; i < BPFKIT_HIST_SLOTS; i++)
		to->slots[i] += from->slots[i];
}

static int by_labels(const void *a, const void *b)
{
	return strcmp(((const struct series *)a)->labels,
		      ((const struct series *)b)->labels);
}

static const struct family *sorting;

static int by_weight(const void *a, const void *b)
{
	double x = weight(sorting, a), y = weight(sorting, b);

	if (x != y)
		return x < y ? 1 : -1;
	return by_labels(a, b);
}

/*
 * One series per label set (keys that share their labels, as processes do
 * without a pid label, add up); largest first; past the cap, the rest
 * folded into the last kept, which takes the "other" labels.
 */
static void settle(struct bpfkit_metrics *m, struct family *f)
{
	size_t i, kept = 0;

	f->folded = 0;
	if (!f->n)
		return; /* nothing scraped (qsort must not see a NULL array) */
	qsort(f->series, f->n, sizeof(*f->series), by_labels);
	for (i = 0; i < f->n; i++) {
		if (kept &&
		    !strcmp(f->series[kept - 1].labels, f->series[i].labels)) {
			merge(&f->series[kept - 1], &f->series[i]);
			free(f->series[i].labels);
			continue;
		}
		f->series[kept++] = f->series[i];
	}
	f->n = kept;
	sorting = f;
	qsort(f->series, f->n, sizeof(*f->series), by_weight);
	if (!m->max_series || f->n <= m->max_series)
		return;
	kept = m->max_series;
	for (i = kept; i < f->n; i++) {
		merge(&f->series[kept - 1], &f->series[i]);
		free(f->series[i].labels);
	}
	f->folded = f->n - kept + 1;
	f->n = kept;
	free(f->series[kept - 1].labels);
	f->series[kept - 1].labels = f->other;
	f->other = NULL;
}

/* An exact decimal of NS nanoseconds in seconds, such as 0.000002. */
static void print_seconds(FILE *out, __u64 ns)
{
	char frac[16];
	int len;

	len = snprintf(frac, sizeof(frac), "%09llu",
		       (unsigned long long)(ns % 1000000000));
	while (len > 1 && frac[len - 1] == '0')
		frac[--len] = '\0';
	fprintf(out, "%llu.%s", (unsigned long long)(ns / 1000000000), frac);
}

/* V in the fewest digits that read back as V. */
static void print_value(FILE *out, double v)
{
	char buf[32];

	if (v == (double)(long long)v && v < 9007199254740992.0 &&
	    v > -9007199254740992.0) {
		fprintf(out, "%lld", (long long)v);
		return;
	}
	snprintf(buf, sizeof(buf), "%.15g", v);
	if (strtod(buf, NULL) != v)
		snprintf(buf, sizeof(buf), "%.17g", v);
	fputs(buf, out);
}

/* NAME{LABELS[,EXTRA]} */
static void print_name(FILE *out, const char *name, const char *suffix,
		       const char *labels, const char *extra)
{
	bool any = *labels || extra;

	fprintf(out, "%s%s%s%s%s%s%s", name, suffix, any ? "{" : "", labels,
		*labels && extra ? "," : "", extra ?: "", any ? "}" : "");
}

/* A histogram family's edge or sum V: seconds, or bytes. */
static void print_hist_value(FILE *out, const struct family *f, __u64 v)
{
	if (f->bytes)
		fprintf(out, "%llu", (unsigned long long)v);
	else
		print_seconds(out, v);
}

static void write_hist(FILE *out, const struct family *f,
		       const struct series *s)
{
	__u64 cum = 0;
	char le[48];
	int i;

	for (i = 0; i < BPFKIT_HIST_SLOTS - 1; i++) {
		FILE *l = fmemopen(le, sizeof(le), "w");

		if (!l)
			continue;
		fputs("le=\"", l);
		print_hist_value(l, f, f->le_ns[i]);
		fputs("\"", l);
		fclose(l);
		cum += s->slots[i];
		print_name(out, f->name, "_bucket", s->labels, le);
		fprintf(out, " %llu\n", (unsigned long long)cum);
	}
	cum += s->slots[BPFKIT_HIST_SLOTS - 1];
	print_name(out, f->name, "_bucket", s->labels, "le=\"+Inf\"");
	fprintf(out, " %llu\n", (unsigned long long)cum);
	print_name(out, f->name, "_sum", s->labels, NULL);
	fputc(' ', out);
	print_hist_value(out, f, s->sum_ns);
	fputc('\n', out);
	print_name(out, f->name, "_count", s->labels, NULL);
	fprintf(out, " %llu\n", (unsigned long long)cum);
}

static const char *const type_names[] = {
	[BPFKIT_COUNTER] = "counter",
	[BPFKIT_GAUGE] = "gauge",
	[BPFKIT_HISTOGRAM] = "histogram",
};

int bpfkit_metrics_write(struct bpfkit_metrics *m, FILE *out)
{
	bool any_folded = false;
	size_t i, j;

	for (i = 0; i < m->n; i++) {
		struct family *f = &m->families[i];

		settle(m, f);
		any_folded |= f->folded > 0;
		fprintf(out, "# HELP %s %s\n# TYPE %s %s\n", f->name, f->help,
			f->name, type_names[f->type]);
		for (j = 0; j < f->n; j++) {
			const struct series *s = &f->series[j];

			if (f->type == BPFKIT_HISTOGRAM) {
				write_hist(out, f, s);
				continue;
			}
			print_name(out, f->name, "", s->labels, NULL);
			fputc(' ', out);
			print_value(out, s->value);
			fputc('\n', out);
		}
	}
	if (any_folded) {
		fprintf(out,
			"# HELP bpfkit_metrics_folded_series Series folded into the \"other\" series by --max-series at this scrape\n"
			"# TYPE bpfkit_metrics_folded_series gauge\n");
		for (i = 0; i < m->n; i++)
			if (m->families[i].folded)
				fprintf(out,
					"bpfkit_metrics_folded_series{family=\"%s\"} %zu\n",
					m->families[i].name,
					m->families[i].folded);
	}
	return ferror(out) ? -EIO : 0;
}

/* --- what a scrape holds --- */

static struct {
	bpfkit_metrics_fill_fn fill;
	void *ctx;
	struct bpf_object *obj;
	struct bpfkit_channel *ch;
	int stats_fd; /* BPF_STATS_RUN_TIME while open; -1: not on */
	int listen_fd;
	int epoll_fd;
	bool started;
} src = { .stats_fd = -1, .listen_fd = -1, .epoll_fd = -1 };

static int add_one(struct bpfkit_metrics *m, const char *name,
		   enum bpfkit_metric_type type, const char *help,
		   const char *const *labels, double value)
{
	int err = bpfkit_metrics_family(m, name, type, help);

	return err ?: bpfkit_metrics_add(m, labels, value);
}

/* Each loaded program's run count, time and skipped runs, from the kernel. */
static int add_programs(struct bpfkit_metrics *m)
{
	static const struct {
		const char *name, *help;
	} families[] = {
		{ "bpfkit_bpf_program_runs_total",
		  "Times the kernel ran each BPF program" },
		{ "bpfkit_bpf_program_run_seconds_total",
		  "Time the kernel spent running each BPF program" },
		{ "bpfkit_bpf_program_skipped_runs_total",
		  "Runs the kernel skipped: another BPF program was running on the CPU" },
	};
	struct bpf_prog_info info;
	struct bpf_program *p;
	__u32 len;
	int err, pass;

	if (!src.obj)
		return 0;
	for (pass = 0; pass < 3; pass++) {
		err = bpfkit_metrics_family(m, families[pass].name,
					    BPFKIT_COUNTER,
					    families[pass].help);
		if (err)
			return err;
		bpf_object__for_each_program(p, src.obj) {
			const char *labels[] = { "program",
						 bpf_program__name(p), NULL };

			if (bpf_program__fd(p) < 0)
				continue;
			memset(&info, 0, sizeof(info));
			len = sizeof(info);
			if (bpf_obj_get_info_by_fd(bpf_program__fd(p), &info,
						   &len))
				continue;
			err = bpfkit_metrics_add(m, labels,
						 pass == 2 ?
							 info.recursion_misses :
						 pass ? info.run_time_ns / 1e9 :
							info.run_cnt);
			if (err)
				return err;
		}
	}
	return 0;
}

static int add_channel(struct bpfkit_metrics *m)
{
	struct bpfkit_channel_stats st;
	int err;

	if (!src.ch || bpfkit_channel_stats(src.ch, &st))
		return 0;
	err = add_one(m, "bpfkit_events_total", BPFKIT_COUNTER,
		      "Events the tool read and showed", NULL, st.shown);
	err = err   ?:
		      add_one(m, "bpfkit_filtered_events_total", BPFKIT_COUNTER,
			      "Events the tool read and left out by its filters",
			      NULL, st.filtered);
	err = err   ?:
		      bpfkit_metrics_family(m, "bpfkit_lost_events_total",
					    BPFKIT_COUNTER,
					    "Events lost, by reason");
	err = err   ?:
		      bpfkit_metrics_add(
			      m,
			      (const char *[]){ "reason", "buffer_full", NULL },
			      st.buffer_full);
	err = err   ?:
		      bpfkit_metrics_add(m,
					 (const char *[]){ "reason",
							   "staging_full",
							   NULL },
					 st.staging_full);
	return err   ?:
		       bpfkit_metrics_add(m,
					  (const char *[]){ "reason",
							    "read_failed",
							    NULL },
					  st.read_failed);
}

/*
 * Overload control's counts beside the channel's: events throttled and
 * sampled on purpose, and every event produced, so that shown + filtered
 * + lost + throttled + sampled == produced reads from a scrape.
 */
static int add_overload(struct bpfkit_metrics *m)
{
	struct bpfkit_channel_stats st;
	int err;

	if (!src.ch || bpfkit_channel_stats(src.ch, &st))
		return 0;
	err = add_one(m, "bpfkit_throttled_events_total", BPFKIT_COUNTER,
		      "Events not sent, by --rate-limit or --max-cpu", NULL,
		      st.throttled);
	err = err   ?:
		      add_one(m, "bpfkit_sampled_events_total", BPFKIT_COUNTER,
			      "Events not sent, left out by --sample", NULL,
			      st.sampled);
	err = err   ?:
		      add_one(m, "bpfkit_rate_limit_misses_total",
			      BPFKIT_COUNTER,
			      "Keys of --rate-limit-by that found no bucket: new, or forgotten by its LRU",
			      NULL, st.limit_misses);
	return err   ?:
		       add_one(m, "bpfkit_produced_events_total",
			       BPFKIT_COUNTER,
			       "Events the BPF side produced: shown, filtered, lost, throttled or sampled",
			       NULL, st.produced);
}

/* Resident memory from /proc/self/statm, in bytes; 0 if unknown. */
static double rss_bytes(void)
{
	unsigned long size, resident = 0;
	FILE *f = fopen("/proc/self/statm", "re");

	if (!f)
		return 0;
	if (fscanf(f, "%lu %lu", &size, &resident) != 2)
		resident = 0;
	fclose(f);
	return (double)resident * sysconf(_SC_PAGESIZE);
}

static int add_process(struct bpfkit_metrics *m)
{
	struct rusage ru;
	double cpu = 0;
	int err;

	if (!getrusage(RUSAGE_SELF, &ru))
		cpu = ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
		      (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
	err = add_one(m, "bpfkit_build_info", BPFKIT_GAUGE,
		      "The tool and the bpfkit version it was built from",
		      (const char *[]){ "tool", opts.tool, "version",
					BPFKIT_VERSION, NULL },
		      1);
	err = err   ?:
		      add_one(m, "process_start_time_seconds", BPFKIT_GAUGE,
			      "Start time of the process since the epoch", NULL,
			      start_time.tv_sec + start_time.tv_nsec / 1e9);
	err = err   ?:
		      add_one(m, "process_resident_memory_bytes", BPFKIT_GAUGE,
			      "Resident memory size", NULL, rss_bytes());
	return err   ?:
		       add_one(m, "process_cpu_seconds_total", BPFKIT_COUNTER,
			       "User and system CPU time spent", NULL, cpu);
}

/* The whole scrape in *OUT (malloc'd), *LEN bytes. 0 or -errno. */
static int scrape(char **out, size_t *len)
{
	struct bpfkit_metrics *m = bpfkit_metrics_new(opts.max_series);
	FILE *f;
	int err;

	*out = NULL;
	if (!m)
		return -ENOMEM;
	err = src.fill ? src.fill(m, src.ctx) : 0;
	err = err ?: add_channel(m);
	err = err ?: add_overload(m);
	err = err ?: add_programs(m);
	err = err ?: add_process(m);
	f = err ? NULL : open_memstream(out, len);
	if (!err && !f)
		err = -errno;
	if (f) {
		err = bpfkit_metrics_write(m, f);
		if (fclose(f) && !err)
			err = -EIO;
	}
	bpfkit_metrics_free(m);
	if (err) {
		free(*out);
		*out = NULL;
	}
	return err;
}

/* --- HTTP --- */

static bool is_tchar(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	       (c >= '0' && c <= '9') || strchr("!#$%&'*+-.^_`|~", c);
}

/* Is the line [S, E) free of control bytes (but a trailing \r)? */
static bool clean_line(const char *s, const char *e)
{
	if (e > s && e[-1] == '\r')
		e--;
	for (; s < e; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return false;
	return true;
}

/* The request line [S, E): a status, and *ROOT for GET /. */
static int parse_request_line(const char *s, const char *e, bool *root)
{
	const char *method = s, *sp1, *target, *sp2, *path_end;
	size_t mlen, plen, vlen;

	if (e > s && e[-1] == '\r')
		e--;
	if (!clean_line(s, e))
		return 400;
	sp1 = memchr(s, ' ', e - s);
	if (!sp1 || sp1 == s)
		return 400;
	for (mlen = 0; method + mlen < sp1; mlen++)
		if (!is_tchar(method[mlen]))
			return 400;
	target = sp1 + 1;
	sp2 = memchr(target, ' ', e - target);
	if (!sp2 || sp2 == target || *target != '/')
		return 400;
	vlen = e - (sp2 + 1);
	if (vlen < 5 || memcmp(sp2 + 1, "HTTP/", 5))
		return 400;
	if (vlen != 8 || memcmp(sp2 + 1, "HTTP/1.", 7) ||
	    (sp2[8] != '0' && sp2[8] != '1'))
		return 505;
	if (mlen != 3 || memcmp(method, "GET", 3))
		return 405;
	path_end = memchr(target, '?', sp2 - target) ?: sp2;
	plen = path_end - target;
	*root = plen == 1;
	if (plen == 1 || (plen == 8 && !memcmp(target, "/metrics", 8)))
		return 200;
	return 404;
}

/*
 * A status for the request in BUF: 0 while it is incomplete (no empty
 * line yet, within MAX_LEN); 405, 404, 400 or 505 as soon as the request
 * line says so; 431 past MAX_LEN; 200 for GET /metrics (or GET /, *root).
 */
static int parse(const char *buf, size_t len, size_t max_len, bool *root)
{
	const char *end = buf + len, *line, *eol;
	int status;

	*root = false;
	eol = memchr(buf, '\n', len);
	if (!eol)
		return len >= max_len ? 431 : 0;
	status = parse_request_line(buf, eol, root);
	if (status != 200)
		return status;
	for (line = eol + 1; line < end; line = eol + 1) {
		eol = memchr(line, '\n', end - line);
		if (!eol)
			break;
		if (eol == line || (eol == line + 1 && *line == '\r'))
			return 200;
		if (!clean_line(line, eol) || !memchr(line, ':', eol - line) ||
		    *line == ' ' || *line == '\t' || *line == ':')
			return 400;
	}
	return len >= max_len ? 431 : 0;
}

int bpfkit_http_parse(const char *buf, size_t len, size_t max_len)
{
	bool root;

	return parse(buf, len, max_len, &root);
}

int bpfkit_metrics_parse_listen(const char *arg, void *sockaddr,
				unsigned int *len)
{
	struct sockaddr_in6 *in6 = sockaddr;
	struct sockaddr_in *in = sockaddr;
	char host[INET6_ADDRSTRLEN + 2];
	const char *colon = strrchr(arg, ':');
	unsigned long port;
	size_t hlen;
	char *end;

	if (!colon || !colon[1])
		return -EINVAL;
	errno = 0;
	port = strtoul(colon + 1, &end, 10);
	if (*end || errno || port > 65535 || colon[1] == '-' || colon[1] == '+')
		return -EINVAL;
	hlen = colon - arg;
	if (hlen >= sizeof(host))
		return -EINVAL;
	memcpy(host, arg, hlen);
	host[hlen] = '\0';
	if (!hlen)
		strcpy(host, "127.0.0.1");
	memset(sockaddr, 0, sizeof(struct sockaddr_in6));
	if (host[0] == '[' && hlen > 2 && host[hlen - 1] == ']') {
		host[hlen - 1] = '\0';
		in6->sin6_family = AF_INET6;
		in6->sin6_port = htons(port);
		*len = sizeof(*in6);
		return inet_pton(AF_INET6, host + 1, &in6->sin6_addr) == 1 ?
			       0 :
			       -EINVAL;
	}
	in->sin_family = AF_INET;
	in->sin_port = htons(port);
	*len = sizeof(*in);
	return inet_pton(AF_INET, host, &in->sin_addr) == 1 ? 0 : -EINVAL;
}

struct conn {
	int fd; /* -1: free */
	__u64 deadline_ms;
	size_t got;
	char req[REQUEST_MAX];
	char *out; /* the response, once there is one */
	size_t out_len, out_off;
	bool done; /* sent: read what comes until EOF, then close */
};

static struct conn conns[MAX_CONNS];

static __u64 now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000ULL + ts.tv_nsec / 1000000;
}

static void close_conn(struct conn *c)
{
	if (c->fd < 0)
		return;
	close(c->fd);
	free(c->out);
	c->fd = -1;
	c->out = NULL;
}

static const char *reason(int status)
{
	switch (status) {
	case 200:
		return "OK";
	case 400:
		return "Bad Request";
	case 404:
		return "Not Found";
	case 405:
		return "Method Not Allowed";
	case 431:
		return "Request Header Fields Too Large";
	case 505:
		return "HTTP Version Not Supported";
	}
	return "Internal Server Error";
}

static const char index_page[] =
	"<html><head><title>bpfkit</title></head><body>"
	"<a href=\"/metrics\">metrics</a></body></html>\n";

/* The response to a request that got STATUS, into C->out. */
static void respond(struct conn *c, int status, bool root)
{
	const char *type = "text/plain; charset=utf-8";
	char *body = NULL;
	size_t blen = 0;
	FILE *f;

	if (status == 200 && root) {
		type = "text/html; charset=utf-8";
	} else if (status == 200) {
		if (scrape(&body, &blen))
			status = 500;
		else
			type = "text/plain; version=0.0.4; charset=utf-8";
	}
	f = open_memstream(&c->out, &c->out_len);
	if (!f) {
		free(body);
		close_conn(c);
		return;
	}
	fprintf(f, "HTTP/1.1 %d %s\r\nContent-Type: %s\r\n", status,
		reason(status), type);
	if (status == 405)
		fputs("Allow: GET\r\n", f);
	if (status == 200 && root) {
		fprintf(f, "Content-Length: %zu\r\nConnection: close\r\n\r\n%s",
			sizeof(index_page) - 1, index_page);
	} else if (status == 200) {
		fprintf(f, "Content-Length: %zu\r\nConnection: close\r\n\r\n",
			blen);
		fwrite(body, 1, blen, f);
	} else {
		fprintf(f,
			"Content-Length: %zu\r\nConnection: close\r\n\r\n%s\n",
			strlen(reason(status)) + 1, reason(status));
	}
	free(body);
	if (fclose(f)) {
		close_conn(c);
		return;
	}
	c->out_off = 0;
}

static void watch_conn(struct conn *c, unsigned int events)
{
	struct epoll_event ev = { .events = events, .data.ptr = c };

	if (epoll_ctl(src.epoll_fd, EPOLL_CTL_MOD, c->fd, &ev))
		close_conn(c);
}

/* Send what the socket takes; once all is sent, wait for the client's EOF. */
static void send_out(struct conn *c)
{
	ssize_t n;

	while (c->out_off < c->out_len) {
		n = send(c->fd, c->out + c->out_off, c->out_len - c->out_off,
			 MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
			watch_conn(c, EPOLLIN | EPOLLOUT);
			return;
		}
		if (n <= 0) {
			close_conn(c);
			return;
		}
		c->out_off += n;
	}
	/* Closing with unread input would reset the connection: drain it. */
	shutdown(c->fd, SHUT_WR);
	c->done = true;
	watch_conn(c, EPOLLIN);
}

static void read_conn(struct conn *c)
{
	char discard[4096];
	bool root;
	ssize_t n;
	int status;

	if (c->done || c->out) {
		n = recv(c->fd, discard, sizeof(discard), MSG_DONTWAIT);
		if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR))
			close_conn(c);
		return;
	}
	n = recv(c->fd, c->req + c->got, sizeof(c->req) - c->got, MSG_DONTWAIT);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		close_conn(c);
		return;
	}
	c->got += n;
	status = parse(c->req, c->got, sizeof(c->req), &root);
	if (!status)
		return;
	respond(c, status, root);
	if (c->fd >= 0)
		send_out(c);
}

/* A free slot, or the one of the oldest connection, closed. */
static struct conn *free_slot(void)
{
	struct conn *oldest = &conns[0];
	int i;

	for (i = 0; i < MAX_CONNS; i++) {
		if (conns[i].fd < 0)
			return &conns[i];
		if (conns[i].deadline_ms < oldest->deadline_ms)
			oldest = &conns[i];
	}
	close_conn(oldest);
	return oldest;
}

static void accept_conns(void)
{
	struct epoll_event ev = { .events = EPOLLIN };
	struct conn *c;
	int fd;

	while ((fd = accept4(src.listen_fd, NULL, NULL,
			     SOCK_NONBLOCK | SOCK_CLOEXEC)) >= 0) {
		c = free_slot();
		c->fd = fd;
		c->got = 0;
		c->done = false;
		c->deadline_ms = now_ms() + CONN_TIMEOUT_MS;
		ev.data.ptr = c;
		if (epoll_ctl(src.epoll_fd, EPOLL_CTL_ADD, fd, &ev))
			close_conn(c);
	}
}

/*
 * The run loop's handler of the listener and the connections: accept, read
 * requests, answer and close, without blocking.
 */
static int serve(void *ctx)
{
	struct epoll_event evs[MAX_CONNS + 1];
	int n, i;

	n = epoll_wait(src.epoll_fd, evs, MAX_CONNS + 1, 0);
	for (i = 0; i < n; i++) {
		struct conn *c = evs[i].data.ptr;

		if (!c) {
			accept_conns();
			continue;
		}
		if (c->fd < 0)
			continue;
		if ((evs[i].events & EPOLLOUT) && c->out && !c->done)
			send_out(c);
		else if (evs[i].events & (EPOLLIN | EPOLLERR | EPOLLHUP))
			read_conn(c);
	}
	return 0;
}

/* Every SWEEP_MS: close the connections past their time limit. */
static int sweep(void *ctx)
{
	__u64 now = now_ms();
	int i;

	for (i = 0; i < MAX_CONNS; i++)
		if (conns[i].fd >= 0 && conns[i].deadline_ms <= now)
			close_conn(&conns[i]);
	return 0;
}

/* Open the listening socket on ADDR, its address in NAME as it says. */
static int listen_on(const char *addr, char *name, size_t size)
{
	struct sockaddr_storage ss;
	struct epoll_event ev = { .events = EPOLLIN, .data.ptr = NULL };
	unsigned int len;
	int one = 1, err;

	if (bpfkit_metrics_parse_listen(addr, &ss, &len))
		return -EINVAL;
	if (ss.ss_family == AF_INET6) {
		struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&ss;

		name[0] = '[';
		inet_ntop(AF_INET6, &in6->sin6_addr, name + 1, size - 8);
		snprintf(name + strlen(name), 8, "]:%u", ntohs(in6->sin6_port));
	} else {
		struct sockaddr_in *in = (struct sockaddr_in *)&ss;

		inet_ntop(AF_INET, &in->sin_addr, name, size - 7);
		snprintf(name + strlen(name), 7, ":%u", ntohs(in->sin_port));
	}
	src.listen_fd = socket(ss.ss_family,
			       SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (src.listen_fd < 0)
		return -errno;
	setsockopt(src.listen_fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(src.listen_fd, (struct sockaddr *)&ss, len) ||
	    listen(src.listen_fd, MAX_CONNS))
		return -errno;
	src.epoll_fd = epoll_create1(EPOLL_CLOEXEC);
	if (src.epoll_fd < 0)
		return -errno;
	err = epoll_ctl(src.epoll_fd, EPOLL_CTL_ADD, src.listen_fd, &ev);
	return err ? -errno : 0;
}

void bpfkit_metrics_source(bpfkit_metrics_fill_fn fill, void *ctx)
{
	src.fill = fill;
	src.ctx = ctx;
}

void bpfkit_metrics_object(struct bpf_object *obj)
{
	src.obj = obj;
}

/* With --textfile: write DIR/bpfkit_TOOL.prom by atomic rename. */
static int write_textfile(void *ctx)
{
	char path[PATH_MAX], tmp[PATH_MAX + 32];
	char *body;
	size_t len;
	FILE *f;
	int err;

	if (!opts.textfile_dir)
		return 0;
	snprintf(path, sizeof(path), "%s/bpfkit_%s.prom", opts.textfile_dir,
		 opts.tool);
	snprintf(tmp, sizeof(tmp), "%s.%d.tmp", path, (int)getpid());
	err = scrape(&body, &len);
	if (err)
		goto out;
	f = fopen(tmp, "we");
	if (!f) {
		err = -errno;
		free(body);
		goto out;
	}
	fwrite(body, 1, len, f);
	free(body);
	err = fclose(f) ? -errno : 0;
	if (!err && rename(tmp, path))
		err = -errno;
	if (err)
		unlink(tmp);
out:
	if (err)
		bpfkit_error("cannot write %s: %s", path, strerror(-err));
	return 0; /* the next interval tries again */
}

/* Serve scrapes in the run loop: the listener, its connections' limits. */
static int watch_listener(void)
{
	const struct bpfkit_tick every = { SWEEP_MS, sweep, NULL };

	return bpfkit_run_watch(src.epoll_fd, EPOLLIN, serve, NULL) ?:
		       bpfkit_run_every(&every);
}

int bpfkit_metrics_start(struct bpfkit_channel *ch, unsigned int interval_ms)
{
	const struct bpfkit_tick textfile = { interval_ms ?: TEXTFILE_MS,
					      write_textfile, NULL };
	char name[INET6_ADDRSTRLEN + 16];
	int i, err;

	if (!bpfkit_metrics_enabled() || src.started)
		return 0;
	src.ch = ch;
	for (i = 0; i < MAX_CONNS; i++)
		conns[i].fd = -1;
	src.started = true;
	/* Without it (no CAP_SYS_ADMIN) the run times stay 0; counts still come. */
	src.stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
	if (opts.textfile_dir) {
		write_textfile(NULL);
		err = bpfkit_run_every(&textfile);
		if (err) {
			bpfkit_fail("time the --textfile writes", err);
			return err;
		}
	}
	if (!opts.listen)
		return 0;
	err = listen_on(opts.listen, name, sizeof(name));
	if (err) {
		bpfkit_error(
			"cannot serve metrics on %s: %s; give a free ADDR:PORT to --metrics",
			opts.listen, strerror(-err));
		return err;
	}
	err = watch_listener();
	if (err) {
		bpfkit_fail("watch the metrics socket", err);
		return err;
	}
	bpfkit_error("serving metrics on http://%s/metrics", name);
	return 0;
}

void bpfkit_metrics_stop(void)
{
	int i;

	if (!src.started)
		return;
	src.started = false;
	/* The textfile gets the last counts, with the run times still on. */
	if (opts.textfile_dir)
		write_textfile(NULL);
	for (i = 0; i < MAX_CONNS; i++)
		close_conn(&conns[i]);
	if (src.listen_fd >= 0)
		close(src.listen_fd);
	if (src.epoll_fd >= 0)
		close(src.epoll_fd);
	if (src.stats_fd >= 0)
		close(src.stats_fd);
	src.listen_fd = src.epoll_fd = src.stats_fd = -1;
}
