// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The event channel without a kernel: the merge of per-CPU perf buffers
 * (fake ones, handing over their records the way libbpf's reader does) in
 * time order, the passes it ends (a stop, the pass's time, the horizon)
 * with nothing lost or repeated, the 8-byte alignment of the data handed
 * to the tool, the lost records counted, the loss accounting, and the
 * printers that read records for a tool.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>
#include <cmocka.h>
#include "channel.h"
#include "output.h"
#include "run.h"

#define NR_CPUS 3
#define SOURCE_BYTES 8192
#define MAX_SEEN 128
#define ALL_NS UINT64_MAX /* a horizon no record reaches */

/*
 * A fake CPU's perf buffer: records as the kernel writes them (each at an
 * 8-byte boundary), consumed in order.
 */
struct source {
	__u64 mem[SOURCE_BYTES / sizeof(__u64)];
	size_t len; /* bytes written */
	size_t read; /* bytes consumed */
};

/* What reached the tool's callback. */
struct seen {
	int n;
	bool aligned; /* every record's data was 8-byte aligned */
	size_t size[MAX_SEEN];
	__u64 first[MAX_SEEN]; /* each record's first 8 bytes, read as __u64 */
	char text[MAX_SEEN][32]; /* and the bytes after them */
};

static struct source sources[NR_CPUS];
static struct bpfkit_perf_next next[NR_CPUS];
static struct bpfkit_perf_merge merge;
static struct bpfkit_sink sink;
static struct seen seen;
static int fill_err;

static enum bpfkit_verdict on_record(void *ctx, const void *data, size_t size)
{
	struct seen *s = ctx;
	size_t rest = size > sizeof(__u64) ? size - sizeof(__u64) : 0;

	s->aligned &= (uintptr_t)data % sizeof(__u64) == 0;
	s->size[s->n] = size;
	memcpy(&s->first[s->n], data,
	       size < sizeof(__u64) ? size : sizeof(__u64));
	memcpy(s->text[s->n], (const char *)data + sizeof(__u64),
	       rest < sizeof(s->text[0]) ? rest : sizeof(s->text[0]));
	s->n++;
	/* A tool's verdict: too short for a header, "f..." filtered. */
	if (size < sizeof(__u64))
		return BPFKIT_UNREADABLE;
	if (s->text[s->n - 1][0] == 'f')
		return BPFKIT_FILTERED;
	return BPFKIT_SHOWN;
}

/*
 * Hand CPU I's records to bpfkit_perf_take() as libbpf's reader does: each
 * one consumed, until the callback says done or none is left.
 */
static int fake_fill(void *ctx, size_t i)
{
	struct source *src = &sources[i];
	enum bpf_perf_event_ret ret = LIBBPF_PERF_EVENT_CONT;
	struct perf_event_header *e;

	if (fill_err)
		return fill_err;
	while (ret == LIBBPF_PERF_EVENT_CONT && src->read < src->len) {
		e = (struct perf_event_header *)((char *)src->mem + src->read);
		ret = bpfkit_perf_take(&merge, i, e);
		src->read += e->size;
	}
	return 0;
}

static int reset(void **state)
{
	size_t i;

	memset(sources, 0xee, sizeof(sources));
	for (i = 0; i < NR_CPUS; i++)
		sources[i].len = sources[i].read = 0;
	memset(next, 0, sizeof(next));
	memset(&seen, 0, sizeof(seen));
	seen.aligned = true;
	fill_err = 0;
	sink = (struct bpfkit_sink){ .fn = on_record, .ctx = &seen };
	merge = (struct bpfkit_perf_merge){ .sink = &sink,
					    .next = next,
					    .n = NR_CPUS,
					    .horizon_ns = ALL_NS,
					    .fill = fake_fill };
	return 0;
}

static int teardown(void **state)
{
	size_t i;

	for (i = 0; i < NR_CPUS; i++)
		free(next[i].data);
	return 0;
}

/* Append LEN bytes of record to CPU's buffer. */
static void put(int cpu, const void *rec, size_t len)
{
	struct source *src = &sources[cpu];

	assert_true(src->len + len <= SOURCE_BYTES);
	memcpy((char *)src->mem + src->len, rec, len);
	src->len += len;
}

/*
 * Write a sample as bpf_perf_event_output() does: header, raw size, data
 * (NS and TEXT) padded so that the record is a multiple of 8 bytes; its
 * data so starts 4 bytes past an 8-byte boundary. Returns the raw size.
 */
static __u32 put_sample(int cpu, __u64 ns, const char *text)
{
	char rec[256] = { 0 };
	size_t len = sizeof(ns) + strlen(text) + 1;
	struct perf_event_header hdr = {
		.type = PERF_RECORD_SAMPLE,
		.size = (sizeof(hdr) + sizeof(__u32) + len + 7) & ~7,
	};
	__u32 raw = hdr.size - sizeof(hdr) - sizeof(__u32);

	assert_true(hdr.size <= sizeof(rec));
	memcpy(rec, &hdr, sizeof(hdr));
	memcpy(rec + sizeof(hdr), &raw, sizeof(raw));
	memcpy(rec + sizeof(hdr) + sizeof(raw), &ns, sizeof(ns));
	memcpy(rec + sizeof(hdr) + sizeof(raw) + sizeof(ns), text,
	       strlen(text) + 1);
	put(cpu, rec, hdr.size);
	return raw;
}

static void put_lost(int cpu, __u64 lost)
{
	struct {
		struct perf_event_header hdr;
		__u64 id, lost;
	} rec = { { .type = PERF_RECORD_LOST, .size = sizeof(rec) }, 1, lost };

	put(cpu, &rec, sizeof(rec));
}

/* Every record of every fake buffer has been consumed. */
static bool all_read(void)
{
	size_t i;

	for (i = 0; i < NR_CPUS; i++)
		if (sources[i].read != sources[i].len)
			return false;
	return true;
}

/*
 * Three CPUs' buffers, each in time order, come out as one sequence in time
 * order; lost records in between are counted, not delivered.
 */
static void test_time_order_across_cpus(void **state)
{
	const __u64 want[] = { 10, 15, 20, 30, 31, 40, 45, 50 };
	size_t i;

	put_sample(0, 10, "a10");
	put_sample(0, 30, "a30");
	put_lost(0, 4);
	put_sample(0, 31, "a31");
	put_sample(0, 50, "a50");
	put_sample(1, 20, "b20");
	put_lost(1, 3);
	put_sample(1, 40, "b40");
	put_sample(2, 15, "c15");
	put_sample(2, 45, "c45");

	assert_int_equal(bpfkit_perf_merge(&merge), 1);
	assert_int_equal(seen.n, 8);
	for (i = 0; i < 8; i++)
		assert_true(seen.first[i] == want[i]);
	assert_string_equal(seen.text[2], "b20");
	assert_string_equal(seen.text[5], "b40");
	assert_string_equal(seen.text[6], "c45");
	assert_int_equal(sink.delivered, 8);
	assert_int_equal(sink.perf_lost, 7);
	assert_true(all_read());
}

/*
 * A sample's data sits 4 bytes past an 8-byte boundary in the buffer; the
 * tool gets it 8-byte aligned, whole, with perf's raw size.
 */
static void test_data_aligned(void **state)
{
	__u32 raw = put_sample(1, 0x0102030405060708ULL, "aligned text");

	assert_int_equal((sizeof(struct perf_event_header) + sizeof(__u32)) %
				 sizeof(__u64),
			 4);
	assert_int_equal(bpfkit_perf_merge(&merge), 1);
	assert_int_equal(seen.n, 1);
	assert_true(seen.aligned);
	assert_int_equal(seen.size[0], raw);
	assert_true(seen.first[0] == 0x0102030405060708ULL);
	assert_string_equal(seen.text[0], "aligned text");
}

/* A record bigger than any before it comes whole, in its place. */
static void test_big_record_whole(void **state)
{
	char text[200];

	memset(text, 'x', sizeof(text) - 1);
	text[sizeof(text) - 1] = '\0';
	put_sample(0, 1, "small");
	put_sample(0, 3, text);
	put_sample(1, 2, "b2");
	assert_int_equal(bpfkit_perf_merge(&merge), 1);
	assert_int_equal(seen.n, 3);
	assert_true(seen.first[2] == 3);
	assert_true(seen.size[2] >= sizeof(__u64) + sizeof(text));
	assert_memory_equal(seen.text[2], text, sizeof(seen.text[2]));
	assert_true(seen.aligned);
}

/* A record too short for its time comes first, and is unreadable. */
static void test_short_record_first(void **state)
{
	struct {
		struct perf_event_header hdr;
		__u32 raw;
		__u32 data;
	} rec = { { .type = PERF_RECORD_SAMPLE, .size = sizeof(rec) },
		  4,
		  0xabcd };

	put_sample(0, 5, "a5");
	put(1, &rec, sizeof(rec));
	assert_int_equal(bpfkit_perf_merge(&merge), 1);
	assert_int_equal(seen.n, 2);
	assert_int_equal(seen.size[0], 4);
	assert_true(seen.first[0] == 0xabcd);
	assert_true(seen.first[1] == 5);
	assert_int_equal(sink.unreadable, 1);
	assert_int_equal(sink.delivered, 1);
}

/* Nothing in any buffer: nothing delivered, the pass complete. */
static void test_empty(void **state)
{
	assert_int_equal(bpfkit_perf_merge(&merge), 1);
	assert_int_equal(seen.n, 0);
	assert_int_equal(sink.delivered, 0);
}

/*
 * A stop set during a record ends the pass after it; each buffer gave up
 * at most one record ahead of delivery; the next pass goes on in order,
 * nothing lost or repeated.
 */
static volatile sig_atomic_t stop_flag;

static enum bpfkit_verdict on_record_then_stop(void *ctx, const void *data,
					       size_t size)
{
	stop_flag = 1;
	return on_record(ctx, data, size);
}

static void test_stop_ends_pass(void **state)
{
	const __u64 want[] = { 1, 2, 3, 4, 5, 6 };
	size_t i, first[NR_CPUS];

	for (i = 0; i < NR_CPUS; i++) {
		put_sample(i, 1 + i, "first");
		first[i] = sources[i].len;
		put_sample(i, 4 + i, "second");
	}

	stop_flag = 0;
	sink.fn = on_record_then_stop;
	sink.stop = &stop_flag;
	assert_int_equal(bpfkit_perf_merge(&merge), 0);
	assert_int_equal(seen.n, 1);
	assert_int_equal(sink.delivered, 1);
	for (i = 0; i < NR_CPUS; i++)
		assert_int_equal(sources[i].read, first[i]);

	/* The next pass, the stop gone, reads on from there. */
	stop_flag = 0;
	sink.fn = on_record;
	assert_int_equal(bpfkit_perf_merge(&merge), 1);
	assert_int_equal(seen.n, 6);
	for (i = 0; i < 6; i++)
		assert_true(seen.first[i] == want[i]);
	assert_int_equal(sink.delivered, 6);
	assert_true(all_read());
}

/* A pass past its end time ends, however many records are left. */
static void test_pass_ends_on_time(void **state)
{
	__u64 ns;

	for (ns = 0; ns < 100; ns++)
		put_sample(ns % 2, ns, "t");
	sink.pass_end_ns = 1; /* long past */
	assert_int_equal(bpfkit_perf_merge(&merge), 0);
	assert_true(sink.delivered > 0 && sink.delivered < 100);

	sink.pass_end_ns = 0;
	assert_int_equal(bpfkit_perf_merge(&merge), 1);
	assert_int_equal(seen.n, 100);
	for (ns = 0; ns < 100; ns++)
		assert_true(seen.first[ns] == ns);
}

/*
 * A pass delivers the records stamped before its horizon; the others wait
 * and come in the next pass in time order with the records a CPU that was
 * empty got meanwhile, stamped before them.
 */
static void test_horizon(void **state)
{
	const __u64 want[] = { 10, 20, 26, 30, 40 };
	size_t i;

	put_sample(0, 10, "a10");
	put_sample(0, 30, "a30");
	put_sample(1, 20, "b20");
	put_sample(1, 40, "b40");
	merge.horizon_ns = 25;
	assert_int_equal(bpfkit_perf_merge(&merge), 1);
	assert_int_equal(seen.n, 2);
	assert_true(seen.first[0] == 10 && seen.first[1] == 20);

	put_sample(2, 26, "c26");
	merge.horizon_ns = 100;
	assert_int_equal(bpfkit_perf_merge(&merge), 1);
	assert_int_equal(seen.n, 5);
	for (i = 0; i < 5; i++)
		assert_true(seen.first[i] == want[i]);
	assert_true(all_read());
}

/* A buffer that cannot be read ends the pass with its error. */
static void test_fill_error(void **state)
{
	put_sample(0, 1, "a");
	fill_err = -ENOMEM;
	assert_int_equal(bpfkit_perf_merge(&merge), -ENOMEM);
	assert_int_equal(seen.n, 0);
}

/* Records read plus records lost are the records the BPF side produced. */
static void test_accounting(void **state)
{
	const struct bpfkit_stats percpu[2] = {
		{ .produced = 4, .dropped = 2 },
		{ .produced = 1, .dropped = 0 },
	};
	struct bpfkit_channel_stats s;

	put_sample(0, 1, "a");
	put_sample(0, 2, "b");
	put_lost(0, 2);
	put_sample(1, 3, "c");
	bpfkit_perf_merge(&merge);

	bpfkit_channel_tally(percpu, 2, &sink, &s);
	assert_int_equal(s.delivered, 3);
	assert_int_equal(s.lost, 2);
	assert_int_equal(s.produced, 5);
	assert_int_equal(s.delivered + s.lost, s.produced);
}

/* BPF counts drops perf never reports (no reader on a CPU): it wins. */
static void test_accounting_unreported_drops(void **state)
{
	const struct bpfkit_stats percpu[1] = { { .produced = 6,
						  .dropped = 3 } };
	struct bpfkit_channel_stats s;

	put_sample(0, 1, "a");
	put_lost(0, 1);
	put_sample(0, 2, "b");
	put_sample(0, 3, "c");
	bpfkit_perf_merge(&merge);

	bpfkit_channel_tally(percpu, 1, &sink, &s);
	assert_int_equal(s.lost, 3);
	assert_int_equal(s.delivered + s.lost, s.produced);
}

/*
 * Loss by reason: buffer full, BPF staging full, read failed (in BPF or a
 * record too short for the tool); filtered records are delivered, not
 * shown; shown + filtered + lost == delivered + lost == produced.
 */
static void test_accounting_reasons(void **state)
{
	const struct bpfkit_stats percpu[2] = {
		{ .produced = 7, .dropped = 2, .staging_full = 3 },
		{ .produced = 3, .read_failed = 1 },
	};
	struct {
		struct perf_event_header hdr;
		__u32 raw;
		__u32 data;
	} shortrec = { { .type = PERF_RECORD_SAMPLE, .size = sizeof(shortrec) },
		       4,
		       0 };
	struct bpfkit_channel_stats s;

	put_sample(0, 1, "a");
	put_sample(0, 2, "f");
	put(1, &shortrec, sizeof(shortrec));
	put_sample(1, 4, "b");
	bpfkit_perf_merge(&merge);

	bpfkit_channel_tally(percpu, 2, &sink, &s);
	assert_int_equal(s.delivered, 3);
	assert_int_equal(s.shown, 2);
	assert_int_equal(s.filtered, 1);
	assert_int_equal(s.buffer_full, 2);
	assert_int_equal(s.staging_full, 3);
	assert_int_equal(s.read_failed, 2);
	assert_int_equal(s.lost, 7);
	assert_int_equal(s.delivered + s.lost, s.produced);
	assert_int_equal(s.shown + s.filtered + s.lost, s.produced);
}

/* What a printer's parts were called for. */
static struct {
	int counted, text, json;
	int count_err; /* what count returns */
} calls;

static int count_part(const void *event)
{
	calls.counted++;
	return calls.count_err;
}

static void text_part(const void *event)
{
	calls.text++;
}

static void json_part(const void *event)
{
	calls.json++;
}

/*
 * A printer reads a record whole or calls it unreadable, counts it, then
 * prints it as text or JSON; with counts instead of events (-C) it only
 * counts; a count that fails stops the run, the record not printed.
 */
static void test_printer(void **state)
{
	struct bpfkit_printer p = { .size = 16,
				    .count = count_part,
				    .counting = "count tests",
				    .text = text_part,
				    .json = json_part };
	struct bpfkit_output_opts o = {};
	__u64 rec[3] = {};

	memset(&calls, 0, sizeof(calls));
	bpfkit_output_init(&o);
	assert_int_equal(bpfkit_print_event(&p, rec, 15), BPFKIT_UNREADABLE);
	assert_int_equal(calls.counted + calls.text + calls.json, 0);
	assert_int_equal(bpfkit_print_event(&p, rec, 24), BPFKIT_SHOWN);
	assert_int_equal(calls.counted, 1);
	assert_int_equal(calls.text, 1);
	o.json = true;
	bpfkit_output_init(&o);
	assert_int_equal(bpfkit_print_event(&p, rec, 16), BPFKIT_SHOWN);
	assert_int_equal(calls.json, 1);
	o.counts = true;
	bpfkit_output_init(&o);
	assert_int_equal(bpfkit_print_event(&p, rec, 16), BPFKIT_SHOWN);
	assert_int_equal(calls.counted, 3);
	assert_int_equal(calls.text + calls.json, 2);
	o = (struct bpfkit_output_opts){};
	bpfkit_output_init(&o);
	assert_int_equal(*bpfkit_stop_flag(), 0);
	calls.count_err = -ENOMEM;
	assert_int_equal(bpfkit_print_event(&p, rec, 16), BPFKIT_SHOWN);
	assert_int_equal(calls.text + calls.json, 2);
	assert_int_not_equal(*bpfkit_stop_flag(), 0);
	p.count = NULL;
	assert_int_equal(bpfkit_print_event(&p, rec, 16), BPFKIT_SHOWN);
	assert_int_equal(calls.text, 2);
}

#define TEST(f) cmocka_unit_test_setup_teardown(f, reset, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		TEST(test_time_order_across_cpus),
		TEST(test_data_aligned),
		TEST(test_big_record_whole),
		TEST(test_short_record_first),
		TEST(test_empty),
		TEST(test_stop_ends_pass),
		TEST(test_pass_ends_on_time),
		TEST(test_horizon),
		TEST(test_fill_error),
		TEST(test_accounting),
		TEST(test_accounting_unreported_drops),
		TEST(test_accounting_reasons),
		TEST(test_printer),
	};

	return cmocka_run_group_tests_name("channel", tests, NULL, NULL);
}
