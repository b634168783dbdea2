// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The network tools' user side: the -4/-6 setting, addresses and flows as
 * text and JSON, TCP state names, the kernel's packet drop reasons.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <bpf/btf.h>
#include "kernel.h"
#include "net.h"

static struct bpfkit_net_opts opts;

void bpfkit_net_init(const struct bpfkit_net_opts *o)
{
	opts = *o;
}

void bpfkit_net_cfg_init(volatile struct bpfkit_net_cfg *cfg)
{
	cfg->family = opts.family;
	cfg->lports = opts.lports;
	cfg->rports = opts.rports;
}

static bool v4_mapped(const __u8 *addr)
{
	static const __u8 prefix[12] = { [10] = 0xff, [11] = 0xff };

	return !memcmp(addr, prefix, sizeof(prefix));
}

int bpfkit_flow_family(const struct bpfkit_flow *flow)
{
	if (flow->family == AF_INET6 &&
	    (v4_mapped(flow->daddr) || v4_mapped(flow->saddr)))
		return AF_INET;
	return flow->family;
}

const char *bpfkit_addr_str(int family, const __u8 *addr, char *buf, size_t len)
{
	if (family == AF_INET6 && v4_mapped(addr))
		return inet_ntop(AF_INET, addr + 12, buf, len) ?: "?";
	if (family != AF_INET && family != AF_INET6) {
		snprintf(buf, len, "?");
		return buf;
	}
	return inet_ntop(family, addr, buf, len) ?: "?";
}

void bpfkit_flow_text(const struct bpfkit_flow *flow,
		      struct bpfkit_flow_text *t)
{
	bpfkit_addr_str(flow->family, flow->saddr, t->saddr, sizeof(t->saddr));
	bpfkit_addr_str(flow->family, flow->daddr, t->daddr, sizeof(t->daddr));
	t->ip = bpfkit_flow_family(flow) == AF_INET ? 4 : 6;
}

void bpfkit_print_flow(const struct bpfkit_flow *flow)
{
	struct bpfkit_flow_text t;

	bpfkit_flow_text(flow, &t);
	printf("%-2d %-*s %*u %-*s %*u", t.ip, BPFKIT_ADDR_W, t.saddr,
	       BPFKIT_PORT_W, flow->sport, BPFKIT_ADDR_W, t.daddr,
	       BPFKIT_PORT_W, flow->dport);
}

const char *bpfkit_flow_header(char src, char dst)
{
	static char header[80];
	char saddr[] = "?ADDR", sport[] = "?PORT";
	char daddr[] = "?ADDR", dport[] = "?PORT";

	saddr[0] = sport[0] = src;
	daddr[0] = dport[0] = dst;
	snprintf(header, sizeof(header), "%-2s %-*s %*s %-*s %*s", "IP",
		 BPFKIT_ADDR_W, saddr, BPFKIT_PORT_W, sport, BPFKIT_ADDR_W,
		 daddr, BPFKIT_PORT_W, dport);
	return header;
}

void bpfkit_json_flow(struct bpfkit_json *j, const struct bpfkit_flow *flow)
{
	struct bpfkit_flow_text t;

	bpfkit_flow_text(flow, &t);
	bpfkit_json_uint(j, "ip", t.ip);
	bpfkit_json_str(j, "saddr", t.saddr, sizeof(t.saddr));
	bpfkit_json_uint(j, "sport", flow->sport);
	bpfkit_json_str(j, "daddr", t.daddr, sizeof(t.daddr));
	bpfkit_json_uint(j, "dport", flow->dport);
}

static const struct {
	__u16 nr;
	const char *name;
} protocols[] = {
	{ IPPROTO_TCP, "TCP" },		{ IPPROTO_UDP, "UDP" },
	{ IPPROTO_UDPLITE, "UDPLITE" }, { IPPROTO_SCTP, "SCTP" },
	{ IPPROTO_ICMP, "ICMP" },	{ IPPROTO_ICMPV6, "ICMPV6" },
	{ IPPROTO_MPTCP, "MPTCP" },	{ IPPROTO_RAW, "RAW" },
};

static const struct {
	__u16 nr;
	const char *name;
} families[] = {
	{ AF_UNIX, "UNIX" },	       { AF_INET, "INET" },
	{ AF_INET6, "INET6" },	       { AF_NETLINK, "NETLINK" },
	{ AF_PACKET, "PACKET" },       { AF_VSOCK, "VSOCK" },
	{ AF_BLUETOOTH, "BLUETOOTH" }, { AF_XDP, "XDP" },
};

const char *bpfkit_family_name(__u16 family, char *buf, size_t len)
{
	size_t i;

	for (i = 0; i < sizeof(families) / sizeof(families[0]); i++)
		if (families[i].nr == family)
			return families[i].name;
	snprintf(buf, len, "AF_%u", family);
	return buf;
}

