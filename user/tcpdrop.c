// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * tcpdrop: print every packet the kernel drops (TCP's, or with -a every
 * protocol's) with its addresses, ports and TCP flags and the drop reason
 * named as the running kernel names it (enum skb_drop_reason in its BTF);
 * -C counts drops per reason and TCP flow and prints them at exit instead;
 * --metrics counts them per reason.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "channel.h"
#include "cli.h"
#include "diag.h"
#include "ksyms.h"
#include "metrics.h"
#include "net.h"
#include "output.h"
#include "run.h"
#include "setup.h"
#include "tally.h"
#include "tracefs.h"
#include "tcpdrop.h"
#include "tcpdrop.skel.h"

/* Column widths, for the header and every row. */
enum {
	PID_W = 7,
	COMM_W = 15,
	PROTO_W = 6,
	ADDR_W = 25,
	PORT_W = 5,
	FLAGS_W = 11,
	REASON_W = 24,
};

/* The longest a protocol, flags or reason text gets. */
#define TEXT_LEN 64

static struct {
	bool all_protocols; /* -a */
	const char *reasons; /* -R, checked against the kernel's BTF */
} env;

static const struct argp_option options[] = {
	{ "all", 'a', NULL, 0, "Trace drops of every protocol, not only TCP's",
	  0 },
	{ "reason", 'R', "REASONS", 0,
	  "Trace drops of these reasons only (comma-separated names, such as "
	  "NETFILTER_DROP,NO_SOCKET)",
	  0 },
	{},
};

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case 'a':
		env.all_protocols = true;
		return 0;
	case 'R':
		if (!*arg)
			return bpfkit_usage_error(
				"-R/--reason needs drop reason names, such as NETFILTER_DROP");
		env.reasons = arg;
		return 0;
	}
	return ARGP_ERR_UNKNOWN;
}

static int fill_metrics(struct bpfkit_metrics *m, void *ctx);

static const struct bpfkit_tool tool = {
	.name = "tcpdrop",
	.doc = "Trace packets the kernel drops: TCP's, with addresses, ports, flags and the reason.\n"
	       "\v"
	       "Examples:\n"
	       "  tcpdrop                    # every TCP packet dropped\n"
	       "  tcpdrop -a                 # drops of every protocol\n"
	       "  tcpdrop -R NETFILTER_DROP  # drops by a firewall rule only\n"
	       "  tcpdrop -C -d 10           # drops per reason and flow over 10 s\n"
	       "  tcpdrop -6 -j              # IPv6 only, as JSON Lines\n",
	.options = BPFKIT_OPT_JSON | BPFKIT_OPT_TIME | BPFKIT_OPT_CHANNEL |
		   BPFKIT_OPT_METRICS | BPFKIT_OPT_FAMILY,
	.own_options = options,
	.own_parser = parse_arg,
	.tracepoints = (const struct bpfkit_tracepoint[]){ { "skb", "kfree_skb",
							     "Linux 2.6.30+" },
							   {} },
	.counts = "Count drops per reason and TCP flow, printed at exit",
	.metrics = fill_metrics,
};

/*
 * Resolve -R's names against the kernel's reasons into R. A name the
 * kernel does not know, or a kernel without reasons, is a usage error.
 */
static int parse_reasons(const char *list, bool kernel_names,
			 struct tcpdrop_reasons *r)
{
	char *copy, *name, *save = NULL;
	long value;
	int err = 0;

