/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Overload control as both sides of a tool that sends events see it
 * (--rate-limit, --rate-limit-by, --sample, --sample-random, --max-cpu):
 * user space writes the read-only bpfkit_overload_cfg before load and the
 * global rate (.bss bpfkit_overload_rate) whenever --max-cpu moves it;
 * bpfkit_admit() (overload.bpf.h) decides for each event before its record
 * is sent, and keeps the buckets of the per-key limits in bpfkit_buckets,
 * where user space finds who was throttled.
 */
#ifndef BPFKIT_OVERLOAD_H
#define BPFKIT_OVERLOAD_H

#include "bpfkit/types.h"

/* What --rate-limit-by keys the limit by; NONE: one limit for the tool. */
enum bpfkit_limit_by {
	BPFKIT_LIMIT_BY_NONE,
	BPFKIT_LIMIT_BY_PID, /* the process (tgid) */
	BPFKIT_LIMIT_BY_CGROUP, /* the cgroup v2 id */
	BPFKIT_LIMIT_BY_COMM, /* the command name */
};

/* The highest rate a limit takes, in events per second. */
#define BPFKIT_MAX_RATE 10000000ULL

/* Set once, before load, as the read-only `bpfkit_overload_cfg`. */
struct bpfkit_overload_cfg {
	__u64 key_rate; /* events per second per key; 0: no per-key limit */
	__u32 by; /* enum bpfkit_limit_by */
	__u32 sample; /* keep 1 event in this many; 0 or 1: all */
	__u32 sample_random; /* pick each event, not whole processes */
	__u32 seed; /* mixed into the process hash: a new sample each run */
	__u32 ncpus; /* the global rate is split among this many CPUs */
	__u32 pad;
};

/*
 * A key of bpfkit_buckets: the pid or the cgroup id in ID, or the command
 * name in COMM (the other zero). Without --rate-limit-by, the map tallies
 * the global limit's drops by pid, for the reports.
 */
struct bpfkit_limit_key {
	__u64 id;
	char comm[BPFKIT_COMM_LEN];
};

/* A key's token bucket, and the events it turned away. */
struct bpfkit_bucket {
	__u64 tokens; /* in 1e-9 events: an event takes 1e9 */
	__u64 last_ns; /* bpf_ktime_get_ns() of the last refill */
	__u64 drops; /* events throttled, ever */
	__u32 pid; /* the last process throttled, and its name */
	char comm[BPFKIT_COMM_LEN];
};

/*
 * Each CPU's share of the global limit, and the events it throttled of
 * the last process it throttled, not yet added to that process's entry in
 * bpfkit_buckets (so that a storm's throttled events cost no hash lookup):
 * user space adds them to its reports.
 */
struct bpfkit_budget {
	__u64 tokens; /* in 1e-9 / ncpus events: an event takes ncpus * 1e9 */
	__u64 last_ns;
	__u64 drops; /* of PID, not yet in bpfkit_buckets */
	__u32 pid;
	char comm[BPFKIT_COMM_LEN];
	__u32 pad;
};

/* Keys bpfkit_buckets holds: its LRU forgets the least recent past this. */
#define BPFKIT_BUCKETS 4096

#endif /* BPFKIT_OVERLOAD_H */
