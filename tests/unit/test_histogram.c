// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The shared histogram: the buckets values fall in (the BPF side's code),
 * bucket bounds, percentiles, the text and JSON forms, the histogram
 * options on the command line, and the reader's intervals from hash and
 * array maps (which need root, to create them).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "cli.h"
#include "histogram.h"
#include "output.h"

static const struct bpfkit_hist_cfg log2_cfg = { .unit_ns = 1000 };
static const struct bpfkit_hist_cfg linear_cfg = { .unit_ns = 1000,
						   .linear_step = 10 };

static void test_log2_slots(void **state)
{
	static const struct {
		__u64 value;
		__u32 slot;
	} cases[] = {
		{ 0, 0 },
		{ 1, 0 },
		{ 2, 1 },
		{ 3, 1 },
		{ 4, 2 },
		{ 7, 2 },
		{ 8, 3 },
		{ 1023, 9 },
		{ 1024, 10 },
		{ 1ULL << 32, 32 },
		{ (1ULL << 33) - 1, 32 },
		{ ~0ULL, BPFKIT_HIST_SLOTS - 1 },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_int_equal(bpfkit_hist_slot(&log2_cfg, cases[i].value),
				 cases[i].slot);
}

static void test_bounds_hold_their_values(void **state)
{
	__u64 v;
	unsigned int s;

	/* Every value is within its bucket's bounds, both kinds. */
	for (v = 0; v < 5000; v++) {
		s = bpfkit_hist_slot(&log2_cfg, v);
		assert_true(bpfkit_hist_min(&log2_cfg, s) <= v);
		assert_true(v <= bpfkit_hist_max(&log2_cfg, s));
		s = bpfkit_hist_slot(&linear_cfg, v);
		if (s < BPFKIT_HIST_SLOTS - 1) {
			assert_true(bpfkit_hist_min(&linear_cfg, s) <= v);
			assert_true(v <= bpfkit_hist_max(&linear_cfg, s));
		}
	}
	/* Linear values past the last bucket go in it. */
	assert_int_equal(bpfkit_hist_slot(&linear_cfg, 10 * BPFKIT_HIST_SLOTS),
			 BPFKIT_HIST_SLOTS - 1);
	assert_int_equal(bpfkit_hist_min(&linear_cfg, 3), 30);
	assert_int_equal(bpfkit_hist_max(&linear_cfg, 3), 39);
}

static void test_percentiles(void **state)
{
	struct bpfkit_hist h = { .count = 100 };

	/* 50 values in [4, 7], 50 in [8, 15]. */
	h.slots[2] = 50;
	h.slots[3] = 50;
	assert_float_equal(bpfkit_hist_percentile(&log2_cfg, &h, 0.5), 8.0,
			   1e-9);
	assert_float_equal(bpfkit_hist_percentile(&log2_cfg, &h, 0.25), 6.0,
			   1e-9);
	assert_float_equal(bpfkit_hist_percentile(&log2_cfg, &h, 0.99), 15.84,
			   1e-9);
	h = (struct bpfkit_hist){ 0 };
	assert_float_equal(bpfkit_hist_percentile(&log2_cfg, &h, 0.99), 0,
			   1e-9);
}

static char *text_of(const struct bpfkit_hist_cfg *cfg,
		     const struct bpfkit_hist *h)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);

	assert_non_null(f);
	bpfkit_hist_print_text(f, cfg, "usecs", h);
	fclose(f);
	return buf;
}

static void test_text(void **state)
{
	struct bpfkit_hist h = { .count = 6, .sum_ns = 30000 };
	char *out;

	h.slots[1] = 2;
	h.slots[3] = 4;
	out = text_of(&log2_cfg, &h);
	assert_string_equal(
		out,
		"     usecs               : count    distribution\n"
		"         0 -> 1          : 0        |                                        |\n"
		"         2 -> 3          : 2        |********************                    |\n"
		"         4 -> 7          : 0        |                                        |\n"
		"         8 -> 15         : 4        |****************************************|\n"
		"count 6 avg 5.000 p99 15.880\n");
	free(out);

	h = (struct bpfkit_hist){ 0 };
	out = text_of(&log2_cfg, &h);
	assert_string_equal(out, "no events\n");
	free(out);
}

