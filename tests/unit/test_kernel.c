// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The kernel room: the kernel's BTF as libbpf parses it, loaded once per
 * process and let go before load; the kernel's release.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>
#include <bpf/btf.h>
#include <cmocka.h>
#include "kernel.h"

/* Raw BTF of one struct NAME { int a; } at PATH, replacing what was there. */
static void write_btf(const char *path, const char *name)
{
	struct btf *btf = btf__new_empty();
	char tmp[PATH_MAX];
	const void *raw;
	__u32 size;
	int fd, i32;

	assert_non_null(btf);
	i32 = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	btf__add_struct(btf, name, 4);
	btf__add_field(btf, "a", i32, 0, 0);
	raw = btf__raw_data(btf, &size);
	snprintf(tmp, sizeof(tmp), "%s.new", path);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, raw, size), size);
	close(fd);
	assert_int_equal(rename(tmp, path), 0);
	btf__free(btf);
}

/*
 * --btf FILE is parsed once and kept: a second question gets the same
 * parse, even once the file has changed, until bpfkit_btf_release(); the
 * next question then reads the file as it is. A file that is not there is
 * its error.
 */
static void test_kernel_btf_once(void **state)
{
	char path[] = "/tmp/bpfkit-test-btf-XXXXXX";
	const struct btf *first, *again;
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	close(fd);
	write_btf(path, "before");
	first = bpfkit_kernel_btf(path);
	assert_non_null(first);
	assert_true(btf__find_by_name_kind(first, "before", BTF_KIND_STRUCT) >
		    0);
	write_btf(path, "after");
	again = bpfkit_kernel_btf(path);
	assert_ptr_equal(again, first);
	assert_true(btf__find_by_name_kind(again, "after", BTF_KIND_STRUCT) <
		    0);
	bpfkit_btf_release();
	bpfkit_btf_release(); /* twice: nothing kept is nothing to free */
	again = bpfkit_kernel_btf(path);
	assert_non_null(again);
	assert_true(btf__find_by_name_kind(again, "after", BTF_KIND_STRUCT) >
		    0);
	bpfkit_btf_release();
	unlink(path);
	errno = 0;
	assert_null(bpfkit_kernel_btf(path));
	assert_int_equal(errno, ENOENT);
}

/* The release uname gives, compared by major and minor numbers. */
static void test_kernel_at_least(void **state)
{
	unsigned int major, minor;
	struct utsname u;

	assert_int_equal(uname(&u), 0);
	assert_int_equal(sscanf(u.release, "%u.%u", &major, &minor), 2);
	assert_true(bpfkit_kernel_at_least(major, minor));
	assert_true(bpfkit_kernel_at_least(major, 0));
	assert_true(bpfkit_kernel_at_least(major - 1, minor + 1));
	assert_false(bpfkit_kernel_at_least(major, minor + 1));
	assert_false(bpfkit_kernel_at_least(major + 1, 0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kernel_btf_once),
		cmocka_unit_test(test_kernel_at_least),
	};

	return cmocka_run_group_tests_name("kernel", tests, NULL, NULL);
}
