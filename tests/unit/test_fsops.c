// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The file system tools' -t: names kept zero-padded, in order, as the BPF
 * side compares them (by 8-byte words); bad lists refused.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "fsops.h"

static void test_types_zero_padded(void **state)
{
	static const char zeros[BPFKIT_FS_TYPE_LEN];
	struct bpfkit_fs_types t;

	memset(&t, 0xff, sizeof(t));
	assert_int_equal(bpfkit_fs_parse_types("ext4,xfs,fuse_blk9", &t), 0);
	assert_int_equal(t.n, 3);
	assert_memory_equal(t.names[0], "ext4\0\0\0\0\0\0\0\0\0\0\0\0", 16);
	assert_memory_equal(t.names[1], "xfs\0\0\0\0\0\0\0\0\0\0\0\0\0", 16);
	assert_string_equal(t.names[2], "fuse_blk9");
	assert_memory_equal(t.names[3], zeros, sizeof(zeros));
	assert_memory_equal(t.names[7], zeros, sizeof(zeros));

	/* Fifteen characters fit; eight names fit. */
	assert_int_equal(bpfkit_fs_parse_types("abcdefghijklmno", &t), 0);
	assert_int_equal(t.n, 1);
	assert_int_equal(bpfkit_fs_parse_types("a,b,c,d,e,f,g,h", &t), 0);
	assert_int_equal(t.n, 8);
	assert_string_equal(t.names[7], "h");
}

static void test_bad_types_refused(void **state)
{
	struct bpfkit_fs_types t;

	assert_int_equal(bpfkit_fs_parse_types("", &t), EINVAL);
	assert_int_equal(bpfkit_fs_parse_types("ext4,", &t), EINVAL);
	assert_int_equal(bpfkit_fs_parse_types(",ext4", &t), EINVAL);
	assert_int_equal(bpfkit_fs_parse_types("ext4,,xfs", &t), EINVAL);
	assert_int_equal(bpfkit_fs_parse_types("EXT4", &t), EINVAL);
	assert_int_equal(bpfkit_fs_parse_types("fuse.sshfs", &t), EINVAL);
	assert_int_equal(bpfkit_fs_parse_types("abcdefghijklmnop", &t), EINVAL);
	assert_int_equal(bpfkit_fs_parse_types("a,b,c,d,e,f,g,h,i", &t),
			 EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_types_zero_padded),
		cmocka_unit_test(test_bad_types_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