	if (!kernel_names)
		return bpfkit_usage_error(
			"-R/--reason: this kernel gives no drop reasons (Linux 5.17+ does); trace without -R");
	copy = strdup(list);
	if (!copy)
		return -ENOMEM;
	for (name = strtok_r(copy, ",", &save); name;
	     name = strtok_r(NULL, ",", &save)) {
		value = bpfkit_drop_reason_value(name);
		if (value < 0 || value >= TCPDROP_REASONS_MAX) {
			err = bpfkit_usage_error(
				"-R/--reason: unknown drop reason '%s' on this kernel; its names are in the print fmt of /sys/kernel/tracing/events/skb/kfree_skb/format",
				name);
			break;
		}
		r->bits[value / 64] |= 1ULL << (value % 64);
		r->any = 1;
	}
	free(copy);
	if (!err && !r->any)
		err = bpfkit_usage_error(
			"-R/--reason needs drop reason names, such as NETFILTER_DROP");
	return err;
}

/* The reason as printed: its name, its number, or "not given". */
static const char *reason_text(const struct tcpdrop_event *e, char *buf,
			       size_t len)
{
	const char *name;

	if (e->reason_kind != TCPDROP_REASON_GIVEN)
		return "not given";
	name = bpfkit_drop_reason_name(e->reason);
	if (name)
		return name;
	snprintf(buf, len, "%u", e->reason);
	return buf;
}

/* The protocol as printed: the IP protocol's name, or the link layer's. */
static const char *proto_text(const struct tcpdrop_event *e, char *buf,
			      size_t len)
{
	static const struct {
		__u8 proto;
		const char *name;
	} ip_protos[] = {
		{ 1, "ICMP" },	 { 2, "IGMP" },	     { 6, "TCP" },
		{ 17, "UDP" },	 { 47, "GRE" },	     { 58, "ICMPv6" },
		{ 132, "SCTP" }, { 136, "UDPLite" },
	};
	size_t i;

	if (e->flow.family) {
		for (i = 0; i < sizeof(ip_protos) / sizeof(ip_protos[0]); i++)
			if (ip_protos[i].proto == e->ipproto)
				return ip_protos[i].name;
		snprintf(buf, len, "ip:%u", e->ipproto);
		return buf;
	}
	switch (e->ethertype) {
	case 0x0806:
		return "ARP";
	case TCPDROP_ETH_P_IP:
	case TCPDROP_ETH_P_IPV6:
		return "IP?"; /* IP without a readable header */
	}
	snprintf(buf, len, "0x%04x", e->ethertype);
	return buf;
}

/* TCP flags as FIN|SYN|RST|PSH|ACK|URG|ECE|CWR, or "-". */
static const char *flags_text(__u8 flags, char *buf, size_t len)
{
	static const char *const names[] = { "FIN", "SYN", "RST", "PSH",
					     "ACK", "URG", "ECE", "CWR" };
	size_t i, off = 0;

	buf[0] = '\0';
	for (i = 0; i < 8; i++)
		if (flags & (1 << i))
			off += snprintf(buf + off, len - off, "%s%s",
					off ? "|" : "", names[i]);
	return off ? buf : "-";
}

static const char *context_name(__u8 context)
{
	switch (context) {
	case TCPDROP_IN_TASK:
		return "task";
	case TCPDROP_IN_INTERRUPT:
		return "interrupt";
	}
	return "unknown";
}

/* Did E come with a TCP header (behind an IP one)? */
static bool has_tcp(const struct tcpdrop_event *e)
{
	return e->flow.family && e->ipproto == TCPDROP_IPPROTO_TCP;
}

/* Drops per reason (--metrics) and per reason and TCP flow (-C). */
struct drop_count {
	struct drop_key {
		__u32 reason;
		__u8 reason_kind;
		__u8 ipproto; /* TCP: the flow is part of the key */
		__u16 ethertype;
		struct bpfkit_flow flow;
	} key;
	__u64 drops;
};

static struct bpfkit_tally by_flow =
	BPFKIT_TALLY_INIT(sizeof(struct drop_count), sizeof(struct drop_key));
static struct bpfkit_tally by_reason =
	BPFKIT_TALLY_INIT(sizeof(struct drop_count), sizeof(struct drop_key));

