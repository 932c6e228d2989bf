/*
 * keymap.h - an open-addressing hash table from (key, tag) to a small
 * fixed-size value, the one the analysis tools keep per block or per
 * (block, function): footprints, load classes, sampled windows, zoom
 * blocks.
 *
 *   edan_keymap m;  edan_keymap_init(&m, sizeof(my_value));
 *   my_value *v = edan_keymap_get(&m, block, fn, &created);   zero-filled when created
 *   v = edan_keymap_find(&m, block, fn);                     NULL when absent
 *   for (size_t i = 0; i < edan_keymap_capacity(&m); i++)
 *       if ((v = edan_keymap_at(&m, i, &key, &tag))) ...
 *   edan_keymap_prefetch(&m, next_block, fn);              a hint, a few lookups ahead
 *   edan_keymap_free(&m);
 *
 * Linear probing, at most half full, so a lookup reads about one slot; a
 * slot is the key + 1 (0: empty), the tag and the value, 8-byte aligned.
 * Values move when the table grows: a pointer from get() stays valid only
 * until the next get(). Memory is proportional to the entries.
 */
#ifndef EDAN_UTIL_KEYMAP_H
#define EDAN_UTIL_KEYMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct edan_keymap {
    unsigned char *slots;
    size_t cap, used; /* cap a power of two; used <= cap / 2 */
    size_t slot_size; /* 16 bytes of key and tag, then the value rounded up to 8 */
} edan_keymap;

/* An empty table for values of value_size bytes; 0, or -1 when out of memory. */
int edan_keymap_init(edan_keymap *m, size_t value_size);
void edan_keymap_free(edan_keymap *m);

/*
 * The value of (key, tag), made zero-filled when absent (*created true then;
 * created may be NULL). key must be below UINT64_MAX. NULL when out of memory.
 */
void *edan_keymap_get(edan_keymap *m, uint64_t key, uint32_t tag, bool *created);

/* The value of (key, tag), or NULL when absent (nothing is made). */
void *edan_keymap_find(const edan_keymap *m, uint64_t key, uint32_t tag);

/* Entries so far; slots to visit with edan_keymap_at. */
static inline size_t edan_keymap_size(const edan_keymap *m)
{
    return m->used;
}
static inline size_t edan_keymap_capacity(const edan_keymap *m)
{
    return m->cap;
}

/*
 * A hint that (key, tag) will be looked up soon (a few lookups ahead): the
 * cache lines of its home slot are prefetched, so lookups over a large
 * table overlap their misses. Changes nothing else.
 */
void edan_keymap_prefetch(const edan_keymap *m, uint64_t key, uint32_t tag);

/* Slot i's value (and its key and tag), or NULL when the slot is empty. */
void *edan_keymap_at(const edan_keymap *m, size_t i, uint64_t *key, uint32_t *tag);

#endif
