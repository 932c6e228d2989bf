/*
 * reuse.c - exact LRU stack distance and reuse time (see reuse.h for the
 * definitions and the invariant).
 */
#include "analysis/locality/reuse.h"

#include <stdlib.h>
#include <string.h>

#include "util/blocktab.h"

#define GROUP_BITS 512u /* positions per counted group: 8 words of the bitmap */
#define GROUP_WORDS (GROUP_BITS / 64u)
#define MIN_WINDOW (1u << 16)

/*
 * One block's value in the table (util/blocktab.h): the index of its latest
 * access + 1 (0: never accessed). With distances (16 bytes) also the
 * position of its latest access in the window and the caller's word
 * (edan_reuse_access_user); without (8 bytes) only the index. A leaf holds
 * 2^LEAF_BITS consecutive blocks: 512 bytes of values either way.
 */
typedef struct block_times {
    uint64_t last1;
} block_times;
typedef struct block_dist {
    uint64_t last1;
    uint32_t pos, user;
} block_dist;
#define LEAF_BITS_TIMES 6
#define LEAF_BITS_DISTANCES 5

struct edan_reuse {
    bool distances;
    edan_blocktab tab; /* block -> block_times or block_dist */
    uint64_t now;      /* accesses so far */
    uint64_t blocks;   /* distinct blocks */

    /* The window (with distances): positions [0, wpos) used of wcap. */
    uint64_t *bits;   /* a bit per position: set where a block's latest access is */
    uint32_t *owner;  /* the table index (edan_blocktab_get_id) of the block whose access is at each set position */
    uint16_t *gcount; /* set bits per group */
    uint32_t *fw;     /* Fenwick tree over the completed groups (1-based, ngroups entries) */
    size_t wcap, wpos, ngroups;
    size_t min_window;
    /* the access, compiled for the CPU and the mode; *value receives the block's (NULL when out of memory) */
    uint64_t (*access)(edan_reuse *r, uint64_t b, uint64_t *distance, uint64_t *prev, block_dist **value);
};

#if defined(__x86_64__) && defined(__GNUC__)
static uint64_t access_popcnt(edan_reuse *r, uint64_t b, uint64_t *distance, uint64_t *prev, block_dist **value);
#endif
static uint64_t access_plain(edan_reuse *r, uint64_t b, uint64_t *distance, uint64_t *prev, block_dist **value);

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
            const uint32_t id = r->owner[x];
            owner[k] = id;
            ((block_dist *)edan_blocktab_at(&r->tab, id, sizeof(block_dist)))->pos = (uint32_t)k;
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
    if (edan_blocktab_init(&r->tab, distances ? LEAF_BITS_DISTANCES : LEAF_BITS_TIMES,
                           distances ? sizeof(block_dist) : sizeof(block_times))) {
        free(r);
        return NULL;
    }
    if (distances && !compact(r, w)) {
        edan_reuse_free(r);
        return NULL;
    }
    return r;
}

void edan_reuse_free(edan_reuse *r)
{
    if (!r)
        return;
    edan_blocktab_free(&r->tab);
    free(r->bits);
    free(r->owner);
    free(r->gcount);
    free(r->fw);
    free(r);
}

