// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The kernel room's raw BTF pass: member offsets found inside anonymous
 * members, sizes checked through typedefs and qualifiers, bitfields and
 * missing names refused; on the running kernel's BTF, the offsets libbpf's
 * parse gives.
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
#include "bpfkit/layout.h"
#include "kernel.h"

/*
 * struct outer {
 *	int a;			// 0
 *	union {			// 8
 *		long b;		// 8
 *		struct {
 *			int pad;
 *			const myint c;	// 12
 *		};
 *	};
 *	void *p;		// 16
 *	unsigned int bits:3;	// 24, a bitfield
 *	char name[8];		// 32
 * };
 * struct task_struct {	// as before Linux 5.14
 *	int pid;
 *	long state;		// 8
 * };
 * enum flag_bits { FLAG_A = 3, FLAG_B = 11 };
 * enum big { BIG_LOW = 5, BIG_HIGH = 1ULL << 40 };	// an ENUM64
 * written as raw BTF to a file; its path in *STATE.
 */
static int write_btf(void **state)
{
	static char path[] = "/tmp/bpfkit-test-btf-XXXXXX";
	struct btf *btf = btf__new_empty();
	int i32, i64, u32, chr, arr, myint, cint, inner, uni, ptr, outer, task;
	int fd;
	const void *raw;
	__u32 size;

	assert_non_null(btf);
	i32 = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	i64 = btf__add_int(btf, "long", 8, BTF_INT_SIGNED);
	u32 = btf__add_int(btf, "unsigned int", 4, 0);
	chr = btf__add_int(btf, "char", 1, BTF_INT_CHAR);
	arr = btf__add_array(btf, u32, chr, 8);
	myint = btf__add_typedef(btf, "myint", i32);
	cint = btf__add_const(btf, myint);
	ptr = btf__add_ptr(btf, 0);
	inner = btf__add_struct(btf, NULL, 8);
	btf__add_field(btf, "pad", i32, 0, 0);
	btf__add_field(btf, "c", cint, 32, 0);
	uni = btf__add_union(btf, NULL, 8);
	btf__add_field(btf, "b", i64, 0, 0);
	btf__add_field(btf, NULL, inner, 0, 0);
	outer = btf__add_struct(btf, "outer", 40);
	btf__add_field(btf, "a", i32, 0, 0);
	btf__add_field(btf, NULL, uni, 64, 0);
	btf__add_field(btf, "p", ptr, 128, 0);
	btf__add_field(btf, "bits", u32, 192, 3);
	btf__add_field(btf, "name", arr, 256, 0);
	task = btf__add_struct(btf, "task_struct", 16);
	btf__add_field(btf, "pid", i32, 0, 0);
	btf__add_field(btf, "state", i64, 64, 0);
	btf__add_enum(btf, "flag_bits", 4);
	btf__add_enum_value(btf, "FLAG_A", 3);
	btf__add_enum_value(btf, "FLAG_B", 11);
	btf__add_enum64(btf, "big", 8, false);
	btf__add_enum64_value(btf, "BIG_LOW", 5);
	btf__add_enum64_value(btf, "BIG_HIGH", 1ULL << 40);
	assert_true(outer > 0 && arr > 0 && task > 0);
	raw = btf__raw_data(btf, &size);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, raw, size), size);
	close(fd);
	btf__free(btf);
	*state = path;
	return 0;
}

static int remove_btf(void **state)
{
	unlink(*state);
	return 0;
}

static void test_offsets(void **state)
{
	struct bpfkit_btf_member m[] = {
		{ .type = "outer", .name = "a", .size = 4 },
		{ .type = "outer", .name = "b", .size = 8 },
		{ .type = "outer", .name = "c", .size = 4 },
		{ .type = "outer", .name = "p", .size = sizeof(void *) },
		{ .type = "outer", .name = "name", .size = 8 },
	};
	const struct bpfkit_btf_member *failed;

	assert_int_equal(bpfkit_btf_member_offsets(*state, m, 5, &failed), 0);
	assert_int_equal(m[0].offset, 0);
	assert_int_equal(m[1].offset, 8);
	assert_int_equal(m[2].offset, 12);
	assert_int_equal(m[3].offset, 16);
	assert_int_equal(m[4].offset, 32);
}

