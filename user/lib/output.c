// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The output format, header and time columns, kernel strings in columns and
 * a JSON Lines writer, all safe for arbitrary kernel bytes.
 */
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "diag.h"
#include "output.h"

static struct bpfkit_output_opts opts;
static struct bpfkit_record_extras extras; /* the container room's */
static __u64 start_ns; /* CLOCK_MONOTONIC when tracing started */
static __s64 wall_offset_ns; /* CLOCK_REALTIME minus CLOCK_MONOTONIC */

void bpfkit_output_init(const struct bpfkit_output_opts *o)
{
	opts = *o;
}

bool bpfkit_output_json(void)
{
	return opts.json;
}

bool bpfkit_output_counts(void)
{
	return opts.counts;
}

bool bpfkit_output_timed(void)
{
	return opts.wall_time || opts.rel_time;
}

static __u64 clock_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

int bpfkit_output_flush(void)
{
	static int failed;

	if (failed)
		return failed;
	if (fflush(stdout))
		failed = -errno;
	else if (ferror(stdout))
		failed = -EIO; /* an implicit flush failed; its errno is gone */
	if (failed == -EPIPE) {
		failed = 1;
	} else if (failed) {
		bpfkit_error("cannot write output: %s", strerror(-failed));
	}
	return failed;
}

int bpfkit_check_stdout(void)
{
	struct pollfd pfd = { .fd = STDOUT_FILENO };
	int ret = bpfkit_output_flush();

	if (ret)
		return ret;
	return poll(&pfd, 1, 0) == 1 && (pfd.revents & POLLERR);
}

static void flush_at_exit(void)
{
	if (bpfkit_output_flush() < 0)
		_exit(BPFKIT_EXIT_FAIL);
}

/* bpf_ktime_get_ns() is CLOCK_MONOTONIC: convert it to the wall clock once. */
void bpfkit_output_start(void)
{
	if (start_ns)
		return;
	start_ns = clock_ns(CLOCK_MONOTONIC);
	wall_offset_ns = clock_ns(CLOCK_REALTIME) - start_ns;
	atexit(flush_at_exit);
}

/* The kernel's time of REC, or now when there is no record. */
static __u64 record_ns(const struct bpfkit_record *rec)
{
	return rec ? rec->ktime_ns : clock_ns(CLOCK_MONOTONIC);
}

static double since_start(__u64 ktime_ns)
{
	return ((__s64)(ktime_ns - start_ns)) / 1e9;
}

static void wall_clock(__u64 ktime_ns, char *buf, size_t len)
{
	time_t t = (ktime_ns + wall_offset_ns) / 1000000000ULL;
	struct tm tm;

	localtime_r(&t, &tm);
	strftime(buf, len, "%H:%M:%S", &tm);
}

