/*
 * shadow_sparse.c - the narrow shadow's sparse pages (shadow.h): sorted
 * tables of word and unit entries, in size classes from slabs of their own.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "analysis/shadow/shadow_internal.h"

/* ---- size classes and slabs ---------------------------------------------- */

#define SLAB_BYTES (1u << 20)

/* Slots of each size class: about 1.25x apart, so a page's unused slots are a fraction of its entries. */
static const uint16_t class_cap[EDAN_SHADOW_SPARSE_CLASSES] = {2,  3,  4,  6,  8,  10, 12,  16,  20,  24,
                                                               32, 40, 48, 64, 80, 96, 128, 160, 192, 256};
_Static_assert(EDAN_SHADOW_SPARSE_MAX == 256, "the largest class holds EDAN_SHADOW_SPARSE_MAX entries");

/* Bytes of a sparse page of cap slots (a multiple of 8: the next one's records stay aligned). */
static size_t sparse_bytes(uint32_t cap)
{
    return (sizeof(edan_shadow_sparse) + (size_t)cap * (sizeof(uint64_t) + sizeof(uint16_t)) + 7) & ~(size_t)7;
}

/* The smallest class with at least n slots (n <= EDAN_SHADOW_SPARSE_MAX). */
static unsigned class_for(uint32_t n)
{
    unsigned c = 0;
    while (class_cap[c] < n)
        c++;
    return c;
}

/* A sparse page's memory (its contents undefined) of class c, NULL when out of memory. */
static edan_shadow_sparse *slab_take(edan_shadow *s, unsigned c)
{
    void **list = &s->slab_free[c];
    if (*list) {
        void *p = *list;
        memcpy(list, p, sizeof *list); /* a free page holds the next free one's address */
        return p;
    }
    const size_t bytes = sparse_bytes(class_cap[c]);
    if (s->slab_left < bytes) {
        char **a = realloc(s->slabs, (s->n_slabs + 1) * sizeof *a);
        if (!a)
            return NULL;
        s->slabs = a;
        char *slab = edan_shadow_map_zeroed(SLAB_BYTES);
        if (!slab)
            return NULL;
        s->slabs[s->n_slabs++] = slab;
        s->slab_bump = slab;
        s->slab_left = SLAB_BYTES;
    }
    void *p = s->slab_bump;
    s->slab_bump += bytes;
    s->slab_left -= bytes;
    return p;
}

void edan_shadow_sparse_give(edan_shadow *s, edan_shadow_sparse *sp)
{
    void **list = &s->slab_free[class_for(sp->cap)];
    memcpy(sp, list, sizeof *list);
    *list = sp;
}

void edan_shadow_slabs_free(edan_shadow *s)
{
    for (size_t i = 0; i < s->n_slabs; i++)
        munmap(s->slabs[i], SLAB_BYTES);
    free(s->slabs);
    s->slabs = NULL;
    s->n_slabs = 0;
    s->slab_bump = NULL;
    s->slab_left = 0;
    memset(s->slab_free, 0, sizeof s->slab_free);
}

edan_shadow_sparse *edan_shadow_sparse_make(edan_shadow *s, edan_shadow_sparse *from, uintptr_t v, uint32_t need)
{
    const uint32_t count = from ? from->count : v != 0;
    if (count + need > EDAN_SHADOW_SPARSE_MAX)
        return NULL;
    edan_shadow_sparse *n = slab_take(s, class_for(count + need));
    if (!n) {
        s->out_of_memory = true;
        return NULL;
    }
    n->count = (uint16_t)count;
    n->cap = class_cap[class_for(count + need)];
    n->lookups = from ? from->lookups : 0;
    if (from) {
        memcpy(edan_shadow_sparse_recs(n), edan_shadow_sparse_recs(from), count * sizeof(uint64_t));
        memcpy(edan_shadow_sparse_keys(n), edan_shadow_sparse_keys(from), count * sizeof(uint16_t));
        edan_shadow_sparse_give(s, from);
    } else if (v) {
        edan_shadow_inline_rec(v, (char *)edan_shadow_sparse_recs(n));
        edan_shadow_sparse_keys(n)[0] = (uint16_t)(4 * edan_shadow_inline_word(v) + 1);
    }
    return n;
}

/* ---- entries ------------------------------------------------------------- */

/*
 * The first entry whose key is at least k (count if none). Appends, the
 * common case of stores, look at one key; the rest first at the place
 * interpolation between the first and last keys gives, which is exact for
 * evenly spaced entries (an array written in order, or every so many
 * bytes), then by bisection.
 */
