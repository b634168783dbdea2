// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * tcptop: the TCP flows that moved the most bytes, sent and received, per
 * process, every interval: a top-like table (or JSON Lines) of the top
 * rows, the counts cleared after each.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include "cli.h"
#include "diag.h"
#include "kernel.h"
#include "metrics.h"
#include "net.h"
#include "output.h"
#include "run.h"
#include "setup.h"
#include "tracefs.h"
#include "tcptop.h"
#include "tcptop.skel.h"

enum { KB_W = 9 };

static struct {
	unsigned long interval; /* seconds */
	unsigned long count; /* intervals, then stop; 0: until stopped */
	unsigned long rows; /* the top ones shown; 0: all */
	bool noclear; /* -C */
} env = { .interval = 1, .rows = 20 };

static const struct argp_option options[] = {
	{ "interval", 'i', "SECONDS", 0,
	  "Print every SECONDS (default 1; same as INTERVAL)", 0 },
	{ "rows", 'r', "N", 0, "Print the top N flows (default 20; 0: all)",
	  0 },
	{ "noclear", 'C', NULL, 0, "Do not clear the screen between intervals",
	  0 },
	{},
};

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case 'i':
		return bpfkit_parse_ulong("-i/--interval", arg, 1, 86400,
					  &env.interval);
	case 'r':
		return bpfkit_parse_ulong("-r/--rows", arg, 0, TCPTOP_MAX_KEYS,
					  &env.rows);
	case 'C':
		env.noclear = true;
		return 0;
	case ARGP_KEY_ARG:
		if (state->arg_num == 0)
			return bpfkit_parse_ulong("INTERVAL", arg, 1, 86400,
						  &env.interval);
		if (state->arg_num == 1)
			return bpfkit_parse_ulong("COUNT", arg, 1, 1UL << 31,
						  &env.count);
		return ARGP_ERR_UNKNOWN;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static const struct bpfkit_tool tool = {
	.name = "tcptop",
	.doc = "Show the TCP flows moving the most bytes, per process, every interval.\n"
	       "\v"
	       "Examples:\n"
	       "  tcptop                     # the top 20 flows, every second\n"
	       "  tcptop -C 5 3              # every 5 s, 3 times, no screen clearing\n"
	       "  tcptop -p 181 -r 5         # process 181's top 5 flows\n"
	       "  tcptop -D 443 -j           # flows to port 443, as JSON Lines\n",
	.args_doc = "[INTERVAL [COUNT]]",
	.options = BPFKIT_OPT_FILTERS | BPFKIT_OPT_JSON | BPFKIT_OPT_METRICS |
		   BPFKIT_OPT_FAMILY | BPFKIT_OPT_PORTS,
	.own_options = options,
	.own_parser = parse_arg,
};

struct row {
	struct tcptop_key key;
	struct tcptop_val val;
};

struct report {
	int map_fd;
	struct row *rows;
	struct tcptop_key *keys;
	unsigned int intervals;
	struct timespec last;
};

/* Most bytes first; ties by key, so output is stable. */
static int by_bytes(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	__u64 tx = x->val.sent + x->val.received;
	__u64 ty = y->val.sent + y->val.received;

	if (tx != ty)
		return tx < ty ? 1 : -1;
	return memcmp(&x->key, &y->key, sizeof(x->key));
}

/*
 * Take every flow out of the map, most bytes first; their number. With
 * metrics, keep them: counters never go back.
 */
static int take_rows(struct report *r)
{
	struct tcptop_key *prev = NULL, key;
	int n = 0, nkeys = 0, i;
	struct row *w;

	while (nkeys < TCPTOP_MAX_KEYS &&
	       !bpf_map_get_next_key(r->map_fd, prev, &key)) {
		r->keys[nkeys] = key;
		prev = &r->keys[nkeys++];
	}
	for (i = 0; i < nkeys; i++) {
		w = &r->rows[n];
		w->key = r->keys[i];
		if (bpfkit_metrics_enabled()) {
			if (bpf_map_lookup_elem(r->map_fd, &w->key, &w->val))
				continue;
		} else if (bpf_map_lookup_and_delete_elem(r->map_fd, &w->key,
							  &w->val)) {
			/* Kernels before 5.14 cannot do both in one step. */
			if (bpf_map_lookup_elem(r->map_fd, &w->key, &w->val))
				continue;
			bpf_map_delete_elem(r->map_fd, &w->key);
		}
		w->val.comm[sizeof(w->val.comm) - 1] = '\0';
		n++;
	}
	qsort(r->rows, n, sizeof(*r->rows), by_bytes);
	return n;
}

