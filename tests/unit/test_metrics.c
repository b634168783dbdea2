// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The metrics room: the text format, label escaping, histograms converted
 * to seconds, --max-series folding, the HTTP request parser and the
 * --metrics address.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <cmocka.h>
#include "metrics.h"

/* M written out, for comparing; the caller frees it. */
static char *written(struct bpfkit_metrics *m)
{
	char *buf = NULL;
	size_t size;
	FILE *f = open_memstream(&buf, &size);

	assert_non_null(f);
	assert_int_equal(bpfkit_metrics_write(m, f), 0);
	fclose(f);
	return buf;
}

static void test_counters(void **state)
{
	struct bpfkit_metrics *m = bpfkit_metrics_new(0);
	char *out;

	assert_int_equal(bpfkit_metrics_family(m, "bpfkit_t_calls_total",
					       BPFKIT_COUNTER, "Calls"),
			 0);
	bpfkit_metrics_add(m, (const char *[]){ "syscall", "read", NULL }, 5);
	bpfkit_metrics_add(m, (const char *[]){ "syscall", "write", NULL }, 7);
	/* A label set twice adds up: processes without a pid label. */
	bpfkit_metrics_add(m, (const char *[]){ "syscall", "read", NULL }, 4);
	bpfkit_metrics_family(m, "bpfkit_t_ratio", BPFKIT_GAUGE, "A ratio");
	bpfkit_metrics_add(m, NULL, 0.25);
	out = written(m);
	assert_string_equal(out, "# HELP bpfkit_t_calls_total Calls\n"
				 "# TYPE bpfkit_t_calls_total counter\n"
				 "bpfkit_t_calls_total{syscall=\"read\"} 9\n"
				 "bpfkit_t_calls_total{syscall=\"write\"} 7\n"
				 "# HELP bpfkit_t_ratio A ratio\n"
				 "# TYPE bpfkit_t_ratio gauge\n"
				 "bpfkit_t_ratio 0.25\n");
	free(out);
	bpfkit_metrics_free(m);
}

static void test_task_labels(void **state)
{
	struct bpfkit_metrics_opts opts = { .tool = "t" };
	const char *labels[7] = { "disk", "sda" };
	char pid[16];

	/* None asked: only the closing NULL after the tool's own. */
	bpfkit_metrics_init(&opts);
	bpfkit_metrics_task_labels(labels, 2, "pid", 42, "cat", pid,
				   sizeof(pid));
	assert_null(labels[2]);
	/* comm alone. */
	opts.labels = BPFKIT_LABEL_COMM;
	bpfkit_metrics_init(&opts);
	bpfkit_metrics_task_labels(labels, 2, "pid", 42, "cat", pid,
				   sizeof(pid));
	assert_string_equal(labels[2], "comm");
	assert_string_equal(labels[3], "cat");
	assert_null(labels[4]);
	/* Both, the id under the name given. */
	opts.labels = BPFKIT_LABEL_PID | BPFKIT_LABEL_COMM;
	bpfkit_metrics_init(&opts);
	bpfkit_metrics_task_labels(labels, 2, "tid", 4294967295u, "cat", pid,
				   sizeof(pid));
	assert_string_equal(labels[2], "tid");
	assert_string_equal(labels[3], "4294967295");
	assert_string_equal(labels[4], "comm");
	assert_string_equal(labels[5], "cat");
	assert_null(labels[6]);
	opts.labels = 0;
	bpfkit_metrics_init(&opts);
}

static void test_escaping(void **state)
{
	struct bpfkit_metrics *m = bpfkit_metrics_new(0);
	char *out;

	bpfkit_metrics_family(m, "x", BPFKIT_GAUGE, "h");
	/* Quote, backslash, newline escaped; UTF-8 kept; a control and an
	 * invalid byte as U+FFFD. */
	bpfkit_metrics_add(
		m,
		(const char *[]){ "comm", "a\"b\\c\nd\xc3\xa9\x01\xff", NULL },
		1);
	out = written(m);
	assert_non_null(strstr(out, "x{comm=\"a\\\"b\\\\c\\nd\xc3\xa9"
				    "\xef\xbf\xbd\xef\xbf\xbd\"} 1\n"));
	free(out);
	bpfkit_metrics_free(m);
}