static void test_totals_match_json(void **state)
{
	struct bpfkit_hist h = { .count = 4, .sum_ns = 10500 };
	struct bpfkit_json j;
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);

	h.slots[1] = 4;
	bpfkit_hist_print_totals(f, &log2_cfg, &h);
	fclose(f);
	assert_string_equal(buf, "        10.500          4        2.625\n");
	free(buf);

	/* The same total, count and average as the JSON gives. */
	buf = NULL;
	f = open_memstream(&buf, &size);
	bpfkit_json_begin(&j, f, NULL);
	bpfkit_hist_json(&j, &log2_cfg, "usecs", &h);
	bpfkit_json_end(&j);
	fclose(f);
	assert_non_null(
		strstr(buf, "\"count\":4,\"sum\":10.500,\"avg\":2.625,"));
	free(buf);
}

static void test_json(void **state)
{
	struct bpfkit_hist h = { .count = 3, .sum_ns = 45000 };
	struct bpfkit_json j;
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);

	h.slots[1] = 3;
	bpfkit_json_begin(&j, f, NULL);
	bpfkit_hist_json(&j, &linear_cfg, "msecs", &h);
	bpfkit_json_end(&j);
	fclose(f);
	assert_string_equal(
		buf,
		"{\"unit\":\"msecs\",\"buckets\":[{\"min\":0,\"max\":9,\"count\":0},"
		"{\"min\":10,\"max\":19,\"count\":3}],\"count\":3,\"sum\":45.000,"
		"\"avg\":15.000,\"p50\":15.000,\"p90\":19.000,\"p99\":19.900}\n");
	free(buf);
}

static const struct bpfkit_tool hist_tool = {
	.name = "histtool",
	.doc = "A histogram tool.",
	.args_doc = "[INTERVAL [COUNT]]",
	.options = BPFKIT_OPT_JSON | BPFKIT_OPT_HIST,
};

static void parse(int argc, char **argv)
{
	memset(&bpfkit_opts.hist, 0, sizeof(bpfkit_opts.hist));
	bpfkit_parse(&hist_tool, argc, argv);
}

static void test_options(void **state)
{
	char *a[] = { "histtool", "-m", "-T", "--cumulative", "--linear", "5",
		      "2",	  "7",	NULL };
	char *b[] = { "histtool", "-i", "3", "4", NULL };
	struct bpfkit_hist_cfg cfg;

	parse(8, a);
	assert_int_equal(bpfkit_opts.hist.interval, 2);
	assert_int_equal(bpfkit_opts.hist.count, 7);
	assert_true(bpfkit_opts.hist.millis && bpfkit_opts.hist.timestamp &&
		    bpfkit_opts.hist.cumulative);
	bpfkit_hist_cfg_init(&cfg);
	assert_int_equal(cfg.unit_ns, 1000000);
	assert_int_equal(cfg.linear_step, 5);
	assert_string_equal(bpfkit_hist_unit(), "msecs");

	parse(4, b);
	assert_int_equal(bpfkit_opts.hist.interval, 3);
	assert_int_equal(bpfkit_opts.hist.count, 4);
}

/* Sizes: bytes in Kbyte buckets, keyed by process; 4 KiB in 4 -> 7. */
static void test_io_sizes(void **state)
{
	char *a[] = { "histtool", NULL };
	struct bpfkit_hist_cfg cfg;

	parse(1, a);
	bpfkit_hist_io_sizes();
	bpfkit_hist_cfg_init(&cfg);
	assert_int_equal(cfg.unit_ns, 1024);
	assert_int_equal(cfg.unit_shift, 10);
	assert_int_equal(cfg.by, BPFKIT_HIST_PROCESS);
	assert_string_equal(bpfkit_hist_unit(), "Kbytes");
	assert_int_equal(bpfkit_hist_slot_ns(&cfg, 2047), 0);
	assert_int_equal(bpfkit_hist_slot_ns(&cfg, 4096), 2);
	assert_int_equal(bpfkit_hist_slot_ns(&cfg, 8191), 2);
	assert_int_equal(bpfkit_hist_slot_ns(&cfg, 65536), 6);
	/* Another parse starts over, in times. */
	parse(1, a);
	assert_string_equal(bpfkit_hist_unit(), "usecs");
}

/*
 * bpfkit_hist_slot_ns(), the BPF side's, puts every value in the bucket
 * that dividing by the unit first does: all values up to 4 ms, each
 * multiple of the unit around every power of two, and random ones.
 */