static void print_json(struct report *r, int n, double seconds)
{
	struct bpfkit_json j;
	int i;

	bpfkit_json_begin(&j, stdout, NULL);
	bpfkit_json_uint(&j, "interval", r->intervals);
	bpfkit_json_double(&j, "seconds", seconds);
	bpfkit_json_array_begin(&j, "flows");
	for (i = 0; i < n; i++) {
		const struct row *w = &r->rows[i];

		bpfkit_json_object_begin(&j, NULL);
		bpfkit_json_uint(&j, "pid", w->key.pid);
		bpfkit_json_str(&j, "comm", w->val.comm, sizeof(w->val.comm));
		bpfkit_json_flow(&j, &w->key.flow);
		bpfkit_json_uint(&j, "rx_bytes", w->val.received);
		bpfkit_json_uint(&j, "tx_bytes", w->val.sent);
		bpfkit_json_object_end(&j);
	}
	bpfkit_json_array_end(&j);
	bpfkit_json_end(&j);
}

/* The load averages, as /proc/loadavg has them, in BUF; "" if unread. */
static const char *loadavg(char *buf, size_t len)
{
	FILE *f = fopen("/proc/loadavg", "r");

	buf[0] = '\0';
	if (f) {
		if (!fgets(buf, len, f))
			buf[0] = '\0';
		buf[strcspn(buf, "\n")] = '\0';
		fclose(f);
	}
	return buf;
}

static void print_table(const struct report *r, int n)
{
	char now[16], load[64];
	time_t t = time(NULL);
	int i;

	/* Clear a terminal (not -C); a file or pipe gets a blank line. */
	if (!env.noclear && isatty(STDOUT_FILENO))
		printf("\033[H\033[2J");
	else if (r->intervals > 1)
		putchar('\n');
	strftime(now, sizeof(now), "%H:%M:%S", localtime(&t));
	printf("%s loadavg: %s\n", now, loadavg(load, sizeof(load)));
	printf("%-*s %-*s %s %*s %*s\n", BPFKIT_PID_W, "PID", BPFKIT_COMM_W,
	       "COMM", bpfkit_flow_header('L', 'R'), KB_W, "RX_KB", KB_W,
	       "TX_KB");
	for (i = 0; i < n; i++) {
		const struct row *w = &r->rows[i];

		bpfkit_print_task(w->key.pid, w->val.comm);
		bpfkit_print_flow(&w->key.flow);
		printf(" %*llu %*llu\n", KB_W,
		       (unsigned long long)w->val.received / 1024, KB_W,
		       (unsigned long long)w->val.sent / 1024);
	}
}

/* Take every flow out of the map, sort, print the top ones. */
static int report(void *ctx)
{
	struct report *r = ctx;
	int n = take_rows(r);

	if (env.rows && (unsigned long)n > env.rows)
		n = env.rows;
	r->intervals++;
	if (bpfkit_output_json())
		print_json(r, n, bpfkit_lap(&r->last));
	else
		print_table(r, n);
	/* After COUNT intervals, end the run. */
	return env.count && r->intervals >= env.count;
}

/*
 * A scrape: bytes sent and received per flow, labelled by its addresses
 * and ports, and by pid and comm as --metrics-labels asks.
 */
static int fill_metrics(struct bpfkit_metrics *m, void *ctx)
{
	struct report *r = ctx;
	int n = take_rows(r), i, pass, k, err = 0;
	char lport[8], rport[8], pid[16];
	struct bpfkit_flow_text t;
	const char *labels[13];

	for (pass = 0; pass < 2 && !err; pass++) {
		err = bpfkit_metrics_family(
			m,
			pass ? "bpfkit_tcptop_received_bytes_total" :
			       "bpfkit_tcptop_sent_bytes_total",
			BPFKIT_COUNTER,
			pass ? "TCP bytes received, per flow" :
			       "TCP bytes sent, per flow");
		for (i = 0; i < n && !err; i++) {
			const struct row *w = &r->rows[i];

			bpfkit_flow_text(&w->key.flow, &t);
			snprintf(lport, sizeof(lport), "%u", w->key.flow.sport);
			snprintf(rport, sizeof(rport), "%u", w->key.flow.dport);
			k = 0;
			labels[k++] = "laddr";
			labels[k++] = t.saddr;
			labels[k++] = "lport";
			labels[k++] = lport;
			labels[k++] = "raddr";
			labels[k++] = t.daddr;
			labels[k++] = "rport";
			labels[k++] = rport;
			bpfkit_metrics_task_labels(labels, k, "pid", w->key.pid,
						   w->val.comm, pid,
						   sizeof(pid));
			err = bpfkit_metrics_add(m, labels,
						 pass ? w->val.received :
							w->val.sent);
		}
	}
	return err;
}