/* Count E in T, keyed by its reason, and its TCP flow when WITH_FLOW. */
static int count_drop(struct bpfkit_tally *t, const struct tcpdrop_event *e,
		      bool with_flow)
{
	struct drop_count *d;
	struct drop_key key;

	memset(&key, 0, sizeof(key));
	key.reason_kind = e->reason_kind;
	key.reason = e->reason;
	if (with_flow) {
		key.ipproto = e->ipproto;
		key.ethertype = e->ethertype;
		if (has_tcp(e))
			key.flow = e->flow;
		else
			key.flow.family = e->flow.family;
	}
	d = bpfkit_tally_get(t, &key);
	if (!d)
		return -ENOMEM;
	d->drops++;
	return 0;
}

static int by_drops_desc(const void *a, const void *b)
{
	const struct drop_count *x = a, *y = b;

	return x->drops < y->drops ? 1 : x->drops > y->drops ? -1 : 0;
}

/* -C at exit: one row per reason and flow, most drops first. */
static void print_counts(void)
{
	char rbuf[TEXT_LEN], pbuf[TEXT_LEN];
	struct bpfkit_flow_text t;
	struct tcpdrop_event e;
	struct bpfkit_json j;
	size_t i;

	bpfkit_tally_sort(&by_flow, by_drops_desc);
	if (!bpfkit_output_json())
		printf("%-*s %-*s %-*s %*s %-*s %*s %10s\n", REASON_W, "REASON",
		       PROTO_W, "PROTO", ADDR_W, "SADDR", PORT_W, "SPORT",
		       ADDR_W, "DADDR", PORT_W, "DPORT", "DROPS");
	for (i = 0; i < by_flow.n; i++) {
		const struct drop_count *d = bpfkit_tally_at(&by_flow, i);
		bool tcp;

		e = (struct tcpdrop_event){ .flow = d->key.flow,
					    .reason = d->key.reason,
					    .reason_kind = d->key.reason_kind,
					    .ipproto = d->key.ipproto,
					    .ethertype = d->key.ethertype };
		tcp = has_tcp(&e);
		if (bpfkit_output_json()) {
			bpfkit_json_begin(&j, stdout, NULL);
			if (d->key.reason_kind == TCPDROP_REASON_GIVEN) {
				bpfkit_json_str(&j, "reason",
						reason_text(&e, rbuf,
							    sizeof(rbuf)),
						TEXT_LEN);
				bpfkit_json_uint(&j, "reason_code",
						 d->key.reason);
			}
			bpfkit_json_str(&j, "proto",
					proto_text(&e, pbuf, sizeof(pbuf)),
					TEXT_LEN);
			if (tcp)
				bpfkit_json_flow(&j, &d->key.flow);
			bpfkit_json_uint(&j, "drops", d->drops);
			bpfkit_json_end(&j);
			continue;
		}
		printf("%-*s %-*s ", REASON_W,
		       reason_text(&e, rbuf, sizeof(rbuf)), PROTO_W,
		       proto_text(&e, pbuf, sizeof(pbuf)));
		if (tcp) {
			bpfkit_flow_text(&d->key.flow, &t);
			printf("%-*s %*u %-*s %*u", ADDR_W, t.saddr, PORT_W,
			       d->key.flow.sport, ADDR_W, t.daddr, PORT_W,
			       d->key.flow.dport);
		} else {
			printf("%-*s %*s %-*s %*s", ADDR_W, "-", PORT_W, "-",
			       ADDR_W, "-", PORT_W, "-");
		}
		printf(" %10llu\n", (unsigned long long)d->drops);
	}
}

