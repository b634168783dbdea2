// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The ksyms room: kernel functions' code ranges from a kallsyms file, and
 * the function behind a syscall from BTF.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <bpf/btf.h>
#include <cmocka.h>
#include "ksyms.h"

/*
 * Laid out like /proc/kallsyms: a hidden address (0), an alias at the same
 * address, a data symbol, module symbols after a tab, and a last function
 * with nothing after it.
 */
static const char kallsyms[] = "0000000000000000 T hidden\n"
			       "ffffffff81000000 T _stext\n"
			       "ffffffff81000100 t do_exit\n"
			       "ffffffff81000100 t do_exit_alias\n"
			       "ffffffff81000180 D some_data\n"
			       "ffffffff81000200 T do_group_exit\n"
			       "ffffffff81000300 t mod_func\t[mod]\n"
			       "ffffffff81000400 t mod_next\t[mod]\n"
			       "ffffffff81000500 T last_func\n";

static char path[] = "/tmp/bpfkit-test-kallsyms-XXXXXX";

static int write_kallsyms(void **state)
{
	int fd = mkstemp(path);

	if (fd < 0 || write(fd, kallsyms, sizeof(kallsyms) - 1) !=
			      (ssize_t)sizeof(kallsyms) - 1)
		return -1;
	return close(fd);
}

static int remove_kallsyms(void **state)
{
	return unlink(path);
}

/*
 * A function's range ends at the next symbol at a higher address, of any
 * type; one missing keeps 0; the first one wanted, found, ends the pass.
 */
static void test_kernel_funcs(void **state)
{
	struct bpfkit_kernel_func missing[] = {
		{ .name = "no_such_function" },
		{ .name = "do_exit" },
	};
	struct bpfkit_kernel_func first[] = {
		{ .name = "do_exit" },
		{ .name = "do_group_exit" },
	};

	assert_int_equal(bpfkit_kernel_funcs(path, missing, 2), 1);
	assert_int_equal(missing[0].start, 0);
	assert_int_equal(missing[0].end, 0);
	assert_int_equal(missing[1].start, 0xffffffff81000100ULL);
	assert_int_equal(missing[1].end, 0xffffffff81000180ULL);
	/* do_exit found and ended: do_group_exit is not looked for. */
	assert_int_equal(bpfkit_kernel_funcs(path, first, 2), 1);
	assert_int_equal(first[0].end, 0xffffffff81000180ULL);
	assert_int_equal(first[1].start, 0);
}

/* Module symbols by their names; no range without a symbol after it. */
static void test_kernel_funcs_edges(void **state)
{
	struct bpfkit_kernel_func funcs[] = {
		{ .name = "hidden" },	 { .name = "some_data" },
		{ .name = "mod_func" },	 { .name = "do_group_exit" },
		{ .name = "last_func" },
	};

	assert_int_equal(bpfkit_kernel_funcs(path, funcs, 5), 2);
	assert_int_equal(funcs[0].start, 0); /* its address hidden */
	assert_int_equal(funcs[1].start, 0); /* data, not a function */
	assert_int_equal(funcs[2].start, 0xffffffff81000300ULL);
	assert_int_equal(funcs[2].end, 0xffffffff81000400ULL);
	assert_int_equal(funcs[3].start, 0xffffffff81000200ULL);
	assert_int_equal(funcs[3].end, 0xffffffff81000300ULL);
	assert_int_equal(funcs[4].start, 0);
	assert_int_equal(funcs[4].end, 0);
	assert_int_equal(bpfkit_kernel_funcs("/nonexistent/kallsyms", funcs, 5),
			 -ENOENT);
}

/* BTF holding functions NAMES (NULL-terminated). */
static struct btf *btf_of(const char *const *names)
{
	struct btf *btf = btf__new_empty();
	int proto;

	assert_non_null(btf);
	proto = btf__add_func_proto(btf, 0);
	assert_true(proto > 0);
	for (; *names; names++)
		assert_true(btf__add_func(btf, *names, BTF_FUNC_GLOBAL, proto) >
			    0);
	return btf;
}

/* The syscall wrapper where the kernel has one, else the plain function. */
static void test_syscall_func(void **state)
{
	struct btf *plain = btf_of((const char *[]){ "sys_openat", NULL });
	char buf[64];
	int id;

	id = bpfkit_syscall_func(plain, "openat", buf, sizeof(buf));
	assert_int_equal(id, btf__find_by_name(plain, "sys_openat"));
	assert_string_equal(buf, "sys_openat");
	assert_int_equal(bpfkit_syscall_func(plain, "execve", buf, sizeof(buf)),
			 -ENOENT);
	btf__free(plain);
#ifdef __x86_64__
	{
		struct btf *both = btf_of((const char *[]){
			"sys_execve", "__x64_sys_execve", NULL });

		id = bpfkit_syscall_func(both, "execve", buf, sizeof(buf));
		assert_int_equal(id,
				 btf__find_by_name(both, "__x64_sys_execve"));
		assert_string_equal(buf, "__x64_sys_execve");
		btf__free(both);
	}
#endif
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kernel_funcs),
		cmocka_unit_test(test_kernel_funcs_edges),
		cmocka_unit_test(test_syscall_func),
	};

	return cmocka_run_group_tests_name("ksyms", tests, write_kallsyms,
					   remove_kallsyms);
}
