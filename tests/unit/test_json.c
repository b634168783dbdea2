// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Escaping of hostile kernel bytes for JSON and for columns, and the JSON
 * Lines writer.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>
#include "capture.h"
#include "cli.h"
#include "output.h"

/* Escape LEN bytes of S and compare with EXPECT (quotes included). */
static void check_escape(const char *s, size_t len, const char *expect)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);

	assert_non_null(f);
	bpfkit_json_escape(f, s, len);
	fclose(f);
	assert_string_equal(buf, expect);
	free(buf);
}

static void test_plain(void **state)
{
	check_escape("bash", 16, "\"bash\"");
	check_escape("", 16, "\"\"");
}

static void test_quotes_and_backslashes(void **state)
{
	check_escape("a\"b\\c", 16, "\"a\\\"b\\\\c\"");
}

static void test_control_bytes(void **state)
{
	check_escape("a\nb\tc\x01\x1f\x7f", 16,
		     "\"a\\nb\\tc\\u0001\\u001f\\u007f\"");
}

static void test_stops_at_nul_and_len(void **state)
{
	check_escape("abc\0def", 7, "\"abc\"");
	check_escape("abcdef", 3, "\"abc\"");
}

static void test_valid_utf8_kept(void **state)
{
	check_escape("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x90\x9d", 32,
		     "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x90\x9d\"");
}

static void test_invalid_utf8_replaced(void **state)
{
	/* Lone continuation, truncated sequence, overlong, surrogate. */
	check_escape("\x80", 8, "\"\\ufffd\"");
	check_escape("a\xc3", 8, "\"a\\ufffd\"");
	check_escape("\xc0\xaf", 8, "\"\\ufffd\\ufffd\"");
	check_escape("\xed\xa0\x80", 8, "\"\\ufffd\\ufffd\\ufffd\"");
	check_escape("\xf4\x90\x80\x80", 8, "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");
	check_escape("\xff\xfe", 8, "\"\\ufffd\\ufffd\"");
}

/* A sequence cut by LEN is invalid, even if the next byte would fit. */
static void test_truncated_by_len(void **state)
{
	check_escape("\xe2\x82\xac", 2, "\"\\ufffd\\ufffd\"");
}

/* Escape LEN bytes of S for a column; compare text and counted width. */
static void check_col(const char *s, size_t len, bool quote, const char *expect,
		      size_t width)
{
	char *buf = NULL;
	size_t size = 0, n;
	FILE *f = open_memstream(&buf, &size);

	assert_non_null(f);
	n = bpfkit_col_escape(f, s, len, quote);
	fclose(f);
	assert_string_equal(buf, expect);
	assert_int_equal(n, width);
	free(buf);
}

/* No byte can end a column's line: a forged "\n6666 0 fake" stays put. */
static void test_col_control_bytes(void **state)
{
	check_col("x\n6666 0 fake", 16, false, "x\\x0a6666 0 fake", 16);
	check_col("\x1b[2J\t\x7f", 16, false, "\\x1b[2J\\x09\\x7f", 15);
}

static void test_col_utf8_and_invalid(void **state)
{
	check_col("caf\xc3\xa9", 16, false, "caf\xc3\xa9", 4);
	check_col("a\xc3", 16, false, "a\\xc3", 5);
	check_col("\xe2\x82\xac", 2, false, "\\xe2\\x82", 8);
}

/* C1 controls (CSI U+009B acts as ESC [ on some terminals) are escaped. */
static void test_col_c1_controls(void **state)
{
	check_col("\xc2\x9b"
		  "2J",
		  16, false, "\\u{009b}2J", 10);
	check_col("a\xc2\x80\xc2\x9f", 16, false, "a\\u{0080}\\u{009f}", 17);
	check_col("\xc2\xa0", 16, false, "\xc2\xa0", 1);
}

