// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The tally room: one entry per key, new entries zeroed past the key, kept
 * in arrival order, found again after the table grows many times.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "tally.h"

struct count {
	uint32_t key[2];
	uint64_t n;
};

static struct count *count_of(struct bpfkit_tally *t, uint32_t a, uint32_t b)
{
	uint32_t key[2] = { a, b };

	return bpfkit_tally_get(t, key);
}

static void test_one_entry_per_key(void **state)
{
	struct bpfkit_tally t =
		BPFKIT_TALLY_INIT(sizeof(struct count), sizeof(uint32_t[2]));
	struct count *c;

	count_of(&t, 1, 2)->n += 5;
	count_of(&t, 2, 1)->n += 7;
	c = count_of(&t, 1, 2);
	assert_int_equal(c->n, 5);
	c->n++;
	assert_int_equal(t.n, 2);
	c = bpfkit_tally_at(&t, 0);
	assert_int_equal(c->key[0], 1);
	assert_int_equal(c->n, 6);
	c = bpfkit_tally_at(&t, 1);
	assert_int_equal(c->key[0], 2);
	assert_int_equal(c->n, 7);
	bpfkit_tally_free(&t);
	assert_int_equal(t.n, 0);
	assert_null(t.entries);
}

static void test_grows_and_finds(void **state)
{
	struct bpfkit_tally t =
		BPFKIT_TALLY_INIT(sizeof(struct count), sizeof(uint32_t[2]));
	uint32_t i, round;

	/* 10000 keys, each counted three times: the table moves 8 times. */
	for (round = 0; round < 3; round++)
		for (i = 0; i < 10000; i++)
			count_of(&t, i, i * 7)->n++;
	assert_int_equal(t.n, 10000);
	for (i = 0; i < 10000; i++) {
		struct count *c = bpfkit_tally_at(&t, i);

		assert_int_equal(c->key[0], i);
		assert_int_equal(c->key[1], i * 7);
		assert_int_equal(c->n, 3);
	}
	bpfkit_tally_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_entry_per_key),
		cmocka_unit_test(test_grows_and_finds),
	};

	return cmocka_run_group_tests_name("tally", tests, NULL, NULL);
}
