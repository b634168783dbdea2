// SPDX-License-Identifier: GPL-2.0
/*
 * gethostlatency: time getaddrinfo(), gethostbyname() and gethostbyname2()
 * in libc. A uprobe at each call keeps the start time and the host name
 * per thread; the uretprobe at its return sends them with the latency.
 * User space attaches every program to its function in the libc it names
 * (bpfkit_attach_user()).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "bpfkit/channel.bpf.h"
#include "bpfkit/filter.bpf.h"
#include "gethostlatency.h"

char LICENSE[] SEC("license") = "GPL";

/* Lookups in progress, by thread id; filled at the call, sent at the return. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__type(key, __u32);
	__type(value, struct gethostlatency_event);
} gethostlatency_started SEC(".maps");

/* A zeroed record to start each lookup from (too big for the BPF stack). */
static const struct gethostlatency_event empty;

static __always_inline int lookup_start(const char *host, __u32 func)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct gethostlatency_event *e;
	__u32 tid = id;

	if (!bpfkit_selected())
		return 0;
	if (bpf_map_update_elem(&gethostlatency_started, &tid, &empty,
				BPF_ANY)) {
		bpfkit_drop(BPFKIT_STAGING_FULL);
		return 0;
	}
	e = bpf_map_lookup_elem(&gethostlatency_started, &tid);
	if (!e) {
		bpfkit_drop(BPFKIT_READ_FAILED);
		return 0;
	}
	e->pid = id >> 32;
	e->tid = tid;
	e->uid = bpf_get_current_uid_gid();
	e->func = func;
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	if (host)
		bpf_probe_read_user_str(e->host, sizeof(e->host), host);
	/* Last, so that the latency leaves out the work above. */
	e->latency_ns = bpf_ktime_get_ns();
	return 0;
}

static __always_inline int lookup_return(void *ctx)
{
	__u32 tid = bpf_get_current_pid_tgid();
	struct gethostlatency_event *e;

	e = bpf_map_lookup_elem(&gethostlatency_started, &tid);
	if (!e)
		return 0;
	e->latency_ns = bpf_ktime_get_ns() - e->latency_ns;
	bpfkit_emit(ctx, &e->rec, sizeof(*e));
	bpf_map_delete_elem(&gethostlatency_started, &tid);
	return 0;
}

SEC("uprobe")
int BPF_KPROBE(getaddrinfo_call, const char *node)
{
	return lookup_start(node, GETHOSTLATENCY_GETADDRINFO);
}

SEC("uprobe")
int BPF_KPROBE(gethostbyname_call, const char *name)
{
	return lookup_start(name, GETHOSTLATENCY_GETHOSTBYNAME);
}

SEC("uprobe")
int BPF_KPROBE(gethostbyname2_call, const char *name)
{
	return lookup_start(name, GETHOSTLATENCY_GETHOSTBYNAME2);
}

/*
 * The returns: one program per function, as each program holds one link
 * in the skeleton.
 */
SEC("uretprobe")
int getaddrinfo_return(struct pt_regs *ctx)
{
	return lookup_return(ctx);
}

SEC("uretprobe")
int gethostbyname_return(struct pt_regs *ctx)
{
	return lookup_return(ctx);
}

SEC("uretprobe")
int gethostbyname2_return(struct pt_regs *ctx)
{
	return lookup_return(ctx);
}