/* --metrics: bpfkit_tcpdrop_drops_total by reason. */
static int fill_metrics(struct bpfkit_metrics *m, void *ctx)
{
	char rbuf[TEXT_LEN];
	struct tcpdrop_event e;
	size_t i;
	int err;

	(void)ctx;
	err = bpfkit_metrics_family(m, "bpfkit_tcpdrop_drops_total",
				    BPFKIT_COUNTER,
				    "Packets dropped, by drop reason");
	for (i = 0; !err && i < by_reason.n; i++) {
		const struct drop_count *d = bpfkit_tally_at(&by_reason, i);

		e = (struct tcpdrop_event){
			.reason = d->key.reason,
			.reason_kind = d->key.reason_kind,
		};
		err = bpfkit_metrics_add(
			m,
			(const char *[]){ "reason",
					  reason_text(&e, rbuf, sizeof(rbuf)),
					  NULL },
			d->drops);
	}
	return err;
}

static void print_json(const void *event)
{
	const struct tcpdrop_event *e = event;
	char rbuf[TEXT_LEN], pbuf[TEXT_LEN], fbuf[TEXT_LEN];
	struct bpfkit_json j;

	bpfkit_json_begin(&j, stdout, &e->rec);
	bpfkit_json_str(&j, "context", context_name(e->context), TEXT_LEN);
	if (e->context == TCPDROP_IN_TASK) {
		bpfkit_json_int(&j, "pid", e->pid);
		bpfkit_json_int(&j, "tid", e->tid);
		bpfkit_json_str(&j, "comm", e->comm, sizeof(e->comm));
	}
	bpfkit_json_str(&j, "proto", proto_text(e, pbuf, sizeof(pbuf)),
			TEXT_LEN);
	if (has_tcp(e)) {
		bpfkit_json_flow(&j, &e->flow);
		bpfkit_json_str(&j, "tcpflags",
				flags_text(e->tcpflags, fbuf, sizeof(fbuf)),
				TEXT_LEN);
	} else if (e->flow.family) {
		struct bpfkit_flow_text t;

		bpfkit_flow_text(&e->flow, &t);
		bpfkit_json_uint(&j, "ip", t.ip);
		bpfkit_json_str(&j, "saddr", t.saddr, sizeof(t.saddr));
		bpfkit_json_str(&j, "daddr", t.daddr, sizeof(t.daddr));
	}
	if (e->reason_kind == TCPDROP_REASON_GIVEN) {
		bpfkit_json_str(&j, "reason",
				reason_text(e, rbuf, sizeof(rbuf)), TEXT_LEN);
		bpfkit_json_uint(&j, "reason_code", e->reason);
	}
	bpfkit_json_end(&j);
}

static void print_row(const void *event)
{
	const struct tcpdrop_event *e = event;
	char rbuf[TEXT_LEN], pbuf[TEXT_LEN], fbuf[TEXT_LEN];
	char comm[BPFKIT_COMM_LEN];
	struct bpfkit_flow_text t;

	bpfkit_print_time(&e->rec);
	if (e->context == TCPDROP_IN_TASK) {
		printf("%-*u ", PID_W, e->pid);
		bpfkit_print_str(e->comm, sizeof(e->comm), COMM_W);
	} else {
		snprintf(comm, sizeof(comm), "[%s]", context_name(e->context));
		printf("%-*s %-*s ", PID_W, "-", COMM_W, comm);
	}
	printf("%-*s ", PROTO_W, proto_text(e, pbuf, sizeof(pbuf)));
	if (e->flow.family) {
		bpfkit_flow_text(&e->flow, &t);
		printf("%-2d %-*s ", t.ip, ADDR_W, t.saddr);
	} else {
		printf("%-2s %-*s ", "-", ADDR_W, "-");
	}
	if (has_tcp(e))
		printf("%*u %-*s %*u %-*s ", PORT_W, e->flow.sport, ADDR_W,
		       t.daddr, PORT_W, e->flow.dport, FLAGS_W,
		       flags_text(e->tcpflags, fbuf, sizeof(fbuf)));
	else
		printf("%*s %-*s %*s %-*s ", PORT_W, "-", ADDR_W,
		       e->flow.family ? t.daddr : "-", PORT_W, "-", FLAGS_W,
		       "-");
	printf("%s\n", reason_text(e, rbuf, sizeof(rbuf)));
}