/* The access with distances; on failure nothing has changed. */
static inline __attribute__((always_inline)) uint64_t access_dist(edan_reuse *r, uint64_t b, uint64_t *distance,
                                                                  uint64_t *prev, block_dist **value)
{
    *value = NULL;
    /* room first (a compaction moves the block's position) */
    if (!window_room(r))
        return EDAN_REUSE_NOMEM;
    const size_t id = edan_blocktab_get_id(&r->tab, b, LEAF_BITS_DISTANCES);
    if (id > UINT32_MAX) /* out of memory, or past the 2^32 values a window's owner can name */
        return EDAN_REUSE_NOMEM;
    block_dist *e = edan_blocktab_at(&r->tab, id, sizeof *e);
    uint64_t rt = EDAN_REUSE_COLD;
    if (e->last1) {
        /* every set bit after the block's position is another block's later access */
        const size_t p = e->pos;
        *distance = r->blocks - prefix(r, p + 1);
        r->bits[p / 64] &= ~(1ull << (p % 64));
        r->gcount[p / GROUP_BITS]--;
        if (p / GROUP_BITS < r->wpos / GROUP_BITS)
            fw_add(r, p / GROUP_BITS, -1);
        rt = r->now - (e->last1 - 1);
        *prev = e->last1 - 1;
    } else {
        *distance = EDAN_REUSE_COLD;
        e->user = 0;
        r->blocks++;
    }
    const size_t q = r->wpos++;
    r->bits[q / 64] |= 1ull << (q % 64);
    r->gcount[q / GROUP_BITS]++;
    r->owner[q] = (uint32_t)id;
    e->pos = (uint32_t)q;
    if (r->wpos % GROUP_BITS == 0) /* its group is complete: into the Fenwick tree */
        fw_add(r, q / GROUP_BITS, r->gcount[q / GROUP_BITS]);
    e->last1 = ++r->now;
    *value = e;
    return rt;
}

/*
 * A distance counts set bits with popcounts, which x86-64's baseline lacks
 * (GCC then calls a library routine, a third of the time of an access):
 * the access is compiled twice and the one the CPU can run is chosen once.
 */
#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("popcnt"))) static uint64_t access_popcnt(edan_reuse *r, uint64_t b, uint64_t *distance,
                                                                uint64_t *prev, block_dist **value)
{
    return access_dist(r, b, distance, prev, value);
}
#endif

static uint64_t access_plain(edan_reuse *r, uint64_t b, uint64_t *distance, uint64_t *prev, block_dist **value)
{
    return access_dist(r, b, distance, prev, value);
}

uint64_t edan_reuse_access(edan_reuse *r, uint64_t b, uint64_t *distance, uint64_t *prev)
{
    if (r->distances) {
        block_dist *e;
        return r->access(r, b, distance, prev, &e);
    }
    /* reuse times alone, inline: an 8-byte value per block */
    block_times *e = edan_blocktab_get(&r->tab, b, LEAF_BITS_TIMES, sizeof *e);
    if (!e)
        return EDAN_REUSE_NOMEM;
    uint64_t rt = EDAN_REUSE_COLD;
    if (e->last1) {
        rt = r->now - (e->last1 - 1);
        *prev = e->last1 - 1;
    } else {
        r->blocks++;
    }
    e->last1 = ++r->now;
    return rt;
}

uint64_t edan_reuse_access_user(edan_reuse *r, uint64_t b, uint64_t *distance, uint64_t *prev, uint32_t **user)
{
    block_dist *e = NULL;
    const uint64_t rt = r->distances ? r->access(r, b, distance, prev, &e) : EDAN_REUSE_NOMEM;
    *user = e ? &e->user : NULL;
    return rt;
}

void edan_reuse_final(const edan_reuse *r, void (*fn)(void *ctx, uint64_t b, uint64_t f, uint32_t user), void *ctx)
{
    if (!r->distances)
        return;
    const size_t per_leaf = (size_t)1 << LEAF_BITS_DISTANCES;
    for (size_t i = 0; i < edan_blocktab_leaves(&r->tab); i++) {
        uint64_t first;
        const block_dist *leaf = edan_blocktab_leaf(&r->tab, i, &first);
        for (size_t k = 0; k < per_leaf; k++)
            if (leaf[k].last1) /* as for an access: every set bit after its position is another block since */
                fn(ctx, first + k, r->blocks - prefix(r, (size_t)leaf[k].pos + 1), leaf[k].user);
    }
}

void edan_reuse_prefetch(const edan_reuse *r, uint64_t b)
{
    if (r->distances)
        edan_blocktab_prefetch(&r->tab, b, LEAF_BITS_DISTANCES, sizeof(block_dist));
    else
        edan_blocktab_prefetch(&r->tab, b, LEAF_BITS_TIMES, sizeof(block_times));
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
    uint64_t n = edan_blocktab_bytes(&r->tab);
    if (r->distances)
        n += r->wcap / 8 + r->wcap * sizeof(uint32_t) + r->ngroups * (sizeof(uint16_t) + sizeof(uint32_t));
    return n;
}