/* A bitfield, asked for as one: its offset in bits, its width checked. */
static void test_bitfield(void **state)
{
	struct bpfkit_btf_member m = { .type = "outer",
				       .name = "bits",
				       .size = BPFKIT_BITFIELD(3) };
	struct bpfkit_btf_member wide = { .type = "outer",
					  .name = "bits",
					  .size = BPFKIT_BITFIELD(4) };
	struct bpfkit_btf_member plain = { .type = "outer",
					   .name = "a",
					   .size = BPFKIT_BITFIELD(32) };
	const struct bpfkit_btf_member *failed;

	assert_int_equal(bpfkit_btf_member_offsets(*state, &m, 1, &failed), 0);
	assert_int_equal(m.offset, 192);
	assert_int_equal(bpfkit_btf_member_offsets(*state, &wide, 1, &failed),
			 -ERANGE);
	assert_int_equal(bpfkit_btf_member_offsets(*state, &plain, 1, &failed),
			 -ENOENT);
}

/* A member renamed since: task_struct's "__state" is "state" before 5.14. */
static void test_renamed(void **state)
{
	struct bpfkit_btf_member m[] = {
		{ .type = "task_struct", .name = "pid", .size = 4 },
		{ .type = "task_struct", .name = "__state", .size = 4 },
	};
	struct bpfkit_btf_member other = { .type = "task_struct",
					   .name = "__pid",
					   .size = 4 };
	const struct bpfkit_btf_member *failed;

	assert_int_equal(bpfkit_btf_member_offsets(*state, m, 2, &failed), 0);
	assert_int_equal(m[1].offset,
			 __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ? 12 : 8);
	/* Only the renames the kernel made. */
	assert_int_equal(bpfkit_btf_member_offsets(*state, &other, 1, &failed),
			 -ENOENT);
}

/*
 * Members some kernels lack, asked for as optional: BPFKIT_ABSENT, not an
 * error, whether the member or its whole struct is missing.
 */
static void test_optional(void **state)
{
	struct bpfkit_btf_member m[] = {
		{ .type = "outer", .name = "a", .size = BPFKIT_OPTIONAL(4) },
		{ .type = "outer", .name = "gone", .size = BPFKIT_OPTIONAL(4) },
		{ .type = "gone", .name = "a", .size = BPFKIT_OPTIONAL(0) },
		{ .type = "outer",
		  .name = "bits",
		  .size = BPFKIT_OPTIONAL(BPFKIT_BITFIELD(3)) },
	};
	struct bpfkit_btf_member wrong = { .type = "outer",
					   .name = "a",
					   .size = BPFKIT_OPTIONAL(8) };
	const struct bpfkit_btf_member *failed;

	assert_int_equal(bpfkit_btf_member_offsets(*state, m, 4, &failed), 0);
	assert_int_equal(m[0].offset, 0);
	assert_int_equal(m[1].offset, BPFKIT_ABSENT);
	assert_int_equal(m[2].offset, BPFKIT_ABSENT);
	assert_int_equal(m[3].offset, 192);
	/* There, but not the size read: refused still. */
	assert_int_equal(bpfkit_btf_member_offsets(*state, &wrong, 1, &failed),
			 -ERANGE);
}