/* Count a drop by reason (--metrics), by flow (-C). */
static int count_event(const void *event)
{
	const struct tcpdrop_event *e = event;

	if ((bpfkit_metrics_enabled() && count_drop(&by_reason, e, false)) ||
	    (bpfkit_output_counts() && count_drop(&by_flow, e, true)))
		return -ENOMEM;
	return 0;
}

static struct bpfkit_printer printer = {
	.size = sizeof(struct tcpdrop_event),
	.count = count_event,
	.counting = "count drops",
	.text = print_row,
	.json = print_json,
};

/*
 * The kernel's drop reason names, and whether it has any (Linux 5.17+);
 * then -R's reasons into R.
 */
static int load_reasons(struct tcpdrop_reasons *r)
{
	bool named;
	int err;

	err = bpfkit_drop_reasons_load(bpfkit_opts.btf_path);
	if (err && err != -ENOENT) {
		bpfkit_fail("read drop reason names", err);
		return err;
	}
	named = !err;
	if (!env.reasons)
		return 0;
	err = parse_reasons(env.reasons, named, r);
	return err == EINVAL ? -EINVAL : err;
}

/* Where this kernel's softirq code lies, for the BPF side's stack search. */
static void find_softirq_code(volatile struct tcpdrop_code_range *r)
{
	struct bpfkit_kernel_func funcs[TCPDROP_SOFTIRQ_FUNCS] = {
		{ .name = "handle_softirqs" },
		{ .name = "handle_softirqs.constprop.0" },
		{ .name = "__do_softirq" },
	};
	int i;

	bpfkit_kernel_funcs(NULL, funcs, TCPDROP_SOFTIRQ_FUNCS);
	for (i = 0; i < TCPDROP_SOFTIRQ_FUNCS; i++) {
		r[i].start = funcs[i].start;
		r[i].end = funcs[i].end;
	}
}

int main(int argc, char **argv)
{
	struct tcpdrop_bpf *skel = NULL;
	struct bpfkit_channel *ch = NULL;
	struct tcpdrop_reasons reasons = {};
	int err;

	/* Parse options; check privileges, tracefs and kernel BTF. */
	bpfkit_setup(&tool, argc, argv);

	err = load_reasons(&reasons);
	if (err == -EINVAL)
		exit(BPFKIT_EXIT_USAGE);
	if (err)
		goto cleanup;

	/* Open the BPF object. */
	skel = tcpdrop_bpf__open_opts(bpfkit_open_opts());
	if (!skel)
		return bpfkit_open_failed();

	/* Set our own filters. */
	skel->rodata->all_protocols = env.all_protocols;
	skel->rodata->reasons = reasons;
	find_softirq_code(skel->rodata->softirq_code);

	/* Load and verify. */
	err = bpfkit_load(skel->skeleton);
	if (err)
		goto cleanup;

	/* Open the event channel, then attach to skb:kfree_skb. */
	err = bpfkit_attach(skel->skeleton, bpfkit_print_event, &printer, &ch);
	if (err)
		goto cleanup;

	/* Print the header (none for -C), then drops until the end. */
	bpfkit_print_header(
		"%-*s %-*s %-*s %-2s %-*s %*s %-*s %*s %-*s REASON\n", PID_W,
		"PID", COMM_W, "COMM", PROTO_W, "PROTO", "IP", ADDR_W, "SADDR",
		PORT_W, "SPORT", ADDR_W, "DADDR", PORT_W, "DPORT", FLAGS_W,
		"FLAGS");
	err = bpfkit_run(ch, NULL);
	if (!err && bpfkit_output_counts())
		print_counts();

cleanup:
	bpfkit_tally_free(&by_flow);
	bpfkit_tally_free(&by_reason);
	bpfkit_drop_reasons_free();
	bpfkit_channel_free(ch);
	tcpdrop_bpf__destroy(skel);
	return bpfkit_exit_code(err);
}
