// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Option parsing: number and user parsing, the common options, and what
 * they become for the rooms: channel settings and the filter BPF reads.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "cli.h"
#include "diag.h"

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

static void test_parse_elf(void **state)
{
	const char *path = NULL;

	assert_int_equal(bpfkit_parse_elf("-s", "/bin/true", &path), 0);
	assert_string_equal(path, "/bin/true");
	assert_int_equal(bpfkit_parse_elf("-s", "", &path), EINVAL);
	assert_int_equal(bpfkit_parse_elf("-s", "/nonexistent/h9", &path),
			 EINVAL);
	assert_int_equal(bpfkit_parse_elf("-s", "/", &path), EINVAL);
	assert_int_equal(bpfkit_parse_elf("-s", "/etc/passwd", &path), EINVAL);
	assert_string_equal(path, "/bin/true");
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

/* A tool's binary option: its default, or the ELF file given after it. */
static void test_binary_option(void **state)
{
	static const char *path = "/bin/sh";
	static const struct bpfkit_binary_opt binary = {
		.name = "binary",
		.key = 'b',
		.doc = "test",
		.path = &path,
	};
	static const struct bpfkit_tool tool = {
		.name = "test-cli",
		.doc = "test",
		.options = BPFKIT_OPT_EVENTS,
		.binary = &binary,
	};
	char *none[] = { "test-cli", NULL };
	char *given[] = { "test-cli", "-b", "/bin/true", NULL };

	bpfkit_parse(&tool, 1, none);
	assert_string_equal(path, "/bin/sh");
	bpfkit_parse(&tool, 3, given);
	assert_string_equal(path, "/bin/true");
}

/* With no option: every task, perf buffer, 64 pages and records, 100 ms. */
static void test_defaults(void **state)
{
	static const struct bpfkit_tool tool = {
		.name = "test-cli",
		.doc = "test",
		.options = BPFKIT_OPT_EVENTS,
	};
	const struct bpfkit_filter all = BPFKIT_FILTER_ALL;
	char *argv[] = { "test-cli", NULL };

	bpfkit_parse(&tool, 1, argv);
	assert_memory_equal(&bpfkit_opts.filter, &all, sizeof(all));
	assert_int_equal(bpfkit_opts.filter.uid, BPFKIT_ANY_UID);
	assert_int_equal(bpfkit_opts.channel.transport, BPFKIT_PERF_BUFFER);
	assert_int_equal(bpfkit_opts.channel.pages, 64);
	assert_int_equal(bpfkit_opts.channel.wakeup, 1024);
	assert_int_equal(bpfkit_opts.channel.latency_ms, 100);
	assert_false(bpfkit_opts.output.json);
	assert_true(bpfkit_opts.duration == 0);
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

/* The metrics options: into the metrics room, histograms made cumulative. */
static void test_metrics_options(void **state)
{
	static const struct bpfkit_tool tool = {
		.name = "test-cli",
		.doc = "test",
		.options = BPFKIT_OPT_HIST,
	};
	/* clang-format off */
	char *argv[] = {
		"test-cli",
		"--metrics", ":9435",
		"--textfile", "/tmp",
		"--print",
		"--metrics-labels", "comm,pid",
		"--max-series", "7",
		NULL,
	};
	/* clang-format on */

	bpfkit_parse(&tool, sizeof(argv) / sizeof(argv[0]) - 1, argv);
	assert_string_equal(bpfkit_opts.metrics.listen, ":9435");
	assert_string_equal(bpfkit_opts.metrics.textfile_dir, "/tmp");
	assert_string_equal(bpfkit_opts.metrics.tool, "test-cli");
	assert_int_equal(bpfkit_opts.metrics.max_series, 7);
	assert_true(bpfkit_metrics_enabled());
	assert_false(bpfkit_metrics_quiet());
	assert_true(bpfkit_metrics_label(BPFKIT_LABEL_PID));
	assert_true(bpfkit_metrics_label(BPFKIT_LABEL_COMM));
	/* Counters never go back: the histograms are never reset. */
	assert_true(bpfkit_opts.hist.cumulative);
}

/*
 * -m is the block-time tools' minimum, the histogram tools' milliseconds;
 * the blocks counted go to the BPF side in nanoseconds.
 */
static void test_block_time_options(void **state)
{
	static const struct bpfkit_tool blocks = {
		.name = "test-cli",
		.doc = "test",
		.options = BPFKIT_OPT_BLOCK_TIME,
	};
	static const struct bpfkit_tool hist = {
		.name = "test-cli",
		.doc = "test",
		.options = BPFKIT_OPT_HIST,
	};
	char *limits[] = { "test-cli", "-m", "10", "-M", "20", NULL };
	char *millis[] = { "test-cli", "-m", NULL };
	struct bpfkit_stack_cfg cfg;

	assert_int_equal(bpfkit_opts.stacks.min_block_us, 1);
	assert_int_equal(bpfkit_opts.stacks.max_block_us, 0);
	bpfkit_stack_cfg_init(&cfg, &bpfkit_opts.stacks);
	assert_int_equal(cfg.min_block_ns, 1000);
	assert_true(cfg.max_block_ns == ~0ULL);
	bpfkit_parse(&blocks, 5, limits);
	assert_int_equal(bpfkit_opts.stacks.min_block_us, 10);
	assert_int_equal(bpfkit_opts.stacks.max_block_us, 20);
	bpfkit_stack_cfg_init(&cfg, &bpfkit_opts.stacks);
	assert_int_equal(cfg.min_block_ns, 10000);
	assert_int_equal(cfg.max_block_ns, 20000);
	assert_false(bpfkit_opts.hist.millis);
	bpfkit_parse(&hist, 2, millis);
	assert_true(bpfkit_opts.hist.millis);
}

/* -i and [INTERVAL [COUNT]] without the histograms' options. */
static void test_interval_option(void **state)
{
	static const struct bpfkit_tool tool = {
		.name = "test-cli",
		.doc = "test",
		.args_doc = "[INTERVAL [COUNT]]",
		.options = BPFKIT_OPT_INTERVAL,
	};
	char *positional[] = { "test-cli", "3", "4", NULL };
	char *option[] = { "test-cli", "-i", "2", NULL };

	memset(&bpfkit_opts.hist, 0, sizeof(bpfkit_opts.hist));
	bpfkit_parse(&tool, 3, positional);
	assert_int_equal(bpfkit_opts.hist.interval, 3);
	assert_int_equal(bpfkit_opts.hist.count, 4);
	memset(&bpfkit_opts.hist, 0, sizeof(bpfkit_opts.hist));
	bpfkit_parse(&tool, 3, option);
	assert_int_equal(bpfkit_opts.hist.interval, 2);
	assert_int_equal(bpfkit_opts.hist.count, 0);
}

/* The channel options, as the BPF side's bpfkit_channel_cfg gets them. */
static void test_channel_cfg(void **state)
{
	struct bpfkit_channel_opts opts = BPFKIT_CHANNEL_DEFAULTS;
	__u64 ring = sysconf(_SC_PAGESIZE);
	struct bpfkit_channel_cfg cfg;

	/* After test_common_options: --ringbuf --buffer-pages 8 --wakeup 4. */
	bpfkit_channel_cfg_init(&cfg, &bpfkit_opts.channel);
	assert_int_equal(cfg.ringbuf, 1);
	assert_int_equal(cfg.wakeup, 4);
	while (ring < 8ULL * sysconf(_SC_PAGESIZE) * libbpf_num_possible_cpus())
		ring <<= 1;
	assert_int_equal(cfg.wakeup_bytes, ring / 2);

	/* The perf buffer's: half of one CPU's. */
	bpfkit_channel_cfg_init(&cfg, &opts);
	assert_int_equal(cfg.ringbuf, 0);
	assert_int_equal(cfg.wakeup, 1024);
	assert_int_equal(cfg.wakeup_bytes, 64 * sysconf(_SC_PAGESIZE) / 2);
}

/* -p, -u, -c and --cgroup as the BPF side reads struct bpfkit_filter. */
static void test_filter_encoding(void **state)
{
	static const struct bpfkit_tool tool = {
		.name = "test-cli",
		.doc = "test",
		.options = BPFKIT_OPT_FILTERS,
	};
	const char comm[BPFKIT_COMM_LEN] = "fifteen-chars-x";
	char *argv[] = { "test-cli", "-c",    "fifteen-chars-x",
			 "-u",	     "65534", NULL };

	/* The layout both sides compile. */
	assert_int_equal(offsetof(struct bpfkit_filter, pid), 0);
	assert_int_equal(offsetof(struct bpfkit_filter, uid), 4);
	assert_int_equal(offsetof(struct bpfkit_filter, cgroup_id), 8);
	assert_int_equal(offsetof(struct bpfkit_filter, comm), 16);
	assert_int_equal(offsetof(struct bpfkit_filter, containers), 32);
	assert_int_equal(sizeof(struct bpfkit_filter), 40);

	/* The longest name the kernel keeps, NUL-terminated. */
	memset(bpfkit_opts.filter.comm, 'z', BPFKIT_COMM_LEN);
	bpfkit_parse(&tool, 5, argv);
	assert_memory_equal(bpfkit_opts.filter.comm, comm, BPFKIT_COMM_LEN);
	assert_int_equal(bpfkit_opts.filter.uid, 65534);
}

/*
 * A tool that says what it counts offers -C/--count: its counts at exit
 * instead of its events, and no header; -C is -C/--cpus elsewhere.
 */
static void test_counts_option(void **state)
{
	static const struct bpfkit_tool counter = {
		.name = "test-cli",
		.doc = "test",
		.counts = "Count tests, printed at exit",
	};
	static const struct bpfkit_tool totals = {
		.name = "test-cli",
		.doc = "test",
		.options = BPFKIT_OPT_HIST | BPFKIT_OPT_TOTALS,
	};
	char *argv[] = { "test-cli", "-C", NULL };

	bpfkit_parse(&totals, 2, argv);
	assert_true(bpfkit_opts.hist.per_cpu);
	assert_false(bpfkit_output_counts());
	bpfkit_parse(&counter, 2, argv);
	assert_true(bpfkit_opts.output.counts);
	assert_true(bpfkit_output_counts());
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_ulong),
		cmocka_unit_test(test_parse_elf),
		cmocka_unit_test(test_parse_uid),
		cmocka_unit_test(test_binary_option),
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_common_options),
		cmocka_unit_test(test_metrics_options),
		cmocka_unit_test(test_block_time_options),
		cmocka_unit_test(test_counts_option),
		cmocka_unit_test(test_channel_cfg),
		cmocka_unit_test(test_interval_option),
		cmocka_unit_test(test_filter_encoding),
	};

	/* Parse errors print one line on stderr; keep the TAP stream clean. */
	bpfkit_set_tool_name("test-cli");
	return cmocka_run_group_tests_name("cli", tests, NULL, NULL);
}