/* Enumerators' values (ENUM and ENUM64) and structs' sizes, in one pass. */
static void test_enumerators(void **state)
{
	struct bpfkit_btf_member m[] = {
		{ .type = "flag_bits",
		  .name = "FLAG_B",
		  .size = BPFKIT_ENUMERATOR },
		{ .type = "flag_bits",
		  .name = "FLAG_A",
		  .size = BPFKIT_ENUMERATOR },
		{ .type = "outer", .name = "a", .size = 4 },
		{ .type = "flag_bits",
		  .name = "FLAG_C",
		  .size = BPFKIT_OPTIONAL(BPFKIT_ENUMERATOR) },
		{ .type = "big", .name = "BIG_LOW", .size = BPFKIT_ENUMERATOR },
		{ .type = "outer",
		  .name = "sizeof",
		  .size = BPFKIT_STRUCT_SIZE },
	};
	struct bpfkit_btf_member high = { .type = "big",
					  .name = "BIG_HIGH",
					  .size = BPFKIT_ENUMERATOR };
	struct bpfkit_btf_member missing = { .type = "flag_bits",
					     .name = "FLAG_C",
					     .size = BPFKIT_ENUMERATOR };
	struct bpfkit_btf_member not_enum = { .type = "outer",
					      .name = "a",
					      .size = BPFKIT_ENUMERATOR };
	const struct bpfkit_btf_member *failed;

	assert_int_equal(bpfkit_btf_member_offsets(*state, m, 6, &failed), 0);
	assert_int_equal(m[0].offset, 11);
	assert_int_equal(m[1].offset, 3);
	assert_int_equal(m[2].offset, 0);
	assert_int_equal(m[3].offset, BPFKIT_ABSENT);
	assert_int_equal(m[4].offset, 5);
	assert_int_equal(m[5].offset, 40);
	/* A value wider than 32 bits, a name not there, a struct's member. */
	assert_int_equal(bpfkit_btf_member_offsets(*state, &high, 1, &failed),
			 -ERANGE);
	assert_int_equal(bpfkit_btf_member_offsets(*state, &missing, 1,
						   &failed),
			 -ENOENT);
	assert_int_equal(bpfkit_btf_member_offsets(*state, &not_enum, 1,
						   &failed),
			 -ENOENT);
}

/* The enumerator collect() stops the walk at. */
static const char *stop_at = "";

/* Collect enumerators "NAME=VALUE," into CTX, a 128-byte buffer. */
static int collect(const char *name, __s64 value, void *ctx)
{
	char *buf = ctx;
	size_t len = strlen(buf);

	snprintf(buf + len, 128 - len, "%s=%lld,", name, (long long)value);
	return strcmp(name, stop_at) ? 0 : -EINTR;
}

/* Every enumerator of an enum (ENUM or ENUM64), in order. */
static void test_enumerator_walk(void **state)
{
	char buf[128] = "";

	assert_int_equal(
		bpfkit_btf_enumerators(*state, "flag_bits", collect, buf), 0);
	assert_string_equal(buf, "FLAG_A=3,FLAG_B=11,");
	buf[0] = 0;
	assert_int_equal(bpfkit_btf_enumerators(*state, "big", collect, buf),
			 0);
	assert_string_equal(buf, "BIG_LOW=5,BIG_HIGH=1099511627776,");
	/* What the callback returns ends the walk. */
	buf[0] = 0;
	stop_at = "BIG_LOW";
	assert_int_equal(bpfkit_btf_enumerators(*state, "big", collect, buf),
			 -EINTR);
	assert_string_equal(buf, "BIG_LOW=5,");
	assert_int_equal(bpfkit_btf_enumerators(*state, "outer", collect, buf),
			 -ENOENT);
	assert_int_equal(bpfkit_btf_enumerators("/proc/self/cmdline", "big",
						collect, buf),
			 -EINVAL);
}

/* A tracepoint's format file: its fields' offsets, by their names. */
static void test_format_fields(void **state)
{
	static const char format[] =
		"name: mark_victim\nID: 609\nformat:\n"
		"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
		"\tfield:int pid;\toffset:8;\tsize:4;\tsigned:1;\n"
		"\tfield:__data_loc char[] comm;\toffset:12;\tsize:4;\tsigned:0;\n"
		"\tfield:char name[16];\toffset:16;\tsize:16;\tsigned:0;\n"
		"\tfield:short oom_score_adj;\toffset:64;\tsize:2;\tsigned:1;\n"
		"\nprint fmt: \"pid=%d\", REC->pid\n";
	struct bpfkit_tp_field f[] = {
		{ .name = "pid", .size = 4 },
		{ .name = "comm", .size = 4 },
		{ .name = "name", .size = 16 },
		{ .name = "oom_score_adj", .size = 2 },
		{ .name = "uid", .size = 4 },
		{ .name = "adj", .size = 2 },
	};
	struct bpfkit_tp_field wide = { .name = "oom_score_adj", .size = 4 };

	assert_int_equal(bpfkit_format_fields(format, f, 6), 0);
	assert_int_equal(f[0].offset, 8); /* not common_pid's */
	assert_int_equal(f[1].offset, 12);
	assert_int_equal(f[2].offset, 16);
	assert_int_equal(f[3].offset, 64);
	assert_int_equal(f[4].offset, BPFKIT_ABSENT);
	assert_int_equal(f[5].offset, BPFKIT_ABSENT); /* not a name's tail */
	assert_int_equal(bpfkit_format_fields(format, &wide, 1), -ERANGE);
}

