/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The user side of overload control (bpfkit/overload.h): the options
 * (--rate-limit, --rate-limit-by, --sample, --sample-random, --max-cpu),
 * the settings they give the BPF side before load, and, while the tool
 * runs, once a second: who was throttled (one stderr line, or a
 * {"type":"throttled"} record with -j), and with --max-cpu the tool's own
 * CPU (its programs' run time, held on by BPF_ENABLE_STATS, and its
 * reader's), which lowers the global budget while above the limit.
 */
#ifndef BPFKIT_OVERLOAD_USER_H
#define BPFKIT_OVERLOAD_USER_H

#include <stdbool.h>
#include <stddef.h>
#include <bpf/libbpf.h>
#include "bpfkit/channel.h"
#include "bpfkit/overload.h"

struct bpfkit_overload_opts {
	unsigned long rate; /* --rate-limit: events per second; 0: none */
	enum bpfkit_limit_by by; /* --rate-limit-by */
	unsigned long sample; /* --sample N: keep 1 in N; 0: all */
	bool sample_random; /* --sample-random */
	unsigned long max_cpu; /* --max-cpu: percent of one CPU; 0: none */
};

/* Whether OPTS asks for any of it (a tool without a channel refuses). */
bool bpfkit_overload_on(const struct bpfkit_overload_opts *opts);

/* The parsers of the options; a bad value is a one-line usage error. */
int bpfkit_parse_rate_by(const char *arg, enum bpfkit_limit_by *by);
/* After all options: what goes only with another one. */
int bpfkit_overload_check(const struct bpfkit_overload_opts *opts);

/*
 * Before load: write OPTS into the object's bpfkit_overload_cfg (CFG, in
 * .rodata) and bpfkit_overload_rate (RATE, in .bss), and size its
 * bpfkit_buckets (BUCKETS: a few entries when nothing uses it). Any NULL
 * (an object without a channel): nothing to do, or an error when OPTS
 * asks for overload control.
 */
int bpfkit_overload_prepare(struct bpfkit_overload_cfg *cfg, __u64 *rate,
			    struct bpf_map *buckets,
			    const struct bpfkit_overload_opts *opts);

struct bpfkit_overload;

/*
 * After load, for the channel of S's programs, RATE the loaded object's
 * bpfkit_overload_rate: NULL (errno set, reported) on failure; a state
 * that does nothing when OPTS asks for nothing.
 */
struct bpfkit_overload *
bpfkit_overload_open(struct bpf_object_skeleton *s, volatile __u64 *rate,
		     const struct bpfkit_overload_opts *opts);

/*
 * Called often (the channel's wakeups) with the channel's counts: at most
 * once a second, report who was throttled and adjust --max-cpu's budget;
 * FINAL (after the drain): report who was throttled since, at once.
 */
void bpfkit_overload_tick(struct bpfkit_overload *ov, __u64 produced,
			  __u64 throttled, __u64 sampled, bool final);

/* Whether a tick would do something now (so the counts are worth reading). */
bool bpfkit_overload_due(const struct bpfkit_overload *ov);

/* For the summary: "--max-cpu 5: ..." on stderr, and JSON fields. */
void bpfkit_overload_summary_text(const struct bpfkit_overload *ov);
struct bpfkit_json;
void bpfkit_overload_summary_json(const struct bpfkit_overload *ov,
				  struct bpfkit_json *j);

void bpfkit_overload_free(struct bpfkit_overload *ov);

/* The parts that need no kernel, for the unit tests. */

/* A key's drops, as user space reads bpfkit_buckets. */
struct bpfkit_key_drops {
	struct bpfkit_limit_key key;
	__u64 drops; /* since the last report (top) or ever (snapshots) */
	__u32 pid;
	char comm[BPFKIT_COMM_LEN];
};

/* Sort N snapshots by key, for bpfkit_top_drops(). */
void bpfkit_sort_drops(struct bpfkit_key_drops *d, size_t n);

/*
 * The at most NTOP keys of CUR (NCUR, sorted) that dropped the most since
 * PREV (NPREV, sorted; a key not there had none), most first, with their
 * drops since then; returns how many.
 */
size_t bpfkit_top_drops(const struct bpfkit_key_drops *prev, size_t nprev,
			const struct bpfkit_key_drops *cur, size_t ncur,
			struct bpfkit_key_drops *top, size_t ntop);

/*
 * --max-cpu's step, once a second: the global rate to set, from RATE now
 * (0: none), USER_RATE (--rate-limit's global one, 0: none), the events
 * produced (PRODUCED) and sent (SENT) in the last second, and the CPU
 * PERCENT the tool used then against MAX_PERCENT. Above the limit, the
 * rate falls in proportion (at least to 1); well below it, it rises by a
 * quarter, back to USER_RATE, or to none once it would pass every event.
 */
__u64 bpfkit_cpu_rate(__u64 rate, __u64 user_rate, __u64 produced, __u64 sent,
		      double percent, double max_percent);

#endif /* BPFKIT_OVERLOAD_USER_H */
