// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The event channel without a kernel: the perf record parser on synthetic
 * rings (samples, lost records, a record that wraps at the ring's end, a
 * sample's data 4 bytes past an 8-byte boundary, a stop during a pass), the
 * merge of per-CPU rings by record time and its loss accounting.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <linux/perf_event.h>
#include <cmocka.h>
#include "channel.h"

#define RING_SIZE 256
#define MAX_SEEN 8

/* What the parser handed to the tool's callback. */
struct seen {
	int n;
	bool aligned; /* every record's data was 8-byte aligned */
	size_t size[MAX_SEEN];
	__u64 first[MAX_SEEN]; /* each record's first 8 bytes, read as __u64 */
	char text[MAX_SEEN][32]; /* and the bytes after them */
};

static __u64 ring_mem[RING_SIZE / sizeof(__u64)];
static char *ring = (char *)ring_mem; /* where put() writes */
static struct seen seen;
static struct bpfkit_sink sink;

static enum bpfkit_verdict on_record(void *ctx, const void *data, size_t size)
{
	struct seen *s = ctx;

	s->aligned &= (uintptr_t)data % sizeof(__u64) == 0;
	s->size[s->n] = size;
	s->first[s->n] = *(const __u64 *)data;
	memcpy(s->text[s->n], (const char *)data + sizeof(__u64),
	       sizeof(s->text[0]));
	s->n++;
	/* A tool's verdict: records reading "f..." filtered, "u..." short. */
	if (s->text[s->n - 1][0] == 'f')
		return BPFKIT_FILTERED;
	if (s->text[s->n - 1][0] == 'u')
		return BPFKIT_UNREADABLE;
	return BPFKIT_SHOWN;
}

static int reset(void **state)
{
	memset(ring_mem, 0xee, sizeof(ring_mem));
	memset(&seen, 0, sizeof(seen));
	seen.aligned = true;
	sink = (struct bpfkit_sink){ .fn = on_record, .ctx = &seen };
	return 0;
}

/* Write LEN bytes at offset OFF of the ring, wrapping at its end. */
static void put(__u64 off, const void *data, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		ring[(off + i) % RING_SIZE] = ((const char *)data)[i];
}

/*
 * Write a sample as bpf_perf_event_output() does: header, raw size, data
 * padded so that the record is a multiple of 8 bytes. Returns its size.
 */
static __u64 put_sample(__u64 off, __u64 first, const char *text)
{
	size_t len = sizeof(first) + strlen(text) + 1;
	struct perf_event_header hdr = {
		.type = PERF_RECORD_SAMPLE,
		.size = (sizeof(hdr) + sizeof(__u32) + len + 7) & ~7,
	};
	__u32 raw = hdr.size - sizeof(hdr) - sizeof(__u32);

	put(off, &hdr, sizeof(hdr));
	put(off + sizeof(hdr), &raw, sizeof(raw));
	put(off + sizeof(hdr) + sizeof(raw), &first, sizeof(first));
	put(off + sizeof(hdr) + sizeof(raw) + sizeof(first), text,
	    strlen(text) + 1);
	return hdr.size;
}

/* Read one ring from TAIL to HEAD; returns where reading stopped. */
static __u64 read_one(__u64 tail, __u64 head)
{
	struct bpfkit_perf_cursor c = {
		.ring = ring, .size = RING_SIZE, .tail = tail, .head = head
	};

	bpfkit_perf_merge(&sink, &c, 1);
	return c.tail;
}

static __u64 put_lost(__u64 off, __u64 lost)
{
	struct {
		struct perf_event_header hdr;
		__u64 id, lost;
	} rec = { { .type = PERF_RECORD_LOST, .size = sizeof(rec) }, 1, lost };

	put(off, &rec, sizeof(rec));
	return sizeof(rec);
}

static void test_sample(void **state)
{
	__u64 end = put_sample(0, 0x1122334455667788ULL, "hello");

	assert_int_equal(read_one(0, end), end);
	assert_int_equal(seen.n, 1);
	assert_int_equal(sink.delivered, 1);
	/* 8 + 6 bytes of data, padded: the record is 32 bytes. */
	assert_int_equal(seen.size[0], 32 - 12);
	assert_true(seen.first[0] == 0x1122334455667788ULL);
	assert_string_equal(seen.text[0], "hello");
}

/* A stop set during a record ends the pass after it, the rest left unread. */
static volatile sig_atomic_t stop_flag;

static enum bpfkit_verdict on_record_then_stop(void *ctx, const void *data,
					       size_t size)
{
	stop_flag = 1;
	return on_record(ctx, data, size);
}

static void test_stop_ends_pass(void **state)
{
	__u64 first = put_sample(0, 1, "a");
	__u64 end = first + put_sample(first, 2, "b");

	stop_flag = 0;
	sink.fn = on_record_then_stop;
	sink.stop = &stop_flag;
	assert_int_equal(read_one(0, end), first);
	assert_int_equal(seen.n, 1);
	assert_int_equal(sink.delivered, 1);
	/* The next pass, the stop gone, reads on from there. */
	stop_flag = 0;
	sink.fn = on_record;
	assert_int_equal(read_one(first, end), end);
	assert_true(seen.n == 2 && seen.first[1] == 2);
}

static void test_lost(void **state)
{
	__u64 end = 0;

	end += put_sample(end, 1, "a");
	end += put_lost(end, 5);
	end += put_sample(end, 2, "b");
	end += put_lost(end, 2);

	assert_int_equal(read_one(0, end), end);
	assert_int_equal(seen.n, 2);
	assert_true(seen.first[0] == 1 && seen.first[1] == 2);
	assert_int_equal(sink.delivered, 2);
	assert_int_equal(sink.perf_lost, 7);
}

/* A record that starts 16 bytes before the end continues at the start. */
static void test_wrap_at_ring_end(void **state)
{
	__u64 tail = 3 * RING_SIZE + RING_SIZE - 16, head;

	head = tail + put_sample(tail, 0xa5a5a5a5deadbeefULL, "wrapped text");
	head += put_sample(head, 3, "next");

	assert_int_equal(read_one(tail, head), head);
	assert_int_equal(seen.n, 2);
	assert_true(seen.first[0] == 0xa5a5a5a5deadbeefULL);
	assert_string_equal(seen.text[0], "wrapped text");
	assert_true(seen.first[1] == 3);
	assert_string_equal(seen.text[1], "next");
}

/* The header ends the ring: the size and the data are at its start. */
static void test_wrap_after_header(void **state)
{
	__u64 tail = RING_SIZE - 8, head;

	head = tail + put_sample(tail, 42, "split");
	assert_int_equal(read_one(tail, head), head);
	assert_int_equal(seen.n, 1);
	assert_true(seen.first[0] == 42);
	assert_string_equal(seen.text[0], "split");
}

/* Sample data sits 4 bytes past an 8-byte boundary; the tool gets it aligned. */
static void test_sample_realigned(void **state)
{
	__u64 end = put_sample(0, 0x0102030405060708ULL, "x");

	assert_int_equal((uintptr_t)(ring + sizeof(struct perf_event_header) +
				     sizeof(__u32)) %
				 sizeof(__u64),
			 4);
	read_one(0, end);
	assert_int_equal(seen.n, 1);
	assert_true(seen.aligned);
	assert_true(seen.first[0] == 0x0102030405060708ULL);
}

/* Nothing between tail and head: nothing delivered, tail unchanged. */
static void test_empty(void **state)
{
	assert_int_equal(read_one(96, 96), 96);
	assert_int_equal(seen.n, 0);
}

/*
 * Two CPUs' rings, each in time order, come out as one sequence in time
 * order (a record wrapping at its ring's end included); lost records in
 * between are counted, not delivered.
 */
static void test_merge_by_time(void **state)
{
	static __u64 other[RING_SIZE / sizeof(__u64)];
	struct bpfkit_perf_cursor c[2] = {
		{ .ring = ring_mem, .size = RING_SIZE },
		{ .ring = other, .size = RING_SIZE, .tail = RING_SIZE - 16 },
	};
	const __u64 want[] = { 10, 20, 30, 31, 40, 50 };
	size_t i;

	ring = (char *)ring_mem;
	c[0].head += put_sample(c[0].head, 10, "a10");
	c[0].head += put_sample(c[0].head, 30, "a30");
	c[0].head += put_lost(c[0].head, 4);
	c[0].head += put_sample(c[0].head, 31, "a31");
	c[0].head += put_sample(c[0].head, 50, "a50");

	ring = (char *)other;
	c[1].head = c[1].tail;
	c[1].head += put_sample(c[1].head, 20, "b20");
	c[1].head += put_sample(c[1].head, 40, "b40");
	ring = (char *)ring_mem;

	bpfkit_perf_merge(&sink, c, 2);
	assert_int_equal(seen.n, 6);
	for (i = 0; i < 6; i++)
		assert_true(seen.first[i] == want[i]);
	assert_string_equal(seen.text[1], "b20");
	assert_string_equal(seen.text[4], "b40");
	assert_int_equal(sink.perf_lost, 4);
	assert_true(c[0].tail == c[0].head && c[1].tail == c[1].head);
}

/* Records read plus records lost are the records the BPF side produced. */
static void test_accounting(void **state)
{
	const struct bpfkit_stats percpu[2] = {
		{ .produced = 4, .dropped = 2 },
		{ .produced = 1, .dropped = 0 },
	};
	struct bpfkit_channel_stats s;
	__u64 end = 0;

	end += put_sample(end, 1, "a");
	end += put_sample(end, 2, "b");
	end += put_lost(end, 2);
	end += put_sample(end, 3, "c");
	read_one(0, end);

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
	__u64 end = 0;

	end += put_sample(end, 1, "a");
	end += put_lost(end, 1);
	end += put_sample(end, 2, "b");
	end += put_sample(end, 3, "c");
	read_one(0, end);

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
	struct bpfkit_channel_stats s;
	__u64 end = 0;

	end += put_sample(end, 1, "a");
	end += put_sample(end, 2, "f");
	end += put_sample(end, 3, "u");
	end += put_sample(end, 4, "b");
	read_one(0, end);

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_sample, reset),
		cmocka_unit_test_setup(test_stop_ends_pass, reset),
		cmocka_unit_test_setup(test_lost, reset),
		cmocka_unit_test_setup(test_wrap_at_ring_end, reset),
		cmocka_unit_test_setup(test_wrap_after_header, reset),
		cmocka_unit_test_setup(test_sample_realigned, reset),
		cmocka_unit_test_setup(test_empty, reset),
		cmocka_unit_test_setup(test_merge_by_time, reset),
		cmocka_unit_test_setup(test_accounting, reset),
		cmocka_unit_test_setup(test_accounting_unreported_drops, reset),
		cmocka_unit_test_setup(test_accounting_reasons, reset),
	};

	return cmocka_run_group_tests_name("channel", tests, NULL, NULL);
}
