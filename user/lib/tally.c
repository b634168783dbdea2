// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The tally room: counts by key in an array, indexed by an open-addressing
 * hash table of twice its size or more (linear probing, FNV-1a of the key).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "tally.h"

static size_t hash(const unsigned char *key, size_t len)
{
	uint64_t h = 14695981039346656037ULL;

	while (len--) {
		h ^= *key++;
		h *= 1099511628211ULL;
	}
	return h;
}

void *bpfkit_tally_at(const struct bpfkit_tally *t, size_t i)
{
	return t->entries + i * t->entry_size;
}

/* The slot where KEY is, or the empty one where it would go. */
static size_t *slot_of(const struct bpfkit_tally *t, const void *key)
{
	size_t i = hash(key, t->key_size) & (t->nslots - 1);

	while (t->slots[i] &&
	       memcmp(bpfkit_tally_at(t, t->slots[i] - 1), key, t->key_size))
		i = (i + 1) & (t->nslots - 1);
	return &t->slots[i];
}

/* Room for one more entry, its slots at most half full. 0 or -1. */
static int grow(struct bpfkit_tally *t)
{
	size_t cap, nslots, i;
	unsigned char *entries;
	size_t *slots;

	if (t->n < t->cap)
		return 0;
	cap = t->cap ? 2 * t->cap : 64;
	entries = reallocarray(t->entries, cap, t->entry_size);
	if (!entries)
		return -1;
	t->entries = entries;
	nslots = 2 * cap;
	slots = calloc(nslots, sizeof(*slots));
	if (!slots)
		return -1;
	free(t->slots);
	t->slots = slots;
	t->nslots = nslots;
	t->cap = cap;
	for (i = 0; i < t->n; i++)
		*slot_of(t, bpfkit_tally_at(t, i)) = i + 1;
	return 0;
}

void *bpfkit_tally_get(struct bpfkit_tally *t, const void *key)
{
	unsigned char *e;
	size_t *slot;

	if (t->nslots) {
		slot = slot_of(t, key);
		if (*slot)
			return bpfkit_tally_at(t, *slot - 1);
	}
	if (grow(t))
		return NULL;
	e = bpfkit_tally_at(t, t->n);
	memcpy(e, key, t->key_size);
	memset(e + t->key_size, 0, t->entry_size - t->key_size);
	*slot_of(t, key) = ++t->n;
	return e;
}

void bpfkit_tally_sort(struct bpfkit_tally *t,
		       int (*cmp)(const void *, const void *))
{
	size_t i;

	if (!t->n)
		return;
	qsort(t->entries, t->n, t->entry_size, cmp);
	memset(t->slots, 0, t->nslots * sizeof(*t->slots));
	for (i = 0; i < t->n; i++)
		*slot_of(t, bpfkit_tally_at(t, i)) = i + 1;
}

void bpfkit_tally_free(struct bpfkit_tally *t)
{
	free(t->entries);
	free(t->slots);
	*t = (struct bpfkit_tally)BPFKIT_TALLY_INIT(t->entry_size, t->key_size);
}
