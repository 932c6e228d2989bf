/*
 * keymap.c - the hash table of keymap.h.
 */
#include "util/keymap.h"

#include "util/bigmem.h"

#include <stdlib.h>
#include <string.h>

#define HEAD 16 /* key + 1 (8 bytes), tag (4), padding (4) */
#define MIN_CAP 4096

typedef struct slot_head {
    uint64_t key1; /* key + 1; 0 = empty */
    uint32_t tag;
    uint32_t pad;
} slot_head;

static inline size_t hash(uint64_t key1, uint32_t tag, size_t mask)
{
    uint64_t h = (key1 ^ ((uint64_t)tag << 40)) * 0x9e3779b97f4a7c15ull;
    return (size_t)(h ^ (h >> 29)) & mask;
}

static inline slot_head *slot(const edan_keymap *m, size_t i)
{
    return (slot_head *)(m->slots + i * m->slot_size);
}

/* The table of cap slots, and a line that a prefetch past the last may reach. */
static size_t table_bytes(const edan_keymap *m, size_t cap)
{
    return cap * m->slot_size + 64;
}

#define MOVE_AHEAD 16 /* entries whose new homes are prefetched before the first of them is placed */

/* The entry e into the new table s of cap slots, from its home slot. */
static void place(const edan_keymap *m, unsigned char *s, size_t cap, const slot_head *e, size_t home)
{
    size_t j = home;
    while (((slot_head *)(s + j * m->slot_size))->key1)
        j = (j + 1) & (cap - 1);
    memcpy(s + j * m->slot_size, e, m->slot_size);
}

/*
 * Twice the slots. The entries move in the order of their old slots, so
 * they land where moving them one by one would put them; MOVE_AHEAD at a
 * time, their new homes prefetched first, since each lands at random in a
 * table that may be larger than the caches.
 */
static bool grow(edan_keymap *m)
{
    const size_t cap = m->cap ? 2 * m->cap : MIN_CAP;
    unsigned char *s = edan_big_zalloc(table_bytes(m, cap));
    if (!s)
        return false;
    size_t idx[MOVE_AHEAD], home[MOVE_AHEAD], k = 0;
    for (size_t i = 0; i < m->cap; i++) {
        const slot_head *e = slot(m, i);
        if (!e->key1)
            continue;
        idx[k] = i;
        home[k] = hash(e->key1, e->tag, cap - 1);
        __builtin_prefetch(s + home[k] * m->slot_size, 1);
        if (++k == MOVE_AHEAD) {
            for (size_t q = 0; q < k; q++)
                place(m, s, cap, slot(m, idx[q]), home[q]);
            k = 0;
        }
    }
    for (size_t q = 0; q < k; q++)
        place(m, s, cap, slot(m, idx[q]), home[q]);
    if (m->slots)
        edan_big_free(m->slots, table_bytes(m, m->cap));
    m->slots = s;
    m->cap = cap;
    return true;
}

int edan_keymap_init(edan_keymap *m, size_t value_size)
{
    memset(m, 0, sizeof *m);
    m->slot_size = HEAD + (value_size + 7) / 8 * 8;
    return grow(m) ? 0 : -1;
}

void edan_keymap_free(edan_keymap *m)
{
    edan_big_free(m->slots, table_bytes(m, m->cap));
    memset(m, 0, sizeof *m);
}

void *edan_keymap_get(edan_keymap *m, uint64_t key, uint32_t tag, bool *created)
{
    if (2 * (m->used + 1) > m->cap && !grow(m))
        return NULL;
    const uint64_t key1 = key + 1;
    size_t j = hash(key1, tag, m->cap - 1);
    for (;;) {
        slot_head *e = slot(m, j);
        if (!e->key1) {
            e->key1 = key1;
            e->tag = tag;
            m->used++;
            if (created)
                *created = true;
            return (unsigned char *)e + HEAD;
        }
        if (e->key1 == key1 && e->tag == tag) {
            if (created)
                *created = false;
            return (unsigned char *)e + HEAD;
        }
        j = (j + 1) & (m->cap - 1);
    }
}

void *edan_keymap_find(const edan_keymap *m, uint64_t key, uint32_t tag)
{
    if (!m->cap)
        return NULL;
    const uint64_t key1 = key + 1;
    for (size_t j = hash(key1, tag, m->cap - 1);; j = (j + 1) & (m->cap - 1)) {
        slot_head *e = slot(m, j);
        if (!e->key1)
            return NULL;
        if (e->key1 == key1 && e->tag == tag)
            return (unsigned char *)e + HEAD;
    }
}

void *edan_keymap_at(const edan_keymap *m, size_t i, uint64_t *key, uint32_t *tag)
{
    slot_head *e = slot(m, i);
    if (!e->key1)
        return NULL;
    if (key)
        *key = e->key1 - 1;
    if (tag)
        *tag = e->tag;
    return (unsigned char *)e + HEAD;
}

void edan_keymap_prefetch(const edan_keymap *m, uint64_t key, uint32_t tag)
{
    const unsigned char *e = m->slots + hash(key + 1, tag, m->cap - 1) * m->slot_size;
    __builtin_prefetch(e, 1);
    __builtin_prefetch(e + 64, 1);
}
