// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The tracefs room on a directory laid out like tracefs: tracepoints that
 * exist and those that do not, the one line naming a missing one.
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
#include <sys/stat.h>
#include <cmocka.h>
#include "diag.h"
#include "tracefs.h"

static char dir[] = "/tmp/bpfkit-test-tracefs-XXXXXX";

/* DIR/events/CATEGORY/NAME, as tracefs has a tracepoint. */
static void add_tracepoint(const char *category, const char *name)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/events", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/events/%s", dir, category);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/events/%s/%s", dir, category, name);
	assert_int_equal(mkdir(path, 0755), 0);
}

static int make_tracefs(void **state)
{
	if (!mkdtemp(dir))
		return -1;
	bpfkit_tracefs_use(dir);
	return 0;
}

static int remove_tracefs(void **state)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd);
}

static void test_tracepoint_exists(void **state)
{
	add_tracepoint("sched", "sched_switch");
	assert_string_equal(bpfkit_tracefs(), dir);
	assert_true(bpfkit_tracepoint_exists("sched", "sched_switch"));
	assert_false(bpfkit_tracepoint_exists("sched", "sched_nothing"));
	assert_false(bpfkit_tracepoint_exists("nothing", "sched_switch"));
}

/* A missing tracepoint: -ENOENT and one line naming it and why. */
static void test_require_tracepoint(void **state)
{
	char path[] = "/tmp/bpfkit-test-stderr-XXXXXX", line[256] = "";
	int fd = mkstemp(path), saved = dup(STDERR_FILENO);
	FILE *f;

	add_tracepoint("sock", "inet_sock_set_state");
	assert_int_equal(bpfkit_require_tracepoint("sock",
						   "inet_sock_set_state", "x"),
			 0);
	bpfkit_set_tool_name("t");
	fflush(stderr);
	dup2(fd, STDERR_FILENO);
	assert_int_equal(bpfkit_require_tracepoint("tcp", "tcp_retransmit_skb",
						   "Linux 4.15 on"),
			 -ENOENT);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	f = fdopen(fd, "r");
	rewind(f);
	assert_non_null(fgets(line, sizeof(line), f));
	assert_string_equal(
		line,
		"t: this kernel has no tcp:tcp_retransmit_skb tracepoint (Linux 4.15 on)\n");
	assert_null(fgets(line, sizeof(line), f));
	fclose(f);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tracepoint_exists),
		cmocka_unit_test(test_require_tracepoint),
	};

	return cmocka_run_group_tests_name("tracefs", tests, make_tracefs,
					   remove_tracefs);
}