static void test_refused(void **state)
{
	struct bpfkit_btf_member size[] = {
		{ .type = "outer", .name = "a", .size = 4 },
		{ .type = "outer", .name = "c", .size = 8 },
	};
	struct bpfkit_btf_member array = { .type = "outer",
					   .name = "name",
					   .size = 16 };
	struct bpfkit_btf_member bitfield = { .type = "outer",
					      .name = "bits",
					      .size = 4 };
	struct bpfkit_btf_member member = { .type = "outer",
					    .name = "pa",
					    .size = 4 };
	struct bpfkit_btf_member type = { .type = "oute",
					  .name = "a",
					  .size = 4 };
	const struct bpfkit_btf_member *failed;

	assert_int_equal(bpfkit_btf_member_offsets(*state, size, 2, &failed),
			 -ERANGE);
	assert_ptr_equal(failed, &size[1]);
	assert_int_equal(bpfkit_btf_member_offsets(*state, &array, 1, &failed),
			 -ERANGE);
	assert_int_equal(bpfkit_btf_member_offsets(*state, &bitfield, 1,
						   &failed),
			 -ENOENT);
	assert_int_equal(bpfkit_btf_member_offsets(*state, &member, 1, &failed),
			 -ENOENT);
	assert_int_equal(bpfkit_btf_member_offsets(*state, &type, 1, &failed),
			 -ENOENT);
	assert_int_equal(bpfkit_btf_member_offsets("/proc/self/cmdline", &type,
						   1, &failed),
			 -EINVAL);
	assert_int_equal(bpfkit_btf_member_offsets("/nonexistent", &type, 1,
						   &failed),
			 -ENOENT);
}

/* On the running kernel's BTF: task_struct's offsets as libbpf finds them. */
static void test_kernel_task_struct(void **state)
{
	static const char *const names[] = { "signal",	    "exit_code",
					     "start_time",  "group_leader",
					     "real_parent", "tgid" };
	static const __u32 sizes[] = { 8, 4, 8, 8, 8, 4 };
	struct bpfkit_btf_member m[6];
	const struct bpfkit_btf_member *failed;
	const struct btf_member *bm;
	const struct btf_type *t;
	struct btf *btf;
	int i, j, id;

	btf = btf__load_vmlinux_btf();
	if (!btf || sizeof(void *) != 8)
		skip();
	for (i = 0; i < 6; i++)
		m[i] = (struct bpfkit_btf_member){ .type = "task_struct",
						   .name = names[i],
						   .size = sizes[i] };
	assert_int_equal(bpfkit_btf_member_offsets(NULL, m, 6, &failed), 0);
	id = btf__find_by_name_kind(btf, "task_struct", BTF_KIND_STRUCT);
	assert_true(id > 0);
	t = btf__type_by_id(btf, id);
	for (i = 0; i < 6; i++) {
		bm = btf_members(t);
		for (j = 0; j < btf_vlen(t); j++, bm++)
			if (!strcmp(btf__name_by_offset(btf, bm->name_off),
				    names[i]))
				break;
		assert_true(j < btf_vlen(t));
		assert_int_equal(m[i].offset, btf_member_bit_offset(t, j) / 8);
	}
	btf__free(btf);
}

/*
 * Kernel functions from /proc/kallsyms: a range ending at the next symbol;
 * one the kernel lacks keeps 0; the first one wanted, found, ends the pass.
 */
