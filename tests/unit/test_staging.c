// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The staging room on real objects, opened, never loaded: a tool's
 * bpfkit_staging becomes the task's storage only when the kernel lets
 * tracing programs use it (the probe fails without privileges: then it
 * stays the hash), and always stays the hash a test shrinks; an object
 * with no staging map is left alone.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <linux/bpf.h>
#include "setup.h"
#include "staging.h"
#include "syncsnoop.h"
#include "syncsnoop.skel.h"
#include "vfsstat.h"
#include "vfsstat.skel.h"

static struct bpf_map *staging_of(struct syncsnoop_bpf *skel)
{
	return bpf_object__find_map_by_name(skel->obj, BPFKIT_STAGING_MAP);
}

static void test_keep_hash(void **state)
{
	struct syncsnoop_bpf *skel = syncsnoop_bpf__open();
	volatile bool task_storage = false;
	struct bpf_map *map;

	assert_non_null(skel);
	map = staging_of(skel);
	assert_non_null(map);
	assert_int_equal(bpfkit_staging_prepare(skel->obj, &task_storage, true),
			 0);
	assert_false(task_storage);
	assert_int_equal(bpf_map__type(map), BPF_MAP_TYPE_HASH);
	assert_int_equal(bpf_map__max_entries(map), 10240);
	syncsnoop_bpf__destroy(skel);
}

static void test_task_storage_or_hash(void **state)
{
	struct syncsnoop_bpf *skel = syncsnoop_bpf__open();
	volatile bool task_storage = false;
	struct bpf_map *map;

	assert_non_null(skel);
	map = staging_of(skel);
	assert_int_equal(
		bpfkit_staging_prepare(skel->obj, &task_storage, false), 0);
	if (task_storage) {
		assert_int_equal(bpf_map__type(map), BPF_MAP_TYPE_TASK_STORAGE);
		assert_int_equal(bpf_map__max_entries(map), 0);
		assert_true(bpf_map__map_flags(map) & BPF_F_NO_PREALLOC);
	} else {
		assert_int_equal(bpf_map__type(map), BPF_MAP_TYPE_HASH);
		assert_int_equal(bpf_map__max_entries(map), 10240);
	}
	syncsnoop_bpf__destroy(skel);
}

static void test_no_staging_map(void **state)
{
	struct vfsstat_bpf *skel = vfsstat_bpf__open();
	volatile bool task_storage = false;

	assert_non_null(skel);
	assert_null(
		bpf_object__find_map_by_name(skel->obj, BPFKIT_STAGING_MAP));
	assert_int_equal(
		bpfkit_staging_prepare(skel->obj, &task_storage, false), 0);
	assert_false(task_storage);
	vfsstat_bpf__destroy(skel);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keep_hash),
		cmocka_unit_test(test_task_storage_or_hash),
		cmocka_unit_test(test_no_staging_map),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
