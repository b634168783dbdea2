// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The privs room: the capabilities a set lacks for BPF and for user
 * probes, the effective set as the kernel reports it, preflight's verdict
 * (on a tracefs of the test's own), and no drop without a user.
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
#include <linux/capability.h>
#include <cmocka.h>
#include "privs.h"
#include "tracefs.h"

#define CAP(c) (1ULL << (c))
#define BPF CAP(39)
#define PERFMON CAP(38)
#define SYS_ADMIN CAP(CAP_SYS_ADMIN)

/* The effective set from /proc/self/status, as the kernel reports it. */
static __u64 cap_eff(void)
{
	unsigned long long eff = 0;
	char line[128];
	FILE *f = fopen("/proc/self/status", "re");

	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &eff) == 1)
			break;
	fclose(f);
	return eff;
}

static void test_caps_missing(void **state)
{
	assert_null(bpfkit_caps_missing(SYS_ADMIN, false));
	assert_null(bpfkit_caps_missing(SYS_ADMIN, true));
	assert_null(bpfkit_caps_missing(BPF | PERFMON, false));
	assert_null(bpfkit_caps_missing(~0ULL, true));
	assert_string_equal(bpfkit_caps_missing(BPF | PERFMON, true),
			    "CAP_SYS_ADMIN");
	assert_string_equal(bpfkit_caps_missing(0, true), "CAP_SYS_ADMIN");
	assert_string_equal(bpfkit_caps_missing(BPF, false), "CAP_PERFMON");
	assert_string_equal(bpfkit_caps_missing(PERFMON, false), "CAP_BPF");
	assert_string_equal(bpfkit_caps_missing(0, false),
			    "CAP_BPF and CAP_PERFMON");
	assert_string_equal(bpfkit_caps_missing(~(BPF | SYS_ADMIN), false),
			    "CAP_BPF");
}

/* Whatever the test runs with, has_cap() agrees with the kernel's CapEff. */
static void test_has_cap(void **state)
{
	__u64 eff = cap_eff();
	int cap;

	for (cap = 0; cap <= 40; cap++)
		assert_int_equal(bpfkit_has_cap(cap), !!(eff & CAP(cap)));
}

/*
 * On a tracefs that is there, and with a BTF file named (so that the
 * kernel's is not asked for): -EPERM exactly when the capabilities lack.
 */
static void test_preflight(void **state)
{
	char dir[] = "/tmp/bpfkit-test-tracefs-XXXXXX";
	__u64 eff = cap_eff();

	assert_non_null(mkdtemp(dir));
	bpfkit_tracefs_use(dir);
	assert_int_equal(bpfkit_preflight("/btf", false),
			 bpfkit_caps_missing(eff, false) ? -EPERM : 0);
	assert_int_equal(bpfkit_preflight("/btf", true),
			 bpfkit_caps_missing(eff, true) ? -EPERM : 0);
	rmdir(dir);
}

/* Without --drop-privileges: nothing to do, every capability kept. */
static void test_no_drop(void **state)
{
	const struct bpfkit_drop_opts none = { .user = NULL };
	__u64 eff = cap_eff();

	assert_int_equal(bpfkit_drop_privileges(&none), 0);
	assert_int_equal(cap_eff(), eff);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_caps_missing),
		cmocka_unit_test(test_has_cap),
		cmocka_unit_test(test_preflight),
		cmocka_unit_test(test_no_drop),
	};

	return cmocka_run_group_tests_name("privs", tests, NULL, NULL);
}