static void test_kernel_funcs(void **state)
{
	struct bpfkit_kernel_func missing[] = {
		{ .name = "bpfkit_no_such_function" },
		{ .name = "do_exit" },
	};
	struct bpfkit_kernel_func first[] = {
		{ .name = "do_exit" },
		{ .name = "bpfkit_no_such_function" },
	};
	int n;

	n = bpfkit_kernel_funcs(missing, 2);
	if (n <= 0)
		skip(); /* addresses hidden: not root, or kptr_restrict */
	assert_int_equal(n, 1);
	assert_int_equal(missing[0].start, 0);
	assert_int_equal(missing[0].end, 0);
	assert_true(missing[1].start);
	assert_true(missing[1].end > missing[1].start);
	assert_true(missing[1].end - missing[1].start < 1 << 20);
	/* do_exit found, nothing else is looked for: the same range. */
	assert_int_equal(bpfkit_kernel_funcs(first, 2), 1);
	assert_int_equal(first[0].start, missing[1].start);
	assert_int_equal(first[0].end, missing[1].end);
	assert_int_equal(first[1].start, 0);
}

/* Raw BTF of one struct "kept" { B_BITS-bit int b; int a; } at PATH. */
static void write_kept(const char *path, int b_bits)
{
	struct btf *btf = btf__new_empty();
	char tmp[PATH_MAX];
	const void *raw;
	int fd, i32, b;
	__u32 size;

	assert_non_null(btf);
	i32 = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	b = b_bits == 32 ? i32 : btf__add_int(btf, "long", 8, BTF_INT_SIGNED);
	btf__add_struct(btf, "kept", 4 + b_bits / 8);
	btf__add_field(btf, "b", b, 0, 0);
	btf__add_field(btf, "a", i32, b_bits, 0);
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
 * The passes of one process share one walk, which follows the file: one
 * replaced since is read again, and bpfkit_btf_release() lets it go.
 */
static void test_kept(void **state)
{
	struct bpfkit_btf_member m = { .type = "kept", .name = "a", .size = 4 };
	const struct bpfkit_btf_member *failed;
	char path[] = "/tmp/bpfkit-test-kept-XXXXXX";
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	close(fd);
	write_kept(path, 32);
	assert_int_equal(bpfkit_btf_member_offsets(path, &m, 1, &failed), 0);
	assert_int_equal(m.offset, 4);
	/* Another file at the same path: its own offsets, not the kept ones. */
	write_kept(path, 64);
	assert_int_equal(bpfkit_btf_member_offsets(path, &m, 1, &failed), 0);
	assert_int_equal(m.offset, 8);
	/* Another path between: each file read as it is. */
	m = (struct bpfkit_btf_member){ .type = "outer",
					.name = "c",
					.size = 4 };
	assert_int_equal(bpfkit_btf_member_offsets(*state, &m, 1, &failed), 0);
	assert_int_equal(m.offset, 12);
	m = (struct bpfkit_btf_member){ .type = "kept",
					.name = "a",
					.size = 4 };
	assert_int_equal(bpfkit_btf_member_offsets(path, &m, 1, &failed), 0);
	assert_int_equal(m.offset, 8);
	bpfkit_btf_release();
	bpfkit_btf_release(); /* twice: nothing kept is nothing to free */
	assert_int_equal(bpfkit_btf_member_offsets(path, &m, 1, &failed), 0);
	assert_int_equal(m.offset, 8);
	/* A file gone: its error, not what was kept of it. */
	unlink(path);
	assert_int_equal(bpfkit_btf_member_offsets(path, &m, 1, &failed),
			 -ENOENT);
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
		cmocka_unit_test(test_offsets),
		cmocka_unit_test(test_bitfield),
		cmocka_unit_test(test_renamed),
		cmocka_unit_test(test_optional),
		cmocka_unit_test(test_enumerators),
		cmocka_unit_test(test_enumerator_walk),
		cmocka_unit_test(test_format_fields),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_kernel_task_struct),
		cmocka_unit_test(test_kernel_funcs),
		cmocka_unit_test(test_kept),
		cmocka_unit_test(test_kernel_at_least),
	};

	return cmocka_run_group_tests_name("kernel", tests, write_btf,
					   remove_btf);
}
