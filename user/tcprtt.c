// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * tcprtt: TCP round-trip times, the smoothed RTT of each socket at each
 * segment it receives established, as a histogram, for all sockets or per
 * local or remote address or port.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include "cli.h"
#include "diag.h"
#include "histogram.h"
#include "kernel.h"
#include "net.h"
#include "output.h"
#include "setup.h"
#include "tracefs.h"
#include "tcprtt.h"
#include "tcprtt.skel.h"

enum { OPT_BY = 0x2000 };

/* An address filter: family 0 is none. */
struct addr_filter {
	__u16 family;
	__u8 addr[16];
};

static struct {
	__u32 by; /* enum tcprtt_by */
	struct addr_filter laddr; /* -a */
	struct addr_filter raddr; /* -A */
} env;

static const struct argp_option options[] = {
	{ "laddr", 'a', "ADDR", 0, "Trace this local address only", 0 },
	{ "raddr", 'A', "ADDR", 0, "Trace this remote address only", 0 },
	{ "byladdr", 'b', NULL, 0, "A histogram per local address", 0 },
	{ "byraddr", 'B', NULL, 0, "A histogram per remote address", 0 },
	{ "by", OPT_BY, "KEYS", 0,
	  "A histogram per these (comma-separated): laddr, raddr, lport, rport",
	  0 },
	{},
};

/* Parse ADDR, an IPv4 or IPv6 address, for option NAME into F. */
static int parse_addr(const char *name, const char *arg, struct addr_filter *f)
{
	struct in6_addr a6;

	if (inet_pton(AF_INET, arg, f->addr) == 1) {
		f->family = AF_INET;
		return 0;
	}
	if (inet_pton(AF_INET6, arg, &a6) != 1)
		return bpfkit_usage_error("%s: '%s' is no IPv4 or IPv6 address",
					  name, arg);
	/* An IPv4-mapped address is the IPv4 one, as the BPF side keys it. */
	if (IN6_IS_ADDR_V4MAPPED(&a6)) {
		f->family = AF_INET;
		memcpy(f->addr, &a6.s6_addr[12], 4);
	} else {
		f->family = AF_INET6;
		memcpy(f->addr, &a6, 16);
	}
	return 0;
}