/* Bidi embeddings, overrides and isolates cannot reorder a column. */
static void test_col_bidi_controls(void **state)
{
	check_col("\xe2\x80\xaa\xe2\x80\xae", 16, false, "\\u{202a}\\u{202e}",
		  16);
	check_col("x\xe2\x81\xa6\xe2\x81\xa9", 16, false, "x\\u{2066}\\u{2069}",
		  17);
	/* Their neighbours U+202F and U+206A are kept. */
	check_col("\xe2\x80\xaf\xe2\x81\xaa", 16, false,
		  "\xe2\x80\xaf\xe2\x81\xaa", 2);
}

/* Line and paragraph separators cannot break a line. */
static void test_col_line_separators(void **state)
{
	check_col("a\xe2\x80\xa8"
		  "6666 0 fake",
		  32, false, "a\\u{2028}6666 0 fake", 20);
	check_col("\xe2\x80\xa9", 16, false, "\\u{2029}", 8);
}

static void test_col_quote_and_len(void **state)
{
	check_col("a\"b\\c", 16, false, "a\"b\\c", 5);
	check_col("a\"b\\c", 16, true, "a\\\"b\\\\c", 7);
	check_col("abc\0def", 7, false, "abc", 3);
	check_col("abcdef", 3, false, "abc", 3);
}

static void test_object(void **state)
{
	struct bpfkit_json j;
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);

	bpfkit_json_begin(&j, f, NULL);
	bpfkit_json_int(&j, "pid", -1);
	bpfkit_json_uint(&j, "n", 18446744073709551615ULL);
	bpfkit_json_bool(&j, "ok", true);
	bpfkit_json_str(&j, "comm", "x\"y", 16);
	bpfkit_json_array_begin(&j, "args");
	bpfkit_json_str(&j, NULL, "a", 4);
	bpfkit_json_str(&j, NULL, "b", 4);
	bpfkit_json_array_end(&j);
	bpfkit_json_array_begin(&j, "none");
	bpfkit_json_array_end(&j);
	bpfkit_json_end(&j);
	fclose(f);
	assert_string_equal(buf, "{\"pid\":-1,\"n\":18446744073709551615,"
				 "\"ok\":true,\"comm\":\"x\\\"y\","
				 "\"args\":[\"a\",\"b\"],\"none\":[]}\n");
	free(buf);
}

/* The "ts" a record gets with -t: its kernel time minus the start time. */
static double record_ts(const struct bpfkit_record *rec)
{
	struct bpfkit_json j;
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);
	double ts;

	bpfkit_json_begin(&j, f, rec);
	bpfkit_json_end(&j);
	fclose(f);
	assert_int_equal(sscanf(buf, "{\"ts\":%lf}", &ts), 1);
	free(buf);
	return ts;
}

/* -t shows the time the kernel stamped a record with, not the print time. */
static void test_record_time(void **state)
{
	const struct bpfkit_output_opts timed = { .rel_time = true };
	const struct bpfkit_output_opts plain = {};
	struct bpfkit_record a, b;
	struct timespec now;
	double ta, tb;

	bpfkit_output_init(&timed);
	bpfkit_output_start();
	clock_gettime(CLOCK_MONOTONIC, &now);
	a.ktime_ns = now.tv_sec * 1000000000ULL + now.tv_nsec + 1500000000ULL;
	b.ktime_ns = a.ktime_ns + 50000000ULL;
	tb = record_ts(&b);
	ta = record_ts(&a);
	bpfkit_output_init(&plain);
	assert_true(ta >= 1.5 && ta < 1.51);
	assert_true(tb - ta > 0.049999 && tb - ta < 0.050001);
}

/* The JSON "time" of a record: -T, its kernel time on the wall clock. */
static void record_time(const struct bpfkit_record *rec, char *buf, size_t len)
{
	struct bpfkit_json j;
	char *out = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&out, &size);

	bpfkit_json_begin(&j, f, rec);
	bpfkit_json_end(&j);
	fclose(f);
	assert_int_equal(sscanf(out, "{\"time\":\"%15[0-9:]\"}", buf), 1);
	assert_true(strlen(buf) < len);
	free(out);
}

