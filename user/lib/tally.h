/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Counts by key, for the tools that count their events in user space (-C):
 * entries of a fixed size whose first bytes are the key, compared as bytes
 * (so a key struct is zeroed, padding included, before it is filled), kept
 * in the order they came and found by hash.
 */
#ifndef BPFKIT_TALLY_H
#define BPFKIT_TALLY_H

#include <stddef.h>

struct bpfkit_tally {
	size_t entry_size, key_size;
	unsigned char *entries;
	size_t n, cap; /* entries held, and room for */
	size_t *slots; /* per hash slot: entry index + 1; 0: empty */
	size_t nslots;
};

/* An empty tally of entries of ENTRY_SIZE bytes, the first KEY_SIZE the key. */
#define BPFKIT_TALLY_INIT(entry_size_, key_size_)                    \
	{                                                            \
		.entry_size = (entry_size_), .key_size = (key_size_) \
	}

/*
 * The entry for KEY: a new one holds the key and zeros after it. NULL:
 * out of memory. Valid until the next call (entries may move).
 */
void *bpfkit_tally_get(struct bpfkit_tally *t, const void *key);

/* Entry I, in the order the keys came (I < t->n). */
void *bpfkit_tally_at(const struct bpfkit_tally *t, size_t i);

/* Put the entries in CMP's order (qsort's); each key is still found. */
void bpfkit_tally_sort(struct bpfkit_tally *t,
		       int (*cmp)(const void *, const void *));

void bpfkit_tally_free(struct bpfkit_tally *t);

#endif /* BPFKIT_TALLY_H */
