// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The generated syscall table agrees with the C library's numbers. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <cmocka.h>
#include "names.h"

static void test_names(void **state)
{
	assert_string_equal(bpfkit_syscall_name(SYS_execve), "execve");
	assert_string_equal(bpfkit_syscall_name(SYS_getppid), "getppid");
	assert_string_equal(bpfkit_syscall_name(SYS_timer_create),
			    "timer_create");
}

static void test_numbers(void **state)
{
	assert_int_equal(bpfkit_syscall_nr("execveat"), SYS_execveat);
	assert_int_equal(bpfkit_syscall_nr("openat"), SYS_openat);
	assert_int_equal(bpfkit_syscall_nr("no_such_syscall"), -1);
}

static void test_out_of_range(void **state)
{
	assert_null(bpfkit_syscall_name(-1));
	assert_null(bpfkit_syscall_name(100000));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_out_of_range),
	};

	return cmocka_run_group_tests_name("syscalls", tests, NULL, NULL);
}
