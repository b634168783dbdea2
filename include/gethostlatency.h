/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The record gethostlatency sends for every name lookup that returns. */
#ifndef GETHOSTLATENCY_H
#define GETHOSTLATENCY_H

#include "bpfkit/channel.h"

/* The longest host name sent, with its NUL; longer names are cut. */
#define GETHOSTLATENCY_HOST_LEN 256

/* The libc function that made the lookup. */
enum gethostlatency_func {
	GETHOSTLATENCY_GETADDRINFO,
	GETHOSTLATENCY_GETHOSTBYNAME,
	GETHOSTLATENCY_GETHOSTBYNAME2,
};

struct gethostlatency_event {
	struct bpfkit_record rec; /* first: the time it was sent */
	__u32 pid; /* tgid */
	__u32 tid;
	__u32 uid;
	__u32 func; /* enum gethostlatency_func */
	__u64 latency_ns; /* from the call to its return */
	char comm[BPFKIT_COMM_LEN];
	char host[GETHOSTLATENCY_HOST_LEN]; /* NUL-terminated; "" if NULL */
};

#endif /* GETHOSTLATENCY_H */
