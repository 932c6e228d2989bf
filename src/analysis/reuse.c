/*
 * reuse.c - exact LRU stack distance and reuse time (see reuse.h for the
 * definitions and the invariant).
 */
#include "analysis/reuse.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define GROUP_BITS 512u /* positions per counted group: 8 words of the bitmap */
#define GROUP_WORDS (GROUP_BITS / 64u)
#define MIN_WINDOW (1u << 16)
#define MIN_SLOTS 4096u

/*
 * One block: key = block + 1 (0: an empty slot), except the reserved slot
 * for block UINT64_MAX (slots[cap]), whose key is 1 once that block was
 * accessed. Without a field of its own for that, the slot has room for the
 * caller's word (edan_reuse_access_user) and stays 24 bytes.
 */
typedef struct reuse_slot {
    uint64_t key;
    uint64_t last; /* index of its latest access */
    uint32_t pos;  /* position of its latest access in the window (with distances) */
    uint32_t user; /* the caller's word for the block: 0 at its first access */
} reuse_slot;

struct edan_reuse {
    bool distances;
    reuse_slot *slots; /* cap + 1 entries: slots[cap] is block UINT64_MAX's */
    size_t cap, used;  /* cap a power of two; used <= cap / 2 */
    uint64_t now;      /* accesses so far */
    uint64_t blocks;   /* distinct blocks */

    /* The window (with distances): positions [0, wpos) used of wcap. */
    uint64_t *bits;   /* a bit per position: set where a block's latest access is */
    uint32_t *owner;  /* the slot of the block whose access is at each set position */
    uint16_t *gcount; /* set bits per group */
    uint32_t *fw;     /* Fenwick tree over the completed groups (1-based, ngroups entries) */
    size_t wcap, wpos, ngroups;
    size_t min_window;
    /* the access, compiled for the CPU; *slot receives the block's slot (NULL when out of memory) */
    uint64_t (*access)(edan_reuse *r, uint64_t b, uint64_t *distance, uint64_t *prev, reuse_slot **slot);
};

static uint64_t access_plain(edan_reuse *r, uint64_t b, uint64_t *distance, uint64_t *prev, reuse_slot **slot);
#if defined(__x86_64__) && defined(__GNUC__)
static uint64_t access_popcnt(edan_reuse *r, uint64_t b, uint64_t *distance, uint64_t *prev, reuse_slot **slot);
#endif

/* ===================================================================== */
/* Hash table                                                             */
/* ===================================================================== */

/* Eight consecutive blocks share eight consecutive slots, so a streaming access touches few cache lines. */
static inline size_t slot_of(uint64_t b, size_t mask)
{
    uint64_t h = (b >> 3) * 0x9e3779b97f4a7c15ull;
    h ^= h >> 31;
    return (size_t)((h << 3) | (b & 7)) & mask;
}

/*
 * Zeroed memory for a large table, in transparent huge pages where the
 * kernel offers them: the table is read at random, and with 4 KiB pages
 * nearly every access of a large footprint would also miss the TLB.
 */
static void *table_alloc(size_t bytes)
{
    if (bytes < (4u << 20))
        return calloc(1, bytes);
    void *p = NULL;
    const size_t huge = 2u << 20;
    if (posix_memalign(&p, huge, (bytes + huge - 1) / huge * huge))
        return NULL;
#ifdef MADV_HUGEPAGE
    madvise(p, (bytes + huge - 1) / huge * huge, MADV_HUGEPAGE);
#endif
    memset(p, 0, bytes);
    return p;
}

static bool grow_slots(edan_reuse *r)
{
    const size_t cap = r->cap ? 2 * r->cap : MIN_SLOTS;
    reuse_slot *s = table_alloc((cap + 1) * sizeof *s);
    if (!s)
        return false;
    for (size_t i = 0; i <= r->cap && r->slots; i++) {
        const reuse_slot *e = &r->slots[i];
        size_t j;
        if (i == r->cap) {
            j = cap; /* the reserved slot moves to the new end */
        } else {
            if (!e->key)
                continue;
            j = slot_of(e->key - 1, cap - 1);
            while (s[j].key)
                j = (j + 1) & (cap - 1);
        }
        s[j] = *e;
        if (r->distances && (i < r->cap || e->key))
            r->owner[e->pos] = (uint32_t)j;
    }
    free(r->slots);
    r->slots = s;
    r->cap = cap;
    return true;
}

/* ===================================================================== */
/* The window                                                             */
/* ===================================================================== */

