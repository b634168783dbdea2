/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The histogram both sides of a histogram tool share: the buckets, count
 * and sum one key of the tool's map holds, the settings user space writes
 * into the object's read-only bpfkit_hist_cfg before load, and the bucket
 * a value falls in (the same code on both sides, so the unit tests test
 * what the BPF side runs).
 */
#ifndef BPFKIT_HISTOGRAM_H
#define BPFKIT_HISTOGRAM_H

#include "bpfkit/types.h"

#define BPFKIT_HIST_SLOTS 40 /* buckets per key; the last holds all above */
#define BPFKIT_HIST_MAX_KEYS 10240 /* keys per tool's map */

/* How a tool keys task histograms: one, per process (-P), per thread (-L). */
enum bpfkit_hist_by {
	BPFKIT_HIST_ALL, /* one histogram, key 0 */
	BPFKIT_HIST_PROCESS, /* key: the tgid */
	BPFKIT_HIST_THREAD, /* key: the tid */
	/* --per-container: the task's mount namespace's inode (container.c) */
	BPFKIT_HIST_CONTAINER,
};

/* The CPU of a key that is not per CPU (no -C). */
#define BPFKIT_HIST_ANY_CPU ((__u32)-1)

/* How values are bucketed and keyed; set once, before load. */
struct bpfkit_hist_cfg {
	__u64 unit_ns; /* one unit: 1000 (usecs) or 1000000 (msecs) */
	__u64 unit_shift; /* log2(unit_ns), rounded down */
	__u64 linear_step; /* bucket width in units; 0: log2 buckets */
	__u32 by; /* enum bpfkit_hist_by: task keys (-P, -L) */
	__u32 per_cpu; /* -C: keys per CPU */
};

#define BPFKIT_HIST_CFG_DEFAULTS                                    \
	{                                                           \
		.unit_ns = 1000, .unit_shift = 9, .linear_step = 0, \
	}

/* One key's histogram, a value of the tool's map. */
struct bpfkit_hist {
	__u64 slots[BPFKIT_HIST_SLOTS]; /* values per bucket */
	__u64 count; /* values added, the sum of slots */
	__u64 sum_ns; /* their sum in nanoseconds, for an exact average */
	char name[BPFKIT_COMM_LEN]; /* the key's name if the tool gives one */
};

/* floor(log2(V)), 0 for 0: shifts only, no loop for the verifier. */
static inline __u32 bpfkit_log2(__u64 v)
{
	__u32 r = 0, shift;

	shift = (v > 0xffffffffULL) << 5;
	v >>= shift;
	r |= shift;
	shift = (v > 0xffff) << 4;
	v >>= shift;
	r |= shift;
	shift = (v > 0xff) << 3;
	v >>= shift;
	r |= shift;
	shift = (v > 0xf) << 2;
	v >>= shift;
	r |= shift;
	shift = (v > 0x3) << 1;
	v >>= shift;
	r |= shift;
	r |= (v >> 1);
	return r;
}

/*
 * The bucket of VALUE (in units): log2 bucket i holds [2^i, 2^(i+1) - 1]
 * and bucket 0 holds 0 and 1, as libbpf-tools' histograms; linear bucket i
 * holds [i * step, (i + 1) * step - 1]. Values past the last bucket go in it.
 */
static inline __u32 bpfkit_hist_slot(const volatile struct bpfkit_hist_cfg *cfg,
				     __u64 value)
{
	__u64 slot = cfg->linear_step ? value / cfg->linear_step :
					bpfkit_log2(value);

	return slot < BPFKIT_HIST_SLOTS ? slot : BPFKIT_HIST_SLOTS - 1;
}

/*
 * The bucket of NS nanoseconds, bpfkit_hist_slot(CFG, NS / unit_ns), with
 * no division for log2 buckets (a 64-bit divide is the dearest step of a
 * BPF program's add): with s = log2(NS) - unit_shift, NS / unit_ns is at
 * least 2^(s - 1) and below 2^(s + 1), and at least 2^s exactly when NS is
 * at least unit_ns << s.
 */
static inline __u32
bpfkit_hist_slot_ns(const volatile struct bpfkit_hist_cfg *cfg, __u64 ns)
{
	__u32 s;

	if (cfg->linear_step)
		return bpfkit_hist_slot(cfg, ns / cfg->unit_ns);
	if (ns < 2 * cfg->unit_ns)
		return 0;
	s = bpfkit_log2(ns) - cfg->unit_shift;
	if (ns < cfg->unit_ns << s)
		s--;
	return s < BPFKIT_HIST_SLOTS ? s : BPFKIT_HIST_SLOTS - 1;
}

#endif /* BPFKIT_HISTOGRAM_H */