static void test_histogram_in_seconds(void **state)
{
	__u64 log2[BPFKIT_HIST_SLOTS - 1], lin[BPFKIT_HIST_SLOTS - 1];
	struct bpfkit_hist h = { .count = 6, .sum_ns = 1500000123 };
	struct bpfkit_metrics *m = bpfkit_metrics_new(0);
	char *out;
	int i;

	/* Log2 buckets of microseconds; linear ones 5 ms wide. */
	for (i = 0; i < BPFKIT_HIST_SLOTS - 1; i++) {
		log2[i] = (2ULL << i) * 1000;
		lin[i] = (i + 1) * 5 * 1000000ULL;
	}
	h.slots[0] = 1; /* 0-1 us */
	h.slots[1] = 2; /* 2-3 us */
	h.slots[BPFKIT_HIST_SLOTS - 1] = 3; /* all above */
	bpfkit_metrics_family(m, "lat_seconds", BPFKIT_HISTOGRAM, "Latency");
	bpfkit_metrics_add_hist(m, NULL, log2, &h);
	bpfkit_metrics_family(m, "lin_seconds", BPFKIT_HISTOGRAM, "Linear");
	bpfkit_metrics_add_hist(m, (const char *[]){ "pid", "7", NULL }, lin,
				&h);
	out = written(m);
	/* Bucket i's upper edge: 2^(i+1) units, exactly, cumulative. */
	assert_non_null(strstr(out, "lat_seconds_bucket{le=\"0.000002\"} 1\n"
				    "lat_seconds_bucket{le=\"0.000004\"} 3\n"
				    "lat_seconds_bucket{le=\"0.000008\"} 3\n"));
	assert_non_null(strstr(out,
			       "lat_seconds_bucket{le=\"549755.813888\"} 3\n"
			       "lat_seconds_bucket{le=\"+Inf\"} 6\n"
			       "lat_seconds_sum 1.500000123\n"
			       "lat_seconds_count 6\n"));
	/* Linear: (i + 1) * step units. */
	assert_non_null(
		strstr(out, "lin_seconds_bucket{pid=\"7\",le=\"0.005\"} 1\n"
			    "lin_seconds_bucket{pid=\"7\",le=\"0.01\"} 3\n"));
	assert_non_null(strstr(out,
			       "lin_seconds_bucket{pid=\"7\",le=\"0.195\"} 3\n"
			       "lin_seconds_bucket{pid=\"7\",le=\"+Inf\"} 6\n"
			       "lin_seconds_sum{pid=\"7\"} 1.500000123\n"
			       "lin_seconds_count{pid=\"7\"} 6\n"));
	free(out);
	bpfkit_metrics_free(m);
}

/* A histogram of bytes: edges and sum as they are, not in seconds. */
static void test_histogram_in_bytes(void **state)
{
	struct bpfkit_hist h = { .count = 3, .sum_ns = 12288 };
	struct bpfkit_metrics *m = bpfkit_metrics_new(0);
	__u64 le[BPFKIT_HIST_SLOTS - 1];
	char *out;
	int i;

	for (i = 0; i < BPFKIT_HIST_SLOTS - 1; i++)
		le[i] = (2ULL << i) * 1024;
	h.slots[2] = 3; /* 4-7 Kbytes */
	bpfkit_metrics_family(m, "size_bytes", BPFKIT_HISTOGRAM, "Sizes");
	bpfkit_metrics_bytes(m);
	bpfkit_metrics_add_hist(m, NULL, le, &h);
	out = written(m);
	assert_non_null(strstr(out, "size_bytes_bucket{le=\"4096\"} 0\n"
				    "size_bytes_bucket{le=\"8192\"} 3\n"));
	assert_non_null(strstr(out, "size_bytes_sum 12288\n"
				    "size_bytes_count 3\n"));
	free(out);
	bpfkit_metrics_free(m);
}

static void test_max_series_folds(void **state)
{
	struct bpfkit_metrics *m = bpfkit_metrics_new(3);
	char name[16];
	char *out;
	int i;

	bpfkit_metrics_family(m, "c_total", BPFKIT_COUNTER, "C");
	for (i = 1; i <= 5; i++) {
		snprintf(name, sizeof(name), "k%d", i);
		bpfkit_metrics_add(
			m, (const char *[]){ "key", name, "pid", "1", NULL },
			i * 10);
	}
	out = written(m);
	/* The two largest kept, the other three added up in "other". */
	assert_non_null(strstr(out, "c_total{key=\"k5\",pid=\"1\"} 50\n"
				    "c_total{key=\"k4\",pid=\"1\"} 40\n"
				    "c_total{key=\"other\",pid=\"other\"} 60\n"
				    "# HELP bpfkit_metrics_folded_series"));
	assert_non_null(strstr(
		out, "bpfkit_metrics_folded_series{family=\"c_total\"} 3\n"));
	free(out);
	bpfkit_metrics_free(m);
}

