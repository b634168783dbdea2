// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Overload control's user side without a kernel: the options' checks, the
 * channel's tally of throttled and sampled events (the identity), the top
 * keys of a throttled report, and --max-cpu's step.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "channel.h"
#include "overload.h"

static void test_rate_by(void **state)
{
	enum bpfkit_limit_by by = BPFKIT_LIMIT_BY_NONE;

	assert_int_equal(bpfkit_parse_rate_by("pid", &by), 0);
	assert_int_equal(by, BPFKIT_LIMIT_BY_PID);
	assert_int_equal(bpfkit_parse_rate_by("cgroup", &by), 0);
	assert_int_equal(by, BPFKIT_LIMIT_BY_CGROUP);
	assert_int_equal(bpfkit_parse_rate_by("comm", &by), 0);
	assert_int_equal(by, BPFKIT_LIMIT_BY_COMM);
	assert_int_not_equal(bpfkit_parse_rate_by("tid", &by), 0);
	assert_int_not_equal(bpfkit_parse_rate_by("", &by), 0);
	assert_int_equal(by, BPFKIT_LIMIT_BY_COMM);
}

/* What goes only with another option, and what is on. */
static void test_check(void **state)
{
	struct bpfkit_overload_opts o = { 0 };

	assert_false(bpfkit_overload_on(&o));
	assert_int_equal(bpfkit_overload_check(&o), 0);
	o.by = BPFKIT_LIMIT_BY_PID;
	assert_int_not_equal(bpfkit_overload_check(&o), 0);
	o.rate = 100;
	assert_int_equal(bpfkit_overload_check(&o), 0);
	assert_true(bpfkit_overload_on(&o));
	o = (struct bpfkit_overload_opts){ .sample_random = true };
	assert_int_not_equal(bpfkit_overload_check(&o), 0);
	o.sample = 10;
	assert_int_equal(bpfkit_overload_check(&o), 0);
	assert_true(bpfkit_overload_on(&o));
	o = (struct bpfkit_overload_opts){ .max_cpu = 5 };
	assert_true(bpfkit_overload_on(&o));
}

/* events + filtered + lost + throttled + sampled == produced, per CPU summed. */
static void test_tally_identity(void **state)
{
	const struct bpfkit_stats percpu[2] = {
		{ .produced = 20,
		  .dropped = 2,
		  .throttled = 9,
		  .sampled = 3,
		  .limit_misses = 1 },
		{ .produced = 10,
		  .staging_full = 1,
		  .throttled = 4,
		  .sampled = 2,
		  .limit_misses = 2 },
	};
	struct bpfkit_sink sink = { .delivered = 9, .filtered = 2 };
	struct bpfkit_channel_stats s;

	bpfkit_channel_tally(percpu, 2, &sink, &s);
	assert_int_equal(s.throttled, 13);
	assert_int_equal(s.sampled, 5);
	assert_int_equal(s.limit_misses, 3);
	assert_int_equal(s.lost, 3);
	assert_int_equal(s.shown, 7);
	assert_int_equal(s.shown + s.filtered + s.lost + s.throttled +
				 s.sampled,
			 s.produced);
}

static struct bpfkit_key_drops pid_drops(__u32 pid, __u64 drops)
{
	struct bpfkit_key_drops d = { .key.id = pid,
				      .drops = drops,
				      .pid = pid };

	strcpy(d.comm, "c");
	return d;
}

/* The keys that dropped most since the last report, most first. */
static void test_top_drops(void **state)
{
	struct bpfkit_key_drops prev[3] = { pid_drops(1, 100), pid_drops(2, 50),
					    pid_drops(3, 7) };
	struct bpfkit_key_drops cur[5] = {
		pid_drops(1, 130), /* +30 */
		pid_drops(2, 50), /* none since */
		pid_drops(3, 2), /* forgotten and made again: 2 */
		pid_drops(4, 500), /* new: 500 */
		pid_drops(5, 40), /* new: 40 */
	};
	struct bpfkit_key_drops top[3];
	size_t n;

	bpfkit_sort_drops(prev, 3);
	bpfkit_sort_drops(cur, 5);
	n = bpfkit_top_drops(prev, 3, cur, 5, top, 3);
	assert_int_equal(n, 3);
	assert_int_equal(top[0].pid, 4);
	assert_int_equal(top[0].drops, 500);
	assert_int_equal(top[1].pid, 5);
	assert_int_equal(top[1].drops, 40);
	assert_int_equal(top[2].pid, 1);
	assert_int_equal(top[2].drops, 30);
	assert_string_equal(top[2].comm, "c");

	/* Fewer keys with drops than room; none before (no array yet). */
	bpfkit_sort_drops(NULL, 0);
	n = bpfkit_top_drops(NULL, 0, cur, 5, top, 3);
	assert_int_equal(n, 3);
	assert_int_equal(top[0].drops, 500);
	n = bpfkit_top_drops(cur, 5, cur, 5, top, 3);
	assert_int_equal(n, 0);
	n = bpfkit_top_drops(prev, 3, cur, 5, top, 1);
	assert_int_equal(n, 1);
	assert_int_equal(top[0].pid, 4);
}

/* --max-cpu's step: down in proportion above, up by a quarter well below. */
static void test_cpu_rate(void **state)
{
	/* Above: from what was sent, scaled to the limit and a margin. */
	assert_int_equal(bpfkit_cpu_rate(0, 0, 100000, 100000, 20, 5), 22500);
	/* A budget below what was sent is the base. */
	assert_int_equal(bpfkit_cpu_rate(1000, 0, 100000, 5000, 10, 5), 450);
	/* Never below one event a second. */
	assert_int_equal(bpfkit_cpu_rate(1, 0, 100000, 0, 50, 5), 1);
	/* Within [0.7, 1] of the limit: held. */
	assert_int_equal(bpfkit_cpu_rate(1000, 0, 100000, 1000, 4, 5), 1000);
	/* Well below: up by a quarter... */
	assert_int_equal(bpfkit_cpu_rate(1000, 0, 100000, 1000, 1, 5), 1251);
	/* ...back to --rate-limit's own... */
	assert_int_equal(bpfkit_cpu_rate(1000, 1100, 100000, 1000, 1, 5), 1100);
	/* ...or to none once it would let every event through. */
	assert_int_equal(bpfkit_cpu_rate(1000, 0, 1100, 1000, 1, 5), 0);
	/* Unlimited and under the limit: stays so. */
	assert_int_equal(bpfkit_cpu_rate(0, 0, 100000, 100000, 1, 5), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rate_by),
		cmocka_unit_test(test_check),
		cmocka_unit_test(test_tally_identity),
		cmocka_unit_test(test_top_drops),
		cmocka_unit_test(test_cpu_rate),
	};

	return cmocka_run_group_tests_name("overload", tests, NULL, NULL);
}