static uint32_t lower(const edan_shadow_sparse *sp, const edan_u16a *key, uint32_t k)
{
    uint32_t n = sp->count;
    if (!n || key[n - 1] < k)
        return n;
    if (key[0] >= k)
        return 0;
    /* key[0] < k <= key[n - 1], so n >= 2 and the guess is below n - 1 */
    const uint32_t i = (k - key[0]) * (n - 1) / ((uint32_t)key[n - 1] - key[0]);
    if (key[i] < k && key[i + 1] >= k)
        return i + 1;
    if (key[i] >= k && key[i - 1] < k) /* i > 0: key[0] < k */
        return i;
    const edan_u16a *base = key;
    while (n > 0) {
        const uint32_t half = n / 2;
        if (base[half] < k) {
            base += half + 1;
            n -= half + 1;
        } else {
            n = half;
        }
    }
    return (uint32_t)(base - key);
}

/* A new entry of key k at i (records after it move up); the page has room. */
static char *insert_at(edan_shadow_sparse *sp, uint32_t i, uint16_t k, uint64_t rec)
{
    edan_u64a *r = edan_shadow_sparse_recs(sp);
    edan_u16a *key = edan_shadow_sparse_keys(sp);
    if (i < sp->count) {
        memmove(r + i + 1, r + i, (sp->count - i) * sizeof *r);
        memmove(key + i + 1, key + i, (sp->count - i) * sizeof *key);
    }
    r[i] = rec;
    key[i] = k;
    sp->count++;
    return (char *)&r[i];
}

char *edan_shadow_sparse_find(edan_shadow_sparse *sp, uint32_t u)
{
    const edan_u16a *key = edan_shadow_sparse_keys(sp);
    const uint32_t w4 = 4 * (u >> 1), k = 2 * u;
    uint32_t i = lower(sp, key, w4);
    if (i < sp->count && key[i] == w4 + 1)
        return (char *)&edan_shadow_sparse_recs(sp)[i];
    if (i < sp->count && key[i] < k) /* the word's other unit, first */
        i++;
    return i < sp->count && key[i] == k ? (char *)&edan_shadow_sparse_recs(sp)[i] : NULL;
}

char *edan_shadow_sparse_unit(edan_shadow_sparse *sp, uint32_t u)
{
    edan_u64a *r = edan_shadow_sparse_recs(sp);
    edan_u16a *key = edan_shadow_sparse_keys(sp);
    const uint32_t w4 = 4 * (u >> 1), k = 2 * u;
    uint32_t i = lower(sp, key, w4);
    if (i < sp->count && key[i] == w4 + 1) {
        /* the word's entry becomes its two units' (a word's record is never split) */
        key[i] = (uint16_t)w4;
        insert_at(sp, i + 1, (uint16_t)(w4 + 2), r[i]);
        return (char *)&r[i + (u & 1)];
    }
    if (i < sp->count && key[i] < k)
        i++;
    if (i < sp->count && key[i] == k)
        return (char *)&r[i];
    return insert_at(sp, i, (uint16_t)k, 0);
}

char *edan_shadow_sparse_word(edan_shadow *s, edan_shadow_sparse *sp, uint32_t w)
{
    edan_u64a *r = edan_shadow_sparse_recs(sp);
    edan_u16a *key = edan_shadow_sparse_keys(sp);
    const uint32_t w4 = 4 * w;
    const uint32_t i = lower(sp, key, w4);
    uint32_t n = 0;
    while (i + n < sp->count && key[i + n] < w4 + 4) {
        char *unit = (char *)&r[i + n];
        if (*edan_shadow_unit_md(unit, 1, false, true) & EDAN_SHADOW_SPLIT)
            edan_shadow_split_release(s, edan_shadow_F_get(unit, 0, true));
        n++;
    }
    if (!n)
        return insert_at(sp, i, (uint16_t)(w4 + 1), 0);
    key[i] = (uint16_t)(w4 + 1);
    if (n == 2) { /* one entry fewer */
        memmove(r + i + 1, r + i + 2, (sp->count - i - 2) * sizeof *r);
        memmove(key + i + 1, key + i + 2, (sp->count - i - 2) * sizeof *key);
        sp->count--;
    }
    return (char *)&r[i];
}

bool edan_shadow_sparse_all_words(edan_shadow_sparse *sp)
{
    const edan_u16a *key = edan_shadow_sparse_keys(sp);
    for (uint32_t i = 0; i < sp->count; i++)
        if (!(key[i] & 1))
            return false;
    return true;
}

void edan_shadow_sparse_spread(edan_shadow_sparse *sp, char *page, bool words)
{
    const edan_u64a *r = edan_shadow_sparse_recs(sp);
    const edan_u16a *key = edan_shadow_sparse_keys(sp);
    for (uint32_t i = 0; i < sp->count; i++) {
        if (words) {
            memcpy(page + (size_t)(key[i] >> 2) * 8, &r[i], 8);
        } else if (key[i] & 1) {
            memcpy(page + (size_t)(key[i] >> 1) * 8, &r[i], 8); /* units 2w and 2w + 1: key 4w + 1 */
            memcpy(page + (size_t)(key[i] >> 1) * 8 + 8, &r[i], 8);
        } else {
            memcpy(page + (size_t)(key[i] >> 1) * 8, &r[i], 8);
        }
    }
}