/*
 * The syscalls counted before Linux 6.3, each with its two programs; only
 * where the kernel has no sock:sock_send_length.
 */
enum { NR_CALLS = 8 };

static void sock_calls(struct tcptop_bpf *skel,
		       struct bpfkit_syscall_tp calls[NR_CALLS])
{
	const struct bpfkit_syscall_tp c[NR_CALLS] = {
#define CALL(name)                                                         \
	{ skel->progs.tcptop_enter_##name, skel->progs.tcptop_exit_##name, \
	  #name }
		CALL(write), CALL(writev), CALL(sendto),   CALL(sendmsg),
		CALL(read),  CALL(readv),  CALL(recvfrom), CALL(recvmsg),
#undef CALL
	};

	memcpy(calls, c, sizeof(c));
}

/*
 * Keep sock:sock_send_length's and sock_recv_length's programs where the
 * kernel has them (Linux 6.3+), else the syscalls'. 0 or -ENOENT (said).
 */
static int choose_programs(struct tcptop_bpf *skel)
{
	struct bpfkit_syscall_tp calls[NR_CALLS];
	bool sock = bpfkit_tracepoint_exists("sock", "sock_send_length") &&
		    bpfkit_tracepoint_exists("sock", "sock_recv_length");
	int i;

	bpf_program__set_autoload(skel->progs.tcptop_send_length, sock);
	bpf_program__set_autoload(skel->progs.tcptop_recv_length, sock);
	sock_calls(skel, calls);
	if (!sock)
		return bpfkit_syscall_tps_autoload(
			calls, NR_CALLS,
			"sys_enter_read/write tracepoints, nor sock:sock_send_length (Linux 6.3+)");
	for (i = 0; i < NR_CALLS; i++) {
		bpf_program__set_autoload(calls[i].enter, false);
		bpf_program__set_autoload(calls[i].exit, false);
	}
	/* No syscall is staged: do not allocate its map's slots. */
	bpf_map__set_max_entries(skel->maps.bpfkit_staging, 1);
	return 0;
}

int main(int argc, char **argv)
{
	struct report r = {};
	struct bpfkit_tick tick = { .fn = report, .ctx = &r };
	struct tcptop_bpf *skel = NULL;
	int err;

	/* Parse options; check privileges, tracefs and kernel BTF. */
	bpfkit_setup(&tool, argc, argv);

	/* Open the BPF object. */
	skel = tcptop_bpf__open_opts(bpfkit_open_opts());
	if (!skel)
		return bpfkit_open_failed();

	/* The sock tracepoints, or the syscalls before Linux 6.3. */
	err = choose_programs(skel);
	if (err)
		goto cleanup;
	/* Flows take memory as they come, where the kernel allows it. */
	bpfkit_sparse_map(skel->maps.tcptop_flows);

	/* Write the filters to .rodata; load and verify. */
	err = bpfkit_load(skel->skeleton);
	if (err)
		goto cleanup;

	/* Make room to read the flows map. */
	r.map_fd = bpf_map__fd(skel->maps.tcptop_flows);
	r.rows = calloc(TCPTOP_MAX_KEYS, sizeof(*r.rows));
	r.keys = calloc(TCPTOP_MAX_KEYS, sizeof(*r.keys));
	if (!r.rows || !r.keys) {
		err = -ENOMEM;
		bpfkit_fail("allocate the report", err);
		goto cleanup;
	}

	/* Attach; count until COUNT intervals, a signal or --duration. */
	err = bpfkit_attach(skel->skeleton, NULL, NULL, NULL);
	if (err)
		goto cleanup;
	clock_gettime(CLOCK_MONOTONIC, &r.last);
	tick.interval_ms = env.interval * 1000;
	bpfkit_metrics_source(fill_metrics, &r);
	err = bpfkit_run(NULL, &tick);

	/* Report what was counted since the last interval. */
	if (!err && !(env.count && r.intervals >= env.count))
		report(&r);
	if (skel->bss->tcptop_missed)
		bpfkit_error(
			"%llu sends or receives not counted: more than %d flows or calls at once",
			(unsigned long long)skel->bss->tcptop_missed,
			TCPTOP_MAX_KEYS);

cleanup:
	free(r.rows);
	free(r.keys);
	tcptop_bpf__destroy(skel);
	return bpfkit_exit_code(err);
}
