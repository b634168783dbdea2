// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The cgroup room: where cgroup v2 is mounted, from a file laid out like
 * /proc/mounts; --cgroup takes a cgroup v2 directory and nothing else.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "cgroup.h"

/* A mounts file holding TEXT, its path in PATH. */
static void write_mounts(char *path, const char *text)
{
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), strlen(text));
	close(fd);
}

/* The first cgroup2 mount, past cgroup v1 ones; its octal escapes read. */
static void test_cgroup2_mount(void **state)
{
	char hybrid[] = "/tmp/bpfkit-test-mounts-XXXXXX";
	char v1[] = "/tmp/bpfkit-test-mounts-XXXXXX";

	write_mounts(hybrid,
		     "sysfs /sys sysfs rw,nosuid 0 0\n"
		     "cgroup /sys/fs/cgroup/cpu cgroup rw,cpu 0 0\n"
		     "cgroup2 /sys/fs/cgroup/with\\040space cgroup2 rw 0 0\n"
		     "cgroup2 /other cgroup2 rw 0 0\n");
	write_mounts(v1, "cgroup /sys/fs/cgroup/cpu cgroup rw,cpu 0 0\n");
	assert_string_equal(bpfkit_cgroup2_mount(hybrid),
			    "/sys/fs/cgroup/with space");
	assert_null(bpfkit_cgroup2_mount(v1));
	assert_null(bpfkit_cgroup2_mount("/nonexistent/mounts"));
	unlink(hybrid);
	unlink(v1);
}

/* Not a cgroup v2 directory: a usage error, and no fd taken. */
static void test_cgroup_open_refuses(void **state)
{
	__u64 id = 0;
	int fd = -1;

	assert_int_equal(bpfkit_cgroup_open("/tmp", &id, &fd), EINVAL);
	assert_int_equal(bpfkit_cgroup_open("/nonexistent/cg", &id, &fd),
			 EINVAL);
	assert_int_equal(fd, -1);
	assert_int_equal(id, 0);
}

/* cgroup v2's root directory: its fd, and id 1, the root cgroup's. */
static void test_cgroup_open_root(void **state)
{
	const char *root = bpfkit_cgroup2_mount(NULL);
	__u64 id = 0;
	int fd = -1;

	if (!root)
		skip(); /* no cgroup v2 mounted here */
	assert_int_equal(bpfkit_cgroup_open(root, &id, &fd), 0);
	assert_true(fd >= 0);
	assert_int_equal(id, 1);
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cgroup2_mount),
		cmocka_unit_test(test_cgroup_open_refuses),
		cmocka_unit_test(test_cgroup_open_root),
	};

	return cmocka_run_group_tests_name("cgroup", tests, NULL, NULL);
}
