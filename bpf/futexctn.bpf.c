// SPDX-License-Identifier: GPL-2.0
/*
 * futexctn: user-space lock contention. The time each futex wait takes
 * (syscalls:sys_enter_futex to sys_exit_futex, for the waiting
 * operations), in a histogram per process, futex address and user stack.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include "bpfkit/histogram.bpf.h"
#include "bpfkit/stacks.bpf.h"
#include "bpfkit/staging.bpf.h"
#include "futexctn.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u64 target_lock; /* --lock: this address only; 0: all */

/* The futex operations that wait (include/uapi/linux/futex.h). */
#define FUTEX_WAIT 0
#define FUTEX_LOCK_PI 6
#define FUTEX_WAIT_BITSET 9
#define FUTEX_WAIT_REQUEUE_PI 11
#define FUTEX_LOCK_PI2 13
#define FUTEX_CMD_MASK 127 /* without FUTEX_PRIVATE_FLAG, CLOCK_REALTIME */
#define EAGAIN 11

/* A futex wait in progress. */
struct wait {
	__u64 start_ns;
	__u64 lock;
};

BPFKIT_STAGING(struct wait);

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, BPFKIT_HIST_MAX_KEYS);
	__type(key, struct futexctn_key);
	__type(value, struct bpfkit_hist);
} futexctn_hists SEC(".maps");

SEC("tracepoint/syscalls/sys_enter_futex")
int futex_enter(struct syscall_trace_enter *ctx)
{
	struct wait w = { .lock = ctx->args[0] };

	switch (ctx->args[1] & FUTEX_CMD_MASK) {
	case FUTEX_WAIT:
	case FUTEX_LOCK_PI:
	case FUTEX_WAIT_BITSET:
	case FUTEX_WAIT_REQUEUE_PI:
	case FUTEX_LOCK_PI2:
		break;
	default:
		return 0;
	}
	if (target_lock && w.lock != target_lock)
		return 0;
	w.start_ns = bpf_ktime_get_ns();
	bpfkit_stage(&bpfkit_staging, &w, sizeof(w));
	return 0;
}

SEC("tracepoint/syscalls/sys_exit_futex")
int futex_exit(struct syscall_trace_exit *ctx)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	struct futexctn_key key = {};
	struct bpfkit_hist *h;
	struct wait *w;
	__u64 delta;

	w = bpfkit_staged(&bpfkit_staging);
	if (!w)
		return 0;
	delta = bpf_ktime_get_ns() - w->start_ns;
	key.lock = w->lock;
	bpfkit_unstage(&bpfkit_staging, w);
	/* The futex's value changed before it slept: no wait. */
	if (ctx->ret == -EAGAIN)
		return 0;
	key.pid = pid_tgid >> 32;
	key.user_stack = stack_id(ctx, BPF_F_USER_STACK);
	h = bpfkit_hist_get(&futexctn_hists, &key);
	if (!h)
		return 0;
	if (!h->name[0])
		bpf_get_current_comm(h->name, sizeof(h->name));
	bpfkit_hist_add(h, delta);
	return 0;
}