static void test_http_requests(void **state)
{
	static const struct {
		const char *req;
		int status;
	} cases[] = {
		{ "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n", 200 },
		{ "GET /metrics HTTP/1.0\r\n\r\n", 200 },
		{ "GET /metrics?x=1 HTTP/1.1\n\n", 200 },
		{ "GET / HTTP/1.1\r\nAccept: */*\r\n\r\n", 200 },
		{ "GET /metrics HTTP/1.1\r\nHost: x\r\n",
		  0 }, /* more to come */
		{ "GET /metr", 0 },
		{ "POST /metrics HTTP/1.1\r\n", 405 },
		{ "HEAD /metrics HTTP/1.1\r\n\r\n", 405 },
		{ "GET /other HTTP/1.1\r\n\r\n", 404 },
		{ "GET /metricsx HTTP/1.1\r\n\r\n", 404 },
		{ "GET /metrics HTTP/2.0\r\n\r\n", 505 },
		{ "GET /metrics FOO/1.1\r\n\r\n", 400 },
		{ "GET metrics HTTP/1.1\r\n\r\n", 400 },
		{ "POST / /T\n", 400 }, /* a version shorter than HTTP/ */
		{ "GET  /metrics HTTP/1.1\r\n\r\n", 400 },
		{ "G\x01T /metrics HTTP/1.1\r\n\r\n", 400 },
		{ "\r\n", 400 },
		{ "GET /metrics HTTP/1.1\r\nno colon\r\n\r\n", 400 },
		{ "GET /metrics HTTP/1.1\r\n folded: x\r\n\r\n", 400 },
		{ "GET /metrics HTTP/1.1\r\nA: \x7f\r\n\r\n", 400 },
	};
	char big[300];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		print_message("%s\n", cases[i].req);
		assert_int_equal(bpfkit_http_parse(cases[i].req,
						   strlen(cases[i].req), 256),
				 cases[i].status);
	}
	/* A request line or headers past the limit, unfinished: 431. */
	memset(big, 'a', sizeof(big));
	assert_int_equal(bpfkit_http_parse(big, sizeof(big), 256), 431);
	memcpy(big, "GET / HTTP/1.1\r\nX: ", 19);
	assert_int_equal(bpfkit_http_parse(big, sizeof(big), 256), 431);
}

static void test_listen_addresses(void **state)
{
	struct sockaddr_storage ss;
	struct sockaddr_in *in = (struct sockaddr_in *)&ss;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&ss;
	static const char *const bad[] = { "",		 "9435",    ":",
					   ":-1",	 ":65536",  "1.2.3:80",
					   "host:1",	 "[::1:80", ":+80",
					   "1.2.3.4:80x" };
	unsigned int len;
	size_t i;

	assert_int_equal(bpfkit_metrics_parse_listen(":9435", &ss, &len), 0);
	assert_int_equal(in->sin_family, AF_INET);
	assert_int_equal(ntohs(in->sin_port), 9435);
	assert_int_equal(ntohl(in->sin_addr.s_addr), INADDR_LOOPBACK);
	assert_int_equal(bpfkit_metrics_parse_listen("0.0.0.0:80", &ss, &len),
			 0);
	assert_int_equal(in->sin_addr.s_addr, INADDR_ANY);
	assert_int_equal(bpfkit_metrics_parse_listen("[::1]:80", &ss, &len), 0);
	assert_int_equal(in6->sin6_family, AF_INET6);
	assert_int_equal(len, sizeof(*in6));
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		print_message("%s\n", bad[i]);
		assert_int_equal(bpfkit_metrics_parse_listen(bad[i], &ss, &len),
				 -22);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counters),
		cmocka_unit_test(test_task_labels),
		cmocka_unit_test(test_escaping),
		cmocka_unit_test(test_histogram_in_seconds),
		cmocka_unit_test(test_histogram_in_bytes),
		cmocka_unit_test(test_max_series_folds),
		cmocka_unit_test(test_http_requests),
		cmocka_unit_test(test_listen_addresses),
	};

	return cmocka_run_group_tests_name("metrics", tests, NULL, NULL);
}