static inline __attribute__((always_inline)) void fw_add(edan_reuse *r, size_t g, int32_t delta)
{
    for (size_t i = g + 1; i <= r->ngroups; i += i & (~i + 1))
        r->fw[i] += (uint32_t)delta;
}

/* Set bits at positions [0, x), x <= wpos. Groups before the tail group are all in the Fenwick tree. */
static inline __attribute__((always_inline)) uint64_t prefix(const edan_reuse *r, size_t x)
{
    const size_t g = x / GROUP_BITS;
    uint64_t s = 0;
    for (size_t i = g; i > 0; i &= i - 1)
        s += r->fw[i];
    const size_t w_end = x / 64;
    for (size_t w = g * GROUP_WORDS; w < w_end; w++)
        s += (uint64_t)__builtin_popcountll(r->bits[w]);
    if (x % 64)
        s += (uint64_t)__builtin_popcountll(r->bits[w_end] & ((1ull << (x % 64)) - 1));
    return s;
}

/* A window of wcap positions holding the live positions of the old one, in order; false when out of memory. */
static bool compact(edan_reuse *r, size_t wcap)
{
    const size_t ngroups = wcap / GROUP_BITS;
    uint64_t *bits = calloc(wcap / 64, sizeof *bits);
    uint32_t *owner = malloc(wcap * sizeof *owner);
    uint16_t *gcount = calloc(ngroups, sizeof *gcount);
    uint32_t *fw = calloc(ngroups + 1, sizeof *fw);
    if (!bits || !owner || !gcount || !fw) {
        free(bits);
        free(owner);
        free(gcount);
        free(fw);
        return false;
    }
    size_t k = 0;
    for (size_t w = 0; r->bits && w < (r->wpos + 63) / 64; w++) {
        for (uint64_t m = r->bits[w]; m; m &= m - 1) {
            const size_t x = w * 64 + (size_t)__builtin_ctzll(m);
            const uint32_t s = r->owner[x];
            owner[k] = s;
            r->slots[s].pos = (uint32_t)k;
            bits[k / 64] |= 1ull << (k % 64);
            gcount[k / GROUP_BITS]++;
            k++;
        }
    }
    /* the completed groups into the Fenwick tree, built in linear time */
    const size_t tail = k / GROUP_BITS;
    for (size_t i = 1; i <= ngroups; i++) {
        if (i - 1 < tail)
            fw[i] += gcount[i - 1];
        const size_t j = i + (i & (~i + 1));
        if (j <= ngroups)
            fw[j] += fw[i];
    }
    free(r->bits);
    free(r->owner);
    free(r->gcount);
    free(r->fw);
    r->bits = bits;
    r->owner = owner;
    r->gcount = gcount;
    r->fw = fw;
    r->wcap = wcap;
    r->ngroups = ngroups;
    r->wpos = k;
    return true;
}

/* Room for one more position: compact into a window of at least twice the live positions. */
static bool window_room(edan_reuse *r)
{
    if (r->wpos < r->wcap)
        return true;
    size_t wcap = r->min_window;
    while (wcap < 4 * (r->blocks + 1)) /* room for 3 accesses per live block between compactions */
        wcap *= 2;
    if (wcap > UINT32_MAX)
        return false; /* positions are 32-bit: 2^31 distinct blocks is beyond what this tracker serves */
    return compact(r, wcap);
}

/* ===================================================================== */
/* Access                                                                 */
/* ===================================================================== */

edan_reuse *edan_reuse_new(bool distances)
{
    return edan_reuse_new_window(distances, MIN_WINDOW);
}

edan_reuse *edan_reuse_new_window(bool distances, size_t min_window)
{
    size_t w = GROUP_BITS;
    while (w < min_window)
        w *= 2;
    edan_reuse *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->distances = distances;
    r->min_window = w;
    r->access = access_plain;
#if defined(__x86_64__) && defined(__GNUC__)
    if (__builtin_cpu_supports("popcnt"))
        r->access = access_popcnt;
#endif
    if ((distances && !compact(r, w)) || !grow_slots(r)) {
        edan_reuse_free(r);
        return NULL;
    }
    return r;
}

void edan_reuse_free(edan_reuse *r)
{
    if (!r)
        return;
    free(r->slots);
    free(r->bits);
    free(r->owner);
    free(r->gcount);
    free(r->fw);
    free(r);
}

