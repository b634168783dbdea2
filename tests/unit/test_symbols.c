// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The symbolizer: this process's own functions and libc's through libdwfl,
 * a process that exited, a fake kallsyms, a perf map, unknown addresses
 * and the cache. No privileges needed.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <cmocka.h>
#include "symbols.h"

__attribute__((noinline)) int bk_unit_target(int x)
{
	return x * 3 + 1;
}

static void test_own_function(void **state)
{
	struct bpfkit_syms *s = bpfkit_syms_new(NULL);
	const struct bpfkit_frame *f;

	assert_non_null(s);
	f = bpfkit_syms_user(s, getpid(), (uintptr_t)bk_unit_target + 2);
	assert_string_equal(f->label, "bk_unit_target");
	assert_string_equal(f->name, "bk_unit_target");
	assert_int_equal(f->offset, 2);
	assert_int_equal(f->kind, BPFKIT_FRAME_USER);
	assert_non_null(strstr(f->module, "test_symbols"));
	bpfkit_syms_free(s);
}

static void test_libc_function(void **state)
{
	struct bpfkit_syms *s = bpfkit_syms_new(NULL);
	const struct bpfkit_frame *f;

	f = bpfkit_syms_user(s, getpid(), (uintptr_t)&abort);
	assert_string_equal(f->name, "abort");
	assert_int_equal(f->offset, 0);
	assert_non_null(strstr(f->module, "libc.so"));
	bpfkit_syms_free(s);
}

static void test_source_lines(void **state)
{
	struct bpfkit_syms_opts opts = { .lines = true };
	struct bpfkit_syms *s = bpfkit_syms_new(&opts);
	const struct bpfkit_frame *f;

	f = bpfkit_syms_user(s, getpid(), (uintptr_t)bk_unit_target);
	assert_non_null(f->file);
	assert_non_null(strstr(f->file, "test_symbols.c"));
	assert_in_range(f->line, 20, 23);
	bpfkit_syms_free(s);
}

