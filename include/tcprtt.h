/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* What tcprtt's two sides share: the key of its histograms, the keying. */
#ifndef TCPRTT_H
#define TCPRTT_H

#include "bpfkit/histogram.h"

/* What a histogram is per (tcprtt_by): nothing set, one for all. */
enum tcprtt_by {
	TCPRTT_BY_LADDR = 1 << 0, /* -b, --by laddr */
	TCPRTT_BY_RADDR = 1 << 1, /* -B, --by raddr */
	TCPRTT_BY_LPORT = 1 << 2, /* --by lport */
	TCPRTT_BY_RPORT = 1 << 3, /* --by rport */
};

/*
 * A histogram's key: the parts --by asks for, the rest 0. An IPv4-mapped
 * IPv6 address is keyed as its IPv4 one.
 */
struct tcprtt_key {
	__u8 laddr[16]; /* IPv4 (first 4 bytes) or IPv6, network order */
	__u8 raddr[16];
	__u16 family; /* AF_INET or AF_INET6 when an address is keyed */
	__u16 lport; /* host order */
	__u16 rport;
	__u16 pad;
};

#endif /* TCPRTT_H */