static inline __attribute__((always_inline)) uint64_t access_body(edan_reuse *r, uint64_t b, uint64_t *distance,
                                                                  uint64_t *prev, reuse_slot **slot)
{
    *slot = NULL;
    if (2 * (r->used + 1) > r->cap && !grow_slots(r))
        return EDAN_REUSE_NOMEM;
    size_t j;
    reuse_slot *e;
    if (b == UINT64_MAX) {
        j = r->cap;
        e = &r->slots[j];
    } else {
        const uint64_t key = b + 1;
        j = slot_of(b, r->cap - 1);
        while (r->slots[j].key && r->slots[j].key != key)
            j = (j + 1) & (r->cap - 1);
        e = &r->slots[j];
    }
    const bool seen = e->key != 0; /* the reserved slot's key is 1 once used */
    uint64_t rt = EDAN_REUSE_COLD;
    if (r->distances) {
        /* room first (a compaction moves the block's position): on failure nothing has changed */
        if (!window_room(r))
            return EDAN_REUSE_NOMEM;
        if (seen) {
            /* every set bit after the block's position is another block's later access */
            const size_t p = e->pos;
            *distance = r->blocks - prefix(r, p + 1);
            r->bits[p / 64] &= ~(1ull << (p % 64));
            r->gcount[p / GROUP_BITS]--;
            if (p / GROUP_BITS < r->wpos / GROUP_BITS)
                fw_add(r, p / GROUP_BITS, -1);
        } else {
            *distance = EDAN_REUSE_COLD;
        }
        const size_t q = r->wpos++;
        r->bits[q / 64] |= 1ull << (q % 64);
        r->gcount[q / GROUP_BITS]++;
        r->owner[q] = (uint32_t)j;
        e->pos = (uint32_t)q;
        if (r->wpos % GROUP_BITS == 0) /* its group is complete: into the Fenwick tree */
            fw_add(r, q / GROUP_BITS, r->gcount[q / GROUP_BITS]);
    }
    if (seen) {
        rt = r->now - e->last;
        *prev = e->last;
    } else {
        if (b == UINT64_MAX)
            e->key = 1;
        else
            e->key = b + 1, r->used++;
        e->user = 0;
        r->blocks++;
    }
    e->last = r->now++;
    *slot = e;
    return rt;
}

/*
 * A distance counts set bits with popcounts, which x86-64's baseline lacks
 * (GCC then calls a library routine, a third of the time of an access):
 * the access is compiled twice and the one the CPU can run is chosen once.
 */
#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("popcnt"))) static uint64_t access_popcnt(edan_reuse *r, uint64_t b, uint64_t *distance,
                                                                uint64_t *prev, reuse_slot **slot)
{
    return access_body(r, b, distance, prev, slot);
}
#endif

static uint64_t access_plain(edan_reuse *r, uint64_t b, uint64_t *distance, uint64_t *prev, reuse_slot **slot)
{
    return access_body(r, b, distance, prev, slot);
}

uint64_t edan_reuse_access(edan_reuse *r, uint64_t b, uint64_t *distance, uint64_t *prev)
{
    reuse_slot *slot;
    return r->access(r, b, distance, prev, &slot);
}

uint64_t edan_reuse_access_user(edan_reuse *r, uint64_t b, uint64_t *distance, uint64_t *prev, uint32_t **user)
{
    reuse_slot *slot;
    const uint64_t rt = r->access(r, b, distance, prev, &slot);
    *user = slot ? &slot->user : NULL;
    return rt;
}

void edan_reuse_final(const edan_reuse *r, void (*fn)(void *ctx, uint64_t b, uint64_t f, uint32_t user), void *ctx)
{
    if (!r->distances)
        return;
    for (size_t i = 0; i <= r->cap; i++) {
        const reuse_slot *e = &r->slots[i];
        if (!e->key)
            continue;
        /* as for an access: every set bit after the block's position is another block accessed since */
        fn(ctx, i == r->cap ? UINT64_MAX : e->key - 1, r->blocks - prefix(r, (size_t)e->pos + 1), e->user);
    }
}

void edan_reuse_prefetch(const edan_reuse *r, uint64_t b)
{
    __builtin_prefetch(&r->slots[slot_of(b, r->cap - 1)], 1);
}

uint64_t edan_reuse_accesses(const edan_reuse *r)
{
    return r->now;
}

uint64_t edan_reuse_blocks(const edan_reuse *r)
{
    return r->blocks;
}

uint64_t edan_reuse_bytes(const edan_reuse *r)
{
    uint64_t n = (uint64_t)(r->cap + 1) * sizeof(reuse_slot);
    if (r->distances)
        n += r->wcap / 8 + r->wcap * sizeof(uint32_t) + r->ngroups * (sizeof(uint16_t) + sizeof(uint32_t));
    return n;
}