void bpfkit_print_header(const char *fmt, ...)
{
	va_list ap;

	if (opts.json || opts.counts)
		return;
	if (opts.wall_time)
		printf("%-8s ", "TIME");
	if (opts.rel_time)
		printf("%-9s ", "TIME(s)");
	if (extras.column)
		printf("%-*s ", extras.width, extras.name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}

void bpfkit_print_time(const struct bpfkit_record *rec)
{
	__u64 ns = record_ns(rec);
	char buf[16];

	if (opts.wall_time) {
		wall_clock(ns, buf, sizeof(buf));
		printf("%-8s ", buf);
	}
	if (opts.rel_time)
		printf("%-9.3f ", since_start(ns));
	if (rec && extras.column) {
		const char *label = extras.column(rec);

		bpfkit_print_str(label, strlen(label), extras.width);
	}
}

size_t bpfkit_utf8_len(const unsigned char *s, size_t n, unsigned int *cp_out)
{
	size_t len, i;
	unsigned int cp;

	if (s[0] < 0xc2 || s[0] > 0xf4)
		return 0;
	len = s[0] < 0xe0 ? 2 : s[0] < 0xf0 ? 3 : 4;
	if (len > n)
		return 0;
	cp = s[0] & (0x7f >> len);
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* Reject overlong forms, UTF-16 surrogates and beyond U+10FFFF. */
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	*cp_out = cp;
	return len;
}

/*
 * Quotes, backslashes and control bytes are escaped; valid UTF-8 is kept;
 * each byte that is not valid UTF-8 becomes U+FFFD.
 */
void bpfkit_json_escape(FILE *f, const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	unsigned int cp;
	size_t i = 0, n;

	fputc('"', f);
	while (i < len && s[i]) {
		unsigned char c = s[i];

		if (c == '"' || c == '\\') {
			fputc('\\', f);
			fputc(c, f);
		} else if (c == '\n') {
			fputs("\\n", f);
		} else if (c == '\t') {
			fputs("\\t", f);
		} else if (c < 0x20 || c == 0x7f) {
			fprintf(f, "\\u%04x", c);
		} else if (c < 0x80) {
			fputc(c, f);
		} else if ((n = bpfkit_utf8_len(s + i, len - i, &cp))) {
			fwrite(s + i, 1, n, f);
			i += n;
			continue;
		} else {
			fputs("\\ufffd", f);
		}
		i++;
	}
	fputc('"', f);
}

/* Is c printed as itself: printable ASCII that needs no quoting? */
static bool col_plain(unsigned char c, bool quote)
{
	return c >= 0x20 && c < 0x7f && !(quote && (c == '"' || c == '\\'));
}

/*
 * Is CP a character that controls the terminal or the layout rather than
 * showing: a C1 control (U+009B is CSI), a bidi embedding, override or
 * isolate (U+202A-U+202E, U+2066-U+2069), or a line or paragraph separator?
 */
static bool col_control(unsigned int cp)
{
	return (cp >= 0x80 && cp <= 0x9f) || (cp >= 0x2028 && cp <= 0x202e) ||
	       (cp >= 0x2066 && cp <= 0x2069);
}

/*
 * The same bytes for a column: valid UTF-8 is kept, except controls, which
 * become \u{XXXX}; anything else that is not printable ASCII becomes \xNN,
 * so that no kernel string (a command name may hold a newline, an escape
 * sequence or a bidi override) can break, forge or reorder a line.
 */
size_t bpfkit_col_escape(FILE *f, const char *str, size_t len, bool quote)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, n, w, width = 0;
	unsigned int cp;

	while (i < len && s[i]) {
		unsigned char c = s[i];

		for (n = 0; i + n < len && col_plain(s[i + n], quote); n++)
			;
		if (n) {
			/* A run of plain bytes goes out in one write. */
			fwrite(s + i, 1, n, f);
			w = n;
		} else if (c >= 0x80 &&
			   (n = bpfkit_utf8_len(s + i, len - i, &cp))) {
			if (col_control(cp)) {
				w = fprintf(f, "\\u{%04x}", cp);
			} else {
				fwrite(s + i, 1, n, f);
				w = 1;
			}
		} else if (c < 0x20 || c >= 0x7f) {
			fprintf(f, "\\x%02x", c);
			n = 1;
			w = 4;
		} else {
			fprintf(f, "\\%c", c);
			n = 1;
			w = 2;
		}
		width += w;
		i += n;
	}
	return width;
}

void bpfkit_print_str(const char *s, size_t len, int width)
{
	size_t n = bpfkit_col_escape(stdout, s, len, false);

	printf("%*s ", n < (size_t)width ? width - (int)n : 0, "");
}

void bpfkit_print_task(__u32 pid, const char *comm)
{
	if (!comm) {
		printf("%-*s %-*s ", BPFKIT_PID_W, "-", BPFKIT_COMM_W, "-");
		return;
	}
	printf("%-*u ", BPFKIT_PID_W, pid);
	bpfkit_print_str(comm, BPFKIT_COMM_LEN, BPFKIT_COMM_W);
}

static void key(struct bpfkit_json *j, const char *k)
{
	if (!j->first)
		fputc(',', j->f);
	j->first = false;
	if (k)
		fprintf(j->f, "\"%s\":", k);
}