/* Parse --by's comma-separated list ARG into env.by. */
static int parse_by(char *arg)
{
	static const struct {
		const char *name;
		__u32 bit;
	} keys[] = {
		{ "laddr", TCPRTT_BY_LADDR },
		{ "raddr", TCPRTT_BY_RADDR },
		{ "lport", TCPRTT_BY_LPORT },
		{ "rport", TCPRTT_BY_RPORT },
	};
	char *save = NULL, *tok;
	size_t i;

	for (tok = strtok_r(arg, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
			if (!strcmp(tok, keys[i].name))
				break;
		if (i == sizeof(keys) / sizeof(keys[0]))
			return bpfkit_usage_error(
				"--by: '%s' is none of laddr, raddr, lport, rport",
				tok);
		env.by |= keys[i].bit;
	}
	if (!env.by)
		return bpfkit_usage_error(
			"--by: give one or more of laddr, raddr, lport, rport");
	return 0;
}

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case 'a':
		return parse_addr("-a/--laddr", arg, &env.laddr);
	case 'A':
		return parse_addr("-A/--raddr", arg, &env.raddr);
	case 'b':
		env.by |= TCPRTT_BY_LADDR;
		return 0;
	case 'B':
		env.by |= TCPRTT_BY_RADDR;
		return 0;
	case OPT_BY:
		return parse_by(arg);
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static const struct bpfkit_tool tool = {
	.name = "tcprtt",
	.doc = "Summarize TCP round-trip times (each socket's smoothed RTT) as a histogram.\n"
	       "\v"
	       "Examples:\n"
	       "  tcprtt                     # one histogram until Ctrl-C\n"
	       "  tcprtt -m 1 10             # in ms, every second, 10 times\n"
	       "  tcprtt -B                  # a histogram per remote address\n"
	       "  tcprtt --by raddr,rport    # ...per remote address and port\n"
	       "  tcprtt -D 443 -A 10.0.0.1  # to 10.0.0.1:443 only\n",
	.args_doc = "[INTERVAL [COUNT]]",
	.options = BPFKIT_OPT_JSON | BPFKIT_OPT_HIST | BPFKIT_OPT_METRICS |
		   BPFKIT_OPT_FAMILY | BPFKIT_OPT_PORTS,
	.own_options = options,
	.own_parser = parse_arg,
	.tracepoints = (const struct bpfkit_tracepoint[]){ { "tcp", "tcp_probe",
							     "Linux 4.16+" },
							   {} },
};

/* KEY's address AT (laddr or raddr) as text in BUF. */
static const char *key_addr(const struct tcprtt_key *k, const __u8 *at,
			    char *buf, size_t len)
{
	return bpfkit_addr_str(k->family, at, buf, len);
}

static void print_key(FILE *f, const void *key, const struct bpfkit_hist *h)
{
	const struct tcprtt_key *k = key;
	char buf[INET6_ADDRSTRLEN];
	const char *sep = "";

	if (env.by & TCPRTT_BY_LADDR) {
		fprintf(f, "laddr = %s",
			key_addr(k, k->laddr, buf, sizeof(buf)));
		sep = ", ";
	}
	if (env.by & TCPRTT_BY_LPORT) {
		fprintf(f, "%slport = %u", sep, k->lport);
		sep = ", ";
	}
	if (env.by & TCPRTT_BY_RADDR) {
		fprintf(f, "%sraddr = %s", sep,
			key_addr(k, k->raddr, buf, sizeof(buf)));
		sep = ", ";
	}
	if (env.by & TCPRTT_BY_RPORT)
		fprintf(f, "%srport = %u", sep, k->rport);
}

static void json_key(struct bpfkit_json *j, const void *key,
		     const struct bpfkit_hist *h)
{
	const struct tcprtt_key *k = key;
	char buf[INET6_ADDRSTRLEN];

	if (env.by & (TCPRTT_BY_LADDR | TCPRTT_BY_RADDR))
		bpfkit_json_uint(j, "ip", k->family == AF_INET ? 4 : 6);
	if (env.by & TCPRTT_BY_LADDR)
		bpfkit_json_str(j, "laddr",
				key_addr(k, k->laddr, buf, sizeof(buf)),
				sizeof(buf));
	if (env.by & TCPRTT_BY_LPORT)
		bpfkit_json_uint(j, "lport", k->lport);
	if (env.by & TCPRTT_BY_RADDR)
		bpfkit_json_str(j, "raddr",
				key_addr(k, k->raddr, buf, sizeof(buf)),
				sizeof(buf));
	if (env.by & TCPRTT_BY_RPORT)
		bpfkit_json_uint(j, "rport", k->rport);
}

static void metric_key(const void *key, const struct bpfkit_hist *h,
		       const char **labels, char *buf, size_t size)
{
	const struct tcprtt_key *k = key;
	size_t part = size / 4; /* a quarter of BUF for each label's value */
	int n = 0;

	if (env.by & TCPRTT_BY_LADDR) {
		labels[n++] = "laddr";
		labels[n++] = key_addr(k, k->laddr, buf, part);
	}
	if (env.by & TCPRTT_BY_LPORT) {
		snprintf(buf + part, part, "%u", k->lport);
		labels[n++] = "lport";
		labels[n++] = buf + part;
	}
	if (env.by & TCPRTT_BY_RADDR) {
		labels[n++] = "raddr";
		labels[n++] = key_addr(k, k->raddr, buf + 2 * part, part);
	}
	if (env.by & TCPRTT_BY_RPORT) {
		snprintf(buf + 3 * part, part, "%u", k->rport);
		labels[n++] = "rport";
		labels[n++] = buf + 3 * part;
	}
	labels[n] = NULL;
}

/* Write an address filter into the object's .rodata. */
#define set_filter(skel, which)                                            \
	do {                                                               \
		(skel)->rodata->which##_family = env.which.family;         \
		memcpy((void *)(skel)->rodata->which, env.which.addr, 16); \
	} while (0)

int main(int argc, char **argv)
{
	struct bpfkit_hist_keys keys = {
		.key_size = sizeof(struct tcprtt_key),
		.metric = "bpfkit_tcprtt_rtt_seconds",
		.metric_help =
			"TCP sockets' smoothed round-trip time at each segment received",
	};
	struct tcprtt_bpf *skel = NULL;
	struct bpf_map *hists;
	int err;

	/* Parse options; check privileges, tracefs and kernel BTF. */
	bpfkit_setup(&tool, argc, argv);
	if (env.by) {
		keys.print_key = print_key;
		keys.json_key = json_key;
		keys.metric_key = metric_key;
	}

	/* Open the BPF object. */
	skel = tcprtt_bpf__open_opts(bpfkit_open_opts());
	if (!skel)
		return bpfkit_open_failed();

	/* Set our own keying and filters. */
	skel->rodata->by = env.by;
	set_filter(skel, laddr);
	set_filter(skel, raddr);

	/* One histogram for all: a per-CPU array; per keys: the hash map. */
	hists = env.by ? skel->maps.tcprtt_hists : skel->maps.tcprtt_all;
	if (!env.by) {
		keys.key_size = sizeof(__u32);
		bpf_map__set_max_entries(skel->maps.tcprtt_hists, 1);
	}

	/* Load and verify. */
	err = bpfkit_load(skel->skeleton);
	if (err)
		goto cleanup;

	/* Attach to tcp_probe; report every interval until COUNT. */
	err = bpfkit_hist_run(skel->skeleton, hists, &keys);

cleanup:
	tcprtt_bpf__destroy(skel);
	return bpfkit_exit_code(err);
}