static void test_slot_without_division(void **state)
{
	const __u64 units[] = { 1000, 1024, 1000000 };
	struct bpfkit_hist_cfg cfg = {};
	__u64 ns, x = 88172645463325252ULL;
	int u, b, d, i;

	for (u = 0; u < 3; u++) {
		cfg.unit_ns = units[u];
		cfg.unit_shift = bpfkit_log2(units[u]);
		for (ns = 0; ns <= 4000000; ns++)
			assert_int_equal(bpfkit_hist_slot_ns(&cfg, ns),
					 bpfkit_hist_slot(&cfg, ns / units[u]));
		for (b = 0; b < 54; b++)
			for (d = -2; d <= 2; d++) {
				ns = ((1ULL << b) + d) * units[u];
				assert_int_equal(
					bpfkit_hist_slot_ns(&cfg, ns),
					bpfkit_hist_slot(&cfg, ns / units[u]));
				assert_int_equal(
					bpfkit_hist_slot_ns(&cfg, ns - 1),
					bpfkit_hist_slot(&cfg,
							 (ns - 1) / units[u]));
			}
		for (i = 0; i < 1000000; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			ns = x >> (i % 40);
			assert_int_equal(bpfkit_hist_slot_ns(&cfg, ns),
					 bpfkit_hist_slot(&cfg, ns / units[u]));
		}
	}
	/* Linear buckets divide, as before. */
	cfg.linear_step = 5;
	assert_int_equal(bpfkit_hist_slot_ns(&cfg, 12000000), 2);
}

/* A histogram map of TYPE with one key; skips the test without root. */
static int hist_map(enum bpf_map_type type)
{
	int fd = bpf_map_create(type, NULL, sizeof(__u32),
				sizeof(struct bpfkit_hist), 1, NULL);

	if (fd < 0)
		skip();
	return fd;
}

/* Start capturing stdout as JSON Lines; returns the saved stdout. */
static int capture(FILE *f)
{
	const struct bpfkit_output_opts json = { .json = true };
	int saved;

	assert_non_null(f);
	saved = dup(STDOUT_FILENO);
	fflush(stdout);
	dup2(fileno(f), STDOUT_FILENO);
	bpfkit_output_init(&json);
	return saved;
}

/* Stop capturing into F: its first MAX lines into LINES; returns how many. */
static int captured(FILE *f, int saved, char **lines, int max)
{
	char line[512];
	int n = 0;

	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	rewind(f);
	while (n < max && fgets(line, sizeof(line), f))
		lines[n++] = strdup(line);
	fclose(f);
	return n;
}

/* Keys that found the map full are reported like lost events, once each. */
static void test_missed_reported_as_lost(void **state)
{
	const struct bpfkit_hist_keys keys = { .key_size = sizeof(__u32) };
	int fd = hist_map(BPF_MAP_TYPE_HASH), saved, n;
	struct bpfkit_hist_reader *r;
	volatile __u64 missed = 7;
	char *lines[6] = {};
	FILE *f = tmpfile();

	saved = capture(f);
	/* An empty map: every interval is empty, only the losses change. */
	assert_int_equal(bpfkit_hist_open(&r, fd, &keys, &missed), 0);
	bpfkit_hist_report(r);
	bpfkit_hist_report(r);
	missed = 10;
	bpfkit_hist_report(r);
	bpfkit_hist_free(r);
	close(fd);
	n = captured(f, saved, lines, 6);
	assert_int_equal(n, 5);
	assert_non_null(strstr(
		lines[0],
		"\"interval\":1,\"unit\":\"usecs\",\"buckets\":[],\"count\":0,"));
	assert_string_equal(lines[1],
			    "{\"type\":\"lost\",\"lost\":7,\"total\":7}\n");
	assert_non_null(strstr(lines[2], "\"interval\":2,"));
	assert_non_null(strstr(lines[3], "\"interval\":3,"));
	assert_string_equal(lines[4],
			    "{\"type\":\"lost\",\"lost\":3,\"total\":10}\n");
	while (n--)
		free(lines[n]);
}

/*
 * An array map's entry only grows: each interval reports what it gained,
 * --cumulative all of it.
 */