/* A child's maps read while it ran still resolve once it has exited. */
static void test_exited_process(void **state)
{
	struct bpfkit_syms *s = bpfkit_syms_new(NULL);
	const struct bpfkit_frame *f;
	int go[2], status;
	char c = 0;
	pid_t pid;

	assert_int_equal(pipe(go), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		close(go[1]);
		_exit(read(go[0], &c, 1) < 0);
	}
	close(go[0]);
	assert_int_equal(bpfkit_syms_add_pid(s, pid), 0);
	close(go[1]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	f = bpfkit_syms_user(s, pid, (uintptr_t)bk_unit_target + 1);
	assert_string_equal(f->label, "bk_unit_target");
	bpfkit_syms_free(s);
}

/* A pid that never existed: unknown frames, an error, no crash. */
static void test_no_such_process(void **state)
{
	struct bpfkit_syms *s = bpfkit_syms_new(NULL);
	const struct bpfkit_frame *f;

	assert_true(bpfkit_syms_add_pid(s, 0x3fffffff) < 0);
	f = bpfkit_syms_user(s, 0x3fffffff, 0x401000);
	assert_null(f->name);
	assert_string_equal(f->label, "[unknown]");
	bpfkit_syms_free(s);
}

static void test_unknown_address(void **state)
{
	struct bpfkit_syms *s = bpfkit_syms_new(NULL);
	const struct bpfkit_frame *f;

	f = bpfkit_syms_user(s, getpid(), 0x10);
	assert_null(f->name);
	assert_string_equal(f->label, "[unknown]");
	bpfkit_syms_free(s);
}

static void test_kallsyms(void **state)
{
	char path[] = "/tmp/bk-kallsyms-XXXXXX";
	struct bpfkit_syms_opts opts = { .kallsyms = path };
	const struct bpfkit_frame *f;
	struct bpfkit_syms *s;
	int fd = mkstemp(path);
	FILE *out = fdopen(fd, "w");

	assert_non_null(out);
	fputs("ffffffff81000200 T bk_second\n"
	      "ffffffff81000000 T _stext\n"
	      "ffffffff81000100 t bk_first\n"
	      "ffffffff81000180 D bk_data\n"
	      "ffffffffc0001000 t bk_modfn\t[bk_mod]\n",
	      out);
	fclose(out);
	s = bpfkit_syms_new(&opts);
	f = bpfkit_syms_kernel(s, 0xffffffff81000150);
	assert_string_equal(f->label, "bk_first");
	assert_int_equal(f->offset, 0x50);
	assert_string_equal(f->module, "kernel");
	assert_int_equal(f->kind, BPFKIT_FRAME_KERNEL);
	f = bpfkit_syms_kernel(s, 0xffffffff81000200);
	assert_string_equal(f->label, "bk_second");
	assert_int_equal(f->offset, 0);
	f = bpfkit_syms_kernel(s, 0xffffffffc0001010);
	assert_string_equal(f->label, "bk_modfn");
	assert_string_equal(f->module, "bk_mod");
	f = bpfkit_syms_kernel(s, 0xffffffff80000000);
	assert_string_equal(f->label, "[unknown]");
	bpfkit_syms_free(s);
	unlink(path);
}

static void test_perf_map(void **state)
{
	char dir[] = "/tmp/bk-perfmap-XXXXXX", path[256];
	struct bpfkit_syms_opts opts = { .perf_map_dir = dir };
	const struct bpfkit_frame *f;
	struct bpfkit_syms *s;
	FILE *out;

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/perf-%d.map", dir, getpid());
	out = fopen(path, "w");
	assert_non_null(out);
	fputs("2000 40 LazyCompile:*bkOther file.js:3\n"
	      "1000 100 LazyCompile:*bkHotJs file.js:1\n",
	      out);
	fclose(out);
	s = bpfkit_syms_new(&opts);
	f = bpfkit_syms_user(s, getpid(), 0x1010);
	assert_string_equal(f->label, "LazyCompile:*bkHotJs file.js:1");
	assert_int_equal(f->offset, 0x10);
	assert_int_equal(f->kind, BPFKIT_FRAME_JIT);
	/* Past the entry's size: nothing there. */
	f = bpfkit_syms_user(s, getpid(), 0x1100);
	assert_string_equal(f->label, "[unknown]");
	bpfkit_syms_free(s);
	unlink(path);
	rmdir(dir);
}

/* Each unique address is symbolized once; the same frame comes back. */
static void test_cache(void **state)
{
	struct bpfkit_syms *s = bpfkit_syms_new(NULL);
	const struct bpfkit_frame *a, *b;
	struct bpfkit_syms_stats st;
	int i;

	a = bpfkit_syms_user(s, getpid(), (uintptr_t)bk_unit_target);
	b = bpfkit_syms_user(s, getpid(), (uintptr_t)bk_unit_target);
	assert_ptr_equal(a, b);
	bpfkit_syms_stats(s, &st);
	assert_int_equal(st.addrs, 1);
	/* Growth keeps every earlier entry. */
	for (i = 0; i < 5000; i++)
		bpfkit_syms_user(s, getpid(), (uintptr_t)bk_unit_target + i);
	bpfkit_syms_stats(s, &st);
	assert_int_equal(st.addrs, 5000);
	assert_ptr_equal(
		bpfkit_syms_user(s, getpid(), (uintptr_t)bk_unit_target), a);
	bpfkit_syms_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_own_function),
		cmocka_unit_test(test_libc_function),
		cmocka_unit_test(test_source_lines),
		cmocka_unit_test(test_exited_process),
		cmocka_unit_test(test_no_such_process),
		cmocka_unit_test(test_unknown_address),
		cmocka_unit_test(test_kallsyms),
		cmocka_unit_test(test_perf_map),
		cmocka_unit_test(test_cache),
	};

	return cmocka_run_group_tests_name("symbols", tests, NULL, NULL);
}
