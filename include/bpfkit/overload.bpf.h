/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The BPF side of overload control, included by bpfkit/channel.bpf.h
 * (after its bpfkit_stats map, which it counts in):
 * bpfkit_emit() asks bpfkit_admit() about every event before its record
 * is sent, so that a sampled or throttled event costs about a counter.
 *
 * A tool that stages a syscall's arguments at its entry (bpfkit_stage())
 * asks there too, bpfkit_admit_entry(), so that a throttled call costs no
 * staging: it is counted produced and throttled at once, the exit finds
 * nothing staged. The entry only looks at the buckets (the exit's
 * bpfkit_emit() takes the token); --sample-random decides at the exit.
 *
 * Sampling (--sample N) keeps a process when a hash of its tgid picks it,
 * all of its events or none, or (--sample-random) each event with chance
 * 1/N. The limits are token buckets refilled from bpf_ktime_get_ns(): the
 * global one (--rate-limit N without --rate-limit-by, or --max-cpu's)
 * split into equal per-CPU shares, so that no CPU waits on another; the
 * per-key ones (--rate-limit-by) in the LRU hash bpfkit_buckets, shared
 * by every CPU (the pid, cgroup or command keyed), which also tallies who
 * the global limit throttled.
 */
#ifndef BPFKIT_OVERLOAD_BPF_H
#define BPFKIT_OVERLOAD_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include "bpfkit/channel.h"
#include "bpfkit/overload.h"

#define BPFKIT_NS_PER_S 1000000000ULL

const volatile struct bpfkit_overload_cfg bpfkit_overload_cfg = {};

/*
 * The global limit in events per second; 0: none. User space sets it
 * before load (--rate-limit) and changes it while running (--max-cpu).
 */
__u64 bpfkit_overload_rate;

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct bpfkit_budget);
} bpfkit_budget SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, BPFKIT_BUCKETS);
	__type(key, struct bpfkit_limit_key);
	__type(value, struct bpfkit_bucket);
} bpfkit_buckets SEC(".maps");

/* murmur3's finalizer: every bit of H moves every bit of the result. */
static __always_inline __u32 bpfkit_mix32(__u32 h)
{
	h ^= h >> 16;
	h *= 0x85ebca6b;
	h ^= h >> 13;
	h *= 0xc2b2ae35;
	h ^= h >> 16;
	return h;
}

/* True when --sample leaves the current event out. */
static __always_inline bool bpfkit_sampled_out(void)
{
	__u32 n = bpfkit_overload_cfg.sample, h;

	if (n <= 1)
		return false;
	if (bpfkit_overload_cfg.sample_random)
		h = bpf_get_prandom_u32();
	else
		h = bpfkit_mix32((bpf_get_current_pid_tgid() >> 32) ^
				 bpfkit_overload_cfg.seed);
	return h % n != 0;
}

/*
 * Take COST tokens from a bucket refilled at RATE tokens a nanosecond up
 * to CAP since *LAST_NS, full after FULL_NS (CAP / RATE, or more): false
 * when it holds too few. With PEEK, take none but say whether it holds
 * enough.
 */
static __always_inline bool bpfkit_take(__u64 *tokens, __u64 *last_ns,
					__u64 now, __u64 rate, __u64 cost,
					__u64 cap, __u64 full_ns, bool peek)
{
	__u64 elapsed = now - *last_ns, t;

	if (elapsed >= full_ns) {
		t = cap;
	} else {
		t = *tokens + elapsed * rate;
		if (t > cap)
			t = cap;
	}
	*last_ns = now;
	if (t < cost) {
		*tokens = t;
		return false;
	}
	*tokens = peek ? t : t - cost;
	return true;
}

/* The current event's key in bpfkit_buckets (by pid without a -by). */
static __always_inline void bpfkit_limit_key(struct bpfkit_limit_key *key)
{
	switch (bpfkit_overload_cfg.by) {
	case BPFKIT_LIMIT_BY_CGROUP:
		key->id = bpf_get_current_cgroup_id();
		break;
	case BPFKIT_LIMIT_BY_COMM:
		bpf_get_current_comm(key->comm, sizeof(key->comm));
		break;
	default:
		key->id = bpf_get_current_pid_tgid() >> 32;
	}
}

/*
 * The current event's bucket, made full when its key has none (a new key,
 * or one the LRU forgot: a miss, counted); NULL when none could be made.
 */
static __always_inline struct bpfkit_bucket *
bpfkit_bucket(struct bpfkit_stats *stats, __u64 now, __u64 full)
{
	struct bpfkit_limit_key key = {};
	struct bpfkit_bucket *b, fresh = {};

	bpfkit_limit_key(&key);
	b = bpf_map_lookup_elem(&bpfkit_buckets, &key);
	if (b)
		return b;
	__sync_fetch_and_add(&stats->limit_misses, 1);
	fresh.tokens = full;
	fresh.last_ns = now;
	fresh.pid = bpf_get_current_pid_tgid() >> 32;
	bpf_get_current_comm(fresh.comm, sizeof(fresh.comm));
	bpf_map_update_elem(&bpfkit_buckets, &key, &fresh, BPF_NOEXIST);
	return bpf_map_lookup_elem(&bpfkit_buckets, &key);
}