static void test_array_reports_what_each_interval_added(void **state)
{
	const struct bpfkit_hist_keys keys = { .key_size = sizeof(__u32) };
	struct bpfkit_hist h = { .count = 3, .sum_ns = 9000 };
	int fd = hist_map(BPF_MAP_TYPE_ARRAY), saved, n;
	struct bpfkit_hist_reader *r;
	volatile __u64 missed = 0;
	char *lines[5] = {};
	FILE *f = tmpfile();
	__u32 key = 0;

	saved = capture(f);
	assert_int_equal(bpfkit_hist_open(&r, fd, &keys, &missed), 0);
	h.slots[1] = 3;
	assert_int_equal(bpf_map_update_elem(fd, &key, &h, BPF_ANY), 0);
	bpfkit_hist_report(r);
	h.slots[3] = 2;
	h.count = 5;
	h.sum_ns = 29000;
	assert_int_equal(bpf_map_update_elem(fd, &key, &h, BPF_ANY), 0);
	bpfkit_hist_report(r);
	bpfkit_hist_report(r);
	bpfkit_hist_free(r);
	close(fd);
	n = captured(f, saved, lines, 5);
	assert_int_equal(n, 3);
	assert_non_null(strstr(lines[0], "{\"min\":2,\"max\":3,\"count\":3}],"
					 "\"count\":3,\"sum\":9.000,"));
	assert_non_null(strstr(lines[1], "[{\"min\":0,\"max\":1,\"count\":0},"
					 "{\"min\":2,\"max\":3,\"count\":0},"
					 "{\"min\":4,\"max\":7,\"count\":0},"
					 "{\"min\":8,\"max\":15,\"count\":2}],"
					 "\"count\":2,\"sum\":20.000,"));
	assert_non_null(strstr(lines[2], "\"interval\":3,\"unit\":\"usecs\","
					 "\"buckets\":[],\"count\":0,"));
	while (n--)
		free(lines[n]);
}

/*
 * A per-CPU array's entry is each CPU's own histogram: an interval reports
 * what all CPUs' copies gained since the last, added up.
 */
static void test_percpu_array_sums_the_cpus(void **state)
{
	const struct bpfkit_hist_keys keys = { .key_size = sizeof(__u32) };
	int fd = hist_map(BPF_MAP_TYPE_PERCPU_ARRAY), saved, n, cpus, cpu;
	struct bpfkit_hist_reader *r;
	volatile __u64 missed = 0;
	struct bpfkit_hist *per;
	char *lines[3] = {}, want[128];
	FILE *f = tmpfile();
	__u32 key = 0;

	cpus = libbpf_num_possible_cpus();
	assert_true(cpus > 0);
	per = calloc(cpus, sizeof(*per));
	assert_non_null(per);
	saved = capture(f);
	assert_int_equal(bpfkit_hist_open(&r, fd, &keys, &missed), 0);
	/* CPU I holds I + 1 values of 2-3 us, 2500 ns each. */
	for (cpu = 0; cpu < cpus; cpu++) {
		per[cpu].slots[1] = cpu + 1;
		per[cpu].count = cpu + 1;
		per[cpu].sum_ns = 2500ULL * (cpu + 1);
	}
	assert_int_equal(bpf_map_update_elem(fd, &key, per, BPF_ANY), 0);
	bpfkit_hist_report(r);
	/* The last CPU gains one value of 8-15 us. */
	per[cpus - 1].slots[3]++;
	per[cpus - 1].count++;
	per[cpus - 1].sum_ns += 10000;
	assert_int_equal(bpf_map_update_elem(fd, &key, per, BPF_ANY), 0);
	bpfkit_hist_report(r);
	bpfkit_hist_free(r);
	close(fd);
	n = captured(f, saved, lines, 3);
	assert_int_equal(n, 2);
	snprintf(want, sizeof(want),
		 "{\"min\":2,\"max\":3,\"count\":%d}],\"count\":%d,",
		 cpus * (cpus + 1) / 2, cpus * (cpus + 1) / 2);
	assert_non_null(strstr(lines[0], want));
	assert_non_null(strstr(lines[1], "{\"min\":8,\"max\":15,\"count\":1}],"
					 "\"count\":1,\"sum\":10.000,"));
	while (n--)
		free(lines[n]);
	free(per);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_log2_slots),
		cmocka_unit_test(test_slot_without_division),
		cmocka_unit_test(test_bounds_hold_their_values),
		cmocka_unit_test(test_percentiles),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_totals_match_json),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_options),
		cmocka_unit_test(test_io_sizes),
		cmocka_unit_test(test_missed_reported_as_lost),
		cmocka_unit_test(test_percpu_array_sums_the_cpus),
		cmocka_unit_test(test_array_reports_what_each_interval_added),
	};

	return cmocka_run_group_tests_name("histogram", tests, NULL, NULL);
}
