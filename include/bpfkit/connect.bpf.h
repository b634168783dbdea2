/* SPDX-License-Identifier: GPL-2.0 */
/*
 * TCP connects followed on sock:inet_sock_set_state from SYN_SENT to their
 * outcome (tcpconnect, tcpconnlat): CLOSE -> SYN_SENT runs in the
 * connecting task, whose pid, uid, comm and ids (the record header's, for
 * containers) are kept with the time by socket; the socket's next change
 * (often in softirq) ends the connect: ESTABLISHED, or CLOSE when it
 * failed, sent with those ids (bpfkit_emit_stamped()).
 */
#ifndef BPFKIT_CONNECT_BPF_H
#define BPFKIT_CONNECT_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include "bpfkit/channel.bpf.h"
#include "bpfkit/filter.bpf.h"
#include "bpfkit/net.bpf.h"

/* A connect in flight: when it began, and its task. */
struct bpfkit_connect {
	struct bpfkit_record task; /* the connecting task's ids */
	__u64 start_ns;
	__u32 pid;
	__u32 tid;
	__u32 uid;
	char comm[BPFKIT_COMM_LEN];
};

/*
 * Follow the TCP connects of event CTX in MAP, a hash of struct
 * bpfkit_connect by socket. A connect that begins, in a task the filters
 * select, is kept: *ERR is the update's error (a full map), for the tool
 * to count. A connect that ends is returned, to forget with
 * bpfkit_sock_forget() once used; NULL for every other event.
 */
static __always_inline struct bpfkit_connect *
bpfkit_tcp_connect(const struct trace_event_raw_inet_sock_set_state *ctx,
		   void *map, long *err)
{
	struct bpfkit_connect c = {};
	__u64 pid_tgid;

	*err = 0;
	if (ctx->protocol != BPFKIT_IPPROTO_TCP)
		return NULL;
	if (ctx->oldstate == BPFKIT_TCP_SYN_SENT)
		return bpfkit_sock_lookup(map, ctx->skaddr);
	if (ctx->newstate != BPFKIT_TCP_SYN_SENT || !bpfkit_selected())
		return NULL;
	bpfkit_record_task(&c.task);
	pid_tgid = bpf_get_current_pid_tgid();
	c.start_ns = bpf_ktime_get_ns();
	c.pid = pid_tgid >> 32;
	c.tid = pid_tgid;
	c.uid = bpf_get_current_uid_gid();
	bpf_get_current_comm(c.comm, sizeof(c.comm));
	*err = bpfkit_sock_keep(map, ctx->skaddr, &c);
	return NULL;
}

#endif /* BPFKIT_CONNECT_BPF_H */