/*
 * Count a throttled event of the current process in BUDGET's tally, after
 * adding the last process's there to its entry in bpfkit_buckets.
 */
static __always_inline void bpfkit_tally(struct bpfkit_budget *budget,
					 __u64 now)
{
	__u32 pid = bpf_get_current_pid_tgid() >> 32;
	struct bpfkit_limit_key key = {};
	struct bpfkit_bucket *b, fresh = {};

	if (budget->pid != pid) {
		key.id = budget->pid;
		b = budget->drops ? bpf_map_lookup_elem(&bpfkit_buckets, &key) :
				    NULL;
		if (b) {
			__sync_fetch_and_add(&b->drops, budget->drops);
			/* The name it had when throttled, not when first seen. */
			__builtin_memcpy(b->comm, budget->comm,
					 sizeof(b->comm));
		} else if (budget->drops) {
			fresh.drops = budget->drops;
			fresh.last_ns = now;
			fresh.pid = budget->pid;
			__builtin_memcpy(fresh.comm, budget->comm,
					 sizeof(fresh.comm));
			bpf_map_update_elem(&bpfkit_buckets, &key, &fresh,
					    BPF_ANY);
		}
		budget->drops = 0;
		budget->pid = pid;
		bpf_get_current_comm(budget->comm, sizeof(budget->comm));
	}
	budget->drops++;
}

/*
 * Whether the current event may be sent: false when --sample leaves it out
 * or a limit throttles it, each counted in STATS (and a throttled event
 * against its key in bpfkit_buckets, for the reports). At a syscall's
 * ENTRY, the event is not counted produced yet: a refusal counts it too,
 * and the buckets are only looked at.
 */
static __always_inline bool bpfkit_admit(struct bpfkit_stats *stats, bool entry)
{
	__u64 key_rate = bpfkit_overload_cfg.key_rate;
	__u64 rate = bpfkit_overload_rate, now, cost, cap, full_ns;
	__u32 ncpus = bpfkit_overload_cfg.ncpus, zero = 0;
	struct bpfkit_bucket *b = NULL;
	struct bpfkit_budget *budget;

	if ((!entry || !bpfkit_overload_cfg.sample_random) &&
	    bpfkit_sampled_out()) {
		if (entry)
			__sync_fetch_and_add(&stats->produced, 1);
		__sync_fetch_and_add(&stats->sampled, 1);
		return false;
	}
	if (!rate && !key_rate)
		return true;
	now = bpf_ktime_get_ns();
	if (key_rate) {
		b = bpfkit_bucket(stats, now, key_rate * BPFKIT_NS_PER_S);
		if (b &&
		    !bpfkit_take(&b->tokens, &b->last_ns, now, key_rate,
				 BPFKIT_NS_PER_S, key_rate * BPFKIT_NS_PER_S,
				 BPFKIT_NS_PER_S, entry))
			goto throttled;
	}
	if (!rate || !ncpus)
		return true;
	budget = bpf_map_lookup_elem(&bpfkit_budget, &zero);
	if (!budget)
		return true;
	/*
	 * Each CPU's share: RATE / NCPUS events a second, and a second's
	 * worth at once, or at least one (then filled in NCPUS / RATE s).
	 */
	cost = ncpus * BPFKIT_NS_PER_S;
	cap = rate * BPFKIT_NS_PER_S;
	full_ns = BPFKIT_NS_PER_S;
	if (cap < cost) {
		cap = cost;
		full_ns = cost / rate;
	}
	if (bpfkit_take(&budget->tokens, &budget->last_ns, now, rate, cost, cap,
			full_ns, entry))
		return true;
	if (!b)
		bpfkit_tally(budget, now);
throttled:
	if (entry)
		__sync_fetch_and_add(&stats->produced, 1);
	__sync_fetch_and_add(&stats->throttled, 1);
	if (b) {
		/* Named as at its first throttled event, not its first event. */
		if (!b->drops)
			bpf_get_current_comm(b->comm, sizeof(b->comm));
		__sync_fetch_and_add(&b->drops, 1);
		b->pid = bpf_get_current_pid_tgid() >> 32;
	}
	return false;
}

/*
 * At a syscall's entry, before its arguments are staged: false when the
 * call's event is sampled out or throttled already (counted produced and
 * so), and nothing is to be staged.
 */
static __always_inline bool bpfkit_admit_entry(void)
{
	struct bpfkit_stats *stats;
	__u32 zero = 0;

	if (!bpfkit_overload_cfg.sample && !bpfkit_overload_cfg.key_rate &&
	    !bpfkit_overload_rate)
		return true;
	stats = bpf_map_lookup_elem(&bpfkit_stats, &zero);
	return !stats || bpfkit_admit(stats, true);
}

#endif /* BPFKIT_OVERLOAD_BPF_H */