/* HH:MM:SS of the wall clock SECONDS from now. */
static void wall_in(time_t seconds, char *buf, size_t len)
{
	time_t t = time(NULL) + seconds;
	struct tm tm;

	localtime_r(&t, &tm);
	strftime(buf, len, "%H:%M:%S", &tm);
}

/* -T shows the wall-clock time of the record's kernel time, an hour ahead. */
static void test_record_wall_time(void **state)
{
	const struct bpfkit_output_opts timed = { .wall_time = true };
	const struct bpfkit_output_opts plain = {};
	char got[16], before[16], after[16];
	struct bpfkit_record rec;
	struct timespec now;

	bpfkit_output_init(&timed);
	bpfkit_output_start();
	wall_in(3600, before, sizeof(before));
	clock_gettime(CLOCK_MONOTONIC, &now);
	rec.ktime_ns = (now.tv_sec + 3600) * 1000000000ULL + now.tv_nsec;
	record_time(&rec, got, sizeof(got));
	wall_in(3600, after, sizeof(after));
	bpfkit_output_init(&plain);
	assert_true(!strcmp(got, before) || !strcmp(got, after));
}

static void print_known(const void *arg)
{
	bpfkit_print_task(181, "dd");
}

static void print_unknown(const void *arg)
{
	bpfkit_print_task(181, NULL);
}

/* A task's PID and COMM columns; "-" in both when no task is known. */
static void test_task_columns(void **state)
{
	char *s = stdout_of(print_known, NULL);

	assert_string_equal(s, "181     dd              ");
	free(s);
	s = stdout_of(print_unknown, NULL);
	assert_string_equal(s, "-       -               ");
	free(s);
}

/*
 * A task's pid, uid and comm in JSON, nothing when none is known; a
 * task's pid, tid, uid and comm.
 */
static void test_json_owner(void **state)
{
	struct bpfkit_json j;
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);

	assert_non_null(f);
	bpfkit_json_begin(&j, f, NULL);
	bpfkit_json_owner(&j, 181, 1000, "dd");
	bpfkit_json_end(&j);
	bpfkit_json_begin(&j, f, NULL);
	bpfkit_json_owner(&j, 181, 1000, NULL);
	bpfkit_json_end(&j);
	bpfkit_json_begin(&j, f, NULL);
	bpfkit_json_task(&j, 181, 182, 1000, "dd");
	bpfkit_json_end(&j);
	fclose(f);
	assert_string_equal(
		buf,
		"{\"pid\":181,\"uid\":1000,\"comm\":\"dd\"}\n{}\n"
		"{\"pid\":181,\"tid\":182,\"uid\":1000,\"comm\":\"dd\"}\n");
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_task_columns),
		cmocka_unit_test(test_json_owner),
		cmocka_unit_test(test_plain),
		cmocka_unit_test(test_quotes_and_backslashes),
		cmocka_unit_test(test_control_bytes),
		cmocka_unit_test(test_stops_at_nul_and_len),
		cmocka_unit_test(test_valid_utf8_kept),
		cmocka_unit_test(test_invalid_utf8_replaced),
		cmocka_unit_test(test_truncated_by_len),
		cmocka_unit_test(test_col_control_bytes),
		cmocka_unit_test(test_col_utf8_and_invalid),
		cmocka_unit_test(test_col_quote_and_len),
		cmocka_unit_test(test_col_c1_controls),
		cmocka_unit_test(test_col_bidi_controls),
		cmocka_unit_test(test_col_line_separators),
		cmocka_unit_test(test_object),
		cmocka_unit_test(test_record_time),
		cmocka_unit_test(test_record_wall_time),
	};

	return cmocka_run_group_tests_name("json", tests, NULL, NULL);
}