static void open_object(struct bpfkit_json *j, FILE *f)
{
	j->f = f;
	j->first = true;
	fputc('{', f);
}

void bpfkit_output_extras(const struct bpfkit_record_extras *x)
{
	extras = *x;
}

/*
 * The record's task: its cgroup, mount namespace and pid in its pid
 * namespace (the header's), then what a room above adds (its container).
 */
static void json_task_ids(struct bpfkit_json *j,
			  const struct bpfkit_record *rec)
{
	bpfkit_json_uint(j, "cgroup_id", rec->cgroup_id);
	bpfkit_json_uint(j, "mntns", rec->mntns);
	bpfkit_json_uint(j, "pidns", rec->pidns);
	bpfkit_json_uint(j, "pidns_pid", rec->pidns_pid);
	if (extras.json)
		extras.json(j, rec);
}

void bpfkit_json_begin(struct bpfkit_json *j, FILE *f,
		       const struct bpfkit_record *rec)
{
	__u64 ns = record_ns(rec);
	char buf[16];

	open_object(j, f);
	if (opts.wall_time) {
		wall_clock(ns, buf, sizeof(buf));
		key(j, "time");
		fprintf(f, "\"%s\"", buf);
	}
	if (opts.rel_time) {
		key(j, "ts");
		fprintf(f, "%.6f", since_start(ns));
	}
	if (rec)
		json_task_ids(j, rec);
}

void bpfkit_json_begin_type(struct bpfkit_json *j, FILE *f, const char *type)
{
	open_object(j, f);
	key(j, "type");
	fprintf(f, "\"%s\"", type);
}

void bpfkit_json_int(struct bpfkit_json *j, const char *k, long long v)
{
	key(j, k);
	fprintf(j->f, "%lld", v);
}

void bpfkit_json_double(struct bpfkit_json *j, const char *k, double v)
{
	key(j, k);
	fprintf(j->f, "%.3f", v);
}

void bpfkit_json_uint(struct bpfkit_json *j, const char *k,
		      unsigned long long v)
{
	key(j, k);
	fprintf(j->f, "%llu", v);
}

void bpfkit_json_bool(struct bpfkit_json *j, const char *k, bool v)
{
	key(j, k);
	fputs(v ? "true" : "false", j->f);
}

void bpfkit_json_str(struct bpfkit_json *j, const char *k, const char *s,
		     size_t len)
{
	key(j, k);
	bpfkit_json_escape(j->f, s, len);
}

void bpfkit_json_task(struct bpfkit_json *j, __u32 pid, __u32 tid, __u32 uid,
		      const char *comm)
{
	bpfkit_json_uint(j, "pid", pid);
	bpfkit_json_uint(j, "tid", tid);
	bpfkit_json_uint(j, "uid", uid);
	bpfkit_json_str(j, "comm", comm, BPFKIT_COMM_LEN);
}

void bpfkit_json_owner(struct bpfkit_json *j, __u32 pid, __u32 uid,
		       const char *comm)
{
	if (!comm)
		return;
	bpfkit_json_uint(j, "pid", pid);
	bpfkit_json_uint(j, "uid", uid);
	bpfkit_json_str(j, "comm", comm, BPFKIT_COMM_LEN);
}

void bpfkit_json_array_begin(struct bpfkit_json *j, const char *k)
{
	key(j, k);
	fputc('[', j->f);
	j->first = true;
}

void bpfkit_json_array_end(struct bpfkit_json *j)
{
	fputc(']', j->f);
	j->first = false;
}

void bpfkit_json_object_begin(struct bpfkit_json *j, const char *k)
{
	key(j, k);
	fputc('{', j->f);
	j->first = true;
}

void bpfkit_json_object_end(struct bpfkit_json *j)
{
	fputc('}', j->f);
	j->first = false;
}

void bpfkit_json_end(struct bpfkit_json *j)
{
	fputs("}\n", j->f);
}
