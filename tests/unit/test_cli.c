// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Option parsing: number and user parsing, and the common options. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "cli.h"

static void test_parse_ulong(void **state)
{
	unsigned long v = 0;

	assert_int_equal(bpfkit_parse_ulong("-x", "42", 1, 100, &v), 0);
	assert_int_equal(v, 42);
	assert_int_equal(bpfkit_parse_ulong("-x", "0", 1, 100, &v), EINVAL);
	assert_int_equal(bpfkit_parse_ulong("-x", "101", 1, 100, &v), EINVAL);
	assert_int_equal(bpfkit_parse_ulong("-x", "-1", 0, 100, &v), EINVAL);
	assert_int_equal(bpfkit_parse_ulong("-x", "", 0, 100, &v), EINVAL);
	assert_int_equal(bpfkit_parse_ulong("-x", "12abc", 0, 100, &v), EINVAL);
	assert_int_equal(bpfkit_parse_ulong("-x", "18446744073709551616", 0,
					    (unsigned long)-1, &v),
			 EINVAL);
	assert_int_equal(v, 42);
}

static void test_parse_uid(void **state)
{
	__u32 uid = 7;

	assert_int_equal(bpfkit_parse_uid("-u", "root", &uid), 0);
	assert_int_equal(uid, 0);
	assert_int_equal(bpfkit_parse_uid("-u", "65534", &uid), 0);
	assert_int_equal(uid, 65534);
	assert_int_equal(bpfkit_parse_uid("-u", "no-such-user-xyz", &uid),
			 EINVAL);
	assert_int_equal(bpfkit_parse_uid("-u", "4294967295", &uid), EINVAL);
	assert_int_equal(bpfkit_parse_uid("-u", "", &uid), EINVAL);
}

static void test_common_options(void **state)
{
	static const struct bpfkit_tool tool = {
		.name = "test-cli",
		.doc = "test",
		.options = BPFKIT_OPT_EVENTS,
	};
	char pid[16];
	/* Every common option, one per line with its argument. */
	/* clang-format off */
	char *argv[] = {
		"test-cli",
		"-p", pid,
		"-u", "root",
		"-c", "bash",
		"-j",
		"-T",
		"-t",
		"-d", "1.5",
		"--ringbuf",
		"--buffer-pages", "8",
		"--wakeup", "4",
		"--latency", "50",
		NULL,
	};
	/* clang-format on */

	snprintf(pid, sizeof(pid), "%d", getpid());
	bpfkit_parse(&tool, sizeof(argv) / sizeof(argv[0]) - 1, argv);
	assert_int_equal(bpfkit_opts.filter.pid, getpid());
	assert_int_equal(bpfkit_opts.filter.uid, 0);
	assert_string_equal(bpfkit_opts.filter.comm, "bash");
	assert_true(bpfkit_opts.output.json);
	assert_true(bpfkit_opts.output.wall_time);
	assert_true(bpfkit_opts.output.rel_time);
	assert_true(bpfkit_opts.duration == 1.5);
	assert_int_equal(bpfkit_opts.channel.transport, BPFKIT_RING_BUFFER);
	assert_int_equal(bpfkit_opts.channel.pages, 8);
	assert_int_equal(bpfkit_opts.channel.wakeup, 4);
	assert_int_equal(bpfkit_opts.channel.latency_ms, 50);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_ulong),
		cmocka_unit_test(test_parse_uid),
		cmocka_unit_test(test_common_options),
	};

	/* Parse errors print one line on stderr; keep the TAP stream clean. */
	bpfkit_set_tool_name("test-cli");
	return cmocka_run_group_tests_name("cli", tests, NULL, NULL);
}