const char *bpfkit_proto_name(__u16 proto, char *buf, size_t len)
{
	size_t i;

	for (i = 0; i < sizeof(protocols) / sizeof(protocols[0]); i++)
		if (protocols[i].nr == proto)
			return protocols[i].name;
	snprintf(buf, len, "%u", proto);
	return buf;
}

const char *bpfkit_tcp_state_name(int state)
{
	static const char *const names[] = {
		[BPFKIT_TCP_ESTABLISHED] = "ESTABLISHED",
		[BPFKIT_TCP_SYN_SENT] = "SYN_SENT",
		[BPFKIT_TCP_SYN_RECV] = "SYN_RECV",
		[BPFKIT_TCP_FIN_WAIT1] = "FIN_WAIT1",
		[BPFKIT_TCP_FIN_WAIT2] = "FIN_WAIT2",
		[BPFKIT_TCP_TIME_WAIT] = "TIME_WAIT",
		[BPFKIT_TCP_CLOSE] = "CLOSE",
		[BPFKIT_TCP_CLOSE_WAIT] = "CLOSE_WAIT",
		[BPFKIT_TCP_LAST_ACK] = "LAST_ACK",
		[BPFKIT_TCP_LISTEN] = "LISTEN",
		[BPFKIT_TCP_CLOSING] = "CLOSING",
		[BPFKIT_TCP_NEW_SYN_RECV] = "NEW_SYN_RECV",
	};

	if (state < 0 || (size_t)state >= sizeof(names) / sizeof(names[0]) ||
	    !names[state])
		return "UNKNOWN";
	return names[state];
}

/* The kernel's drop reasons, as bpfkit_drop_reasons_load() read them. */
static struct {
	struct drop_reason {
		__u32 value;
		char *name;
	} * v;
	size_t n;
} drop_reasons;

/* NAME without the enum's SKB_DROP_REASON_ or SKB_ prefix. */
static const char *drop_reason_short(const char *name)
{
	static const char *const prefixes[] = { "SKB_DROP_REASON_", "SKB_" };
	size_t i, len;

	for (i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
		len = strlen(prefixes[i]);
		if (!strncmp(name, prefixes[i], len))
			return name + len;
	}
	return name;
}

/* Keep the enumerators of enum skb_drop_reason, type T of BTF. */
static int add_drop_reasons(const struct btf *btf, const struct btf_type *t)
{
	const struct btf_enum *e = btf_enum(t);
	int i, n = btf_vlen(t);
	const char *name;

	drop_reasons.v = calloc(n, sizeof(*drop_reasons.v));
	if (!drop_reasons.v)
		return -ENOMEM;
	for (i = 0; i < n; i++, e++) {
		name = btf__name_by_offset(btf, e->name_off);
		/* The enum's end marker is no reason. */
		if (!name || !strcmp(name, "SKB_DROP_REASON_MAX"))
			continue;
		drop_reasons.v[drop_reasons.n].value = e->val;
		drop_reasons.v[drop_reasons.n].name =
			strdup(drop_reason_short(name));
		if (!drop_reasons.v[drop_reasons.n].name)
			return -ENOMEM;
		drop_reasons.n++;
	}
	return 0;
}

int bpfkit_drop_reasons_load(const char *btf_path)
{
	const struct btf *btf;
	int id, err;

	bpfkit_drop_reasons_free();
	btf = bpfkit_kernel_btf(btf_path);
	if (!btf)
		return errno ? -errno : -EINVAL;
	id = btf__find_by_name_kind(btf, "skb_drop_reason", BTF_KIND_ENUM);
	if (id < 0)
		return -ENOENT;
	err = add_drop_reasons(btf, btf__type_by_id(btf, id));
	if (err)
		bpfkit_drop_reasons_free();
	return err;
}

void bpfkit_drop_reasons_free(void)
{
	size_t i;

	for (i = 0; i < drop_reasons.n; i++)
		free(drop_reasons.v[i].name);
	free(drop_reasons.v);
	drop_reasons.v = NULL;
	drop_reasons.n = 0;
}

const char *bpfkit_drop_reason_name(__u32 reason)
{
	size_t i;

	for (i = 0; i < drop_reasons.n; i++)
		if (drop_reasons.v[i].value == reason)
			return drop_reasons.v[i].name;
	return NULL;
}

long bpfkit_drop_reason_value(const char *name)
{
	size_t i;

	for (i = 0; i < drop_reasons.n; i++)
		if (!strcasecmp(drop_reasons.v[i].name, name))
			return drop_reasons.v[i].value;
	return -ENOENT;
}
