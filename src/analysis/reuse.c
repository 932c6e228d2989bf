/*
 * reuse.c - exact LRU stack distance and reuse time (see reuse.h for the
 * definitions and the invariant).
 */
#include "analysis/reuse.h"

#include <stdlib.h>
#include <string.h>

#include "util/bigmem.h"

#define GROUP_BITS 512u /* positions per counted group: 8 words of the bitmap */
#define GROUP_WORDS (GROUP_BITS / 64u)
#define MIN_WINDOW (1u << 16)
#define MIN_SLOTS 4096u

/*
 * One block, in a slot of slot_bytes: its key = block + 1 (0: an empty
 * slot), except the reserved slot for block UINT64_MAX (the slot after the
 * last), whose key is 1 once that block was accessed; then the index of its
 * latest access. With distances (24 bytes) also the position of its latest
 * access in the window and the caller's word (edan_reuse_access_user);
 * without (16 bytes, four to a cache line) only the key and the index.
 */
#define SLOT_KEY 0
#define SLOT_LAST 8
#define SLOT_POS 16
#define SLOT_USER 20
#define SLOT_BYTES_DISTANCES 24u
#define SLOT_BYTES_TIMES 16u

struct edan_reuse {
    bool distances;
    unsigned char *slots; /* cap + 1 slots of slot_bytes: the last one is block UINT64_MAX's */
    size_t slot_bytes;
    unsigned group;   /* log2 of the blocks that share consecutive slots (slot_of) */
    size_t cap, used; /* cap a power of two; used <= cap / 2 */
    uint64_t now;     /* accesses so far */
    uint64_t blocks;  /* distinct blocks */

    /* The window (with distances): positions [0, wpos) used of wcap. */
    uint64_t *bits;   /* a bit per position: set where a block's latest access is */
    uint32_t *owner;  /* the slot of the block whose access is at each set position */
    uint16_t *gcount; /* set bits per group */
    uint32_t *fw;     /* Fenwick tree over the completed groups (1-based, ngroups entries) */
    size_t wcap, wpos, ngroups;
    size_t min_window;
    /* the access, compiled for the CPU and the mode; *slot receives the block's slot (NULL when out of memory) */
    uint64_t (*access)(edan_reuse *r, uint64_t b, uint64_t *distance, uint64_t *prev, unsigned char **slot);
};

static inline unsigned char *slot_at(const edan_reuse *r, size_t j)
{
    return r->slots + j * r->slot_bytes;
}

static inline uint64_t *slot_u64(unsigned char *e, size_t off)
{
    return (uint64_t *)(void *)(e + off);
}

static inline uint32_t *slot_u32(unsigned char *e, size_t off)
{
    return (uint32_t *)(void *)(e + off);
}

static uint64_t access_times(edan_reuse *r, uint64_t b, uint64_t *distance, uint64_t *prev, unsigned char **slot);
static uint64_t access_plain(edan_reuse *r, uint64_t b, uint64_t *distance, uint64_t *prev, unsigned char **slot);
#if defined(__x86_64__) && defined(__GNUC__)
static uint64_t access_popcnt(edan_reuse *r, uint64_t b, uint64_t *distance, uint64_t *prev, unsigned char **slot);
#endif

/* ===================================================================== */
/* Hash table                                                             */
/* ===================================================================== */

/*
 * 2^group consecutive blocks share 2^group consecutive slots, so a
 * streaming access touches few cache lines: eight with distances (three
 * lines), two without (half a line). A larger group makes longer probes
 * where whole groups collide, past the two lines a hint prefetches, which
 * a random stream pays for: with 16-byte slots at a quarter full, groups
 * of eight leave 12.5 % of the probes of a random stream beyond those two
 * lines, of two 0.7 %, of one 0.1 % (but a sweep then touches a line per
 * access, not half of one).
 */
#define GROUP_DISTANCES 3
#define GROUP_TIMES 1
static inline size_t slot_of(uint64_t b, size_t mask, unsigned group)
{
    uint64_t h = (b >> group) * 0x9e3779b97f4a7c15ull;
    h ^= h >> 31;
    return (size_t)((h << group) | (b & ((1u << group) - 1))) & mask;
}

/* The table of cap slots: cap + 1 slots and a line that a prefetch past the last may reach. */
static size_t table_bytes(const edan_reuse *r, size_t cap)
{
    return (cap + 1) * r->slot_bytes + 64;
}

#define MOVE_AHEAD 16 /* old slots whose new homes are prefetched before the first of them is placed */

/* Old slot e into the new table s of cap slots, from its home slot; its window position follows it. */
static void place(edan_reuse *r, unsigned char *s, size_t cap, const unsigned char *e, size_t home)
{
    size_t j = home;
    while (*slot_u64(s + j * r->slot_bytes, SLOT_KEY))
        j = (j + 1) & (cap - 1);
    memcpy(s + j * r->slot_bytes, e, r->slot_bytes);
    if (r->distances)
        r->owner[*slot_u32((unsigned char *)e, SLOT_POS)] = (uint32_t)j;
}

/*
 * Twice the slots. The old slots are moved MOVE_AHEAD at a time, their new
 * homes (and window owners) prefetched first: each lands at random in a
 * table larger than the caches, so one at a time would wait for memory.
 */
static bool grow_slots(edan_reuse *r)
{
    const size_t cap = r->cap ? 2 * r->cap : MIN_SLOTS;
    unsigned char *s = edan_big_zalloc(table_bytes(r, cap));
    if (!s)
        return false;
    size_t idx[MOVE_AHEAD], home[MOVE_AHEAD], k = 0;
    for (size_t i = 0; r->slots && i <= r->cap; i++) {
        unsigned char *e = slot_at(r, i);
        const uint64_t key = *slot_u64(e, SLOT_KEY);
        if (i < r->cap && key) {
            idx[k] = i;
            home[k] = slot_of(key - 1, cap - 1, r->group);
            __builtin_prefetch(s + home[k] * r->slot_bytes, 1);
            if (r->distances)
                __builtin_prefetch(&r->owner[*slot_u32(e, SLOT_POS)], 1);
            k++;
        }
        if (k == MOVE_AHEAD || i == r->cap) {
            for (size_t m = 0; m < k; m++)
                place(r, s, cap, slot_at(r, idx[m]), home[m]);
            k = 0;
        }
        if (i == r->cap) { /* the reserved slot moves to the new end */
            memcpy(s + cap * r->slot_bytes, e, r->slot_bytes);
            if (r->distances && key)
                r->owner[*slot_u32(e, SLOT_POS)] = (uint32_t)cap;
        }
    }
    if (r->slots)
        edan_big_free(r->slots, table_bytes(r, r->cap));
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
            *slot_u32(slot_at(r, s), SLOT_POS) = (uint32_t)k;
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
    r->slot_bytes = distances ? SLOT_BYTES_DISTANCES : SLOT_BYTES_TIMES;
    r->group = distances ? GROUP_DISTANCES : GROUP_TIMES;
    r->access = distances ? access_plain : access_times;
#if defined(__x86_64__) && defined(__GNUC__)
    if (distances && __builtin_cpu_supports("popcnt"))
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
    edan_big_free(r->slots, table_bytes(r, r->cap));
    free(r->bits);
    free(r->owner);
    free(r->gcount);
    free(r->fw);
    free(r);
}

/* The access; distances is a constant in each copy, so the reuse-time copy carries none of the window. */
static inline __attribute__((always_inline)) uint64_t
access_body(edan_reuse *r, uint64_t b, uint64_t *distance, uint64_t *prev, unsigned char **slot, const bool distances)
{
    *slot = NULL;
    if (2 * (r->used + 1) > r->cap && !grow_slots(r))
        return EDAN_REUSE_NOMEM;
    size_t j;
    if (b == UINT64_MAX) {
        j = r->cap;
    } else {
        const uint64_t key = b + 1;
        j = slot_of(b, r->cap - 1, r->group);
        for (uint64_t k; (k = *slot_u64(slot_at(r, j), SLOT_KEY)) && k != key;)
            j = (j + 1) & (r->cap - 1);
    }
    unsigned char *e = slot_at(r, j);
    const bool seen = *slot_u64(e, SLOT_KEY) != 0; /* the reserved slot's key is 1 once used */
    uint64_t rt = EDAN_REUSE_COLD;
    if (distances) {
        /* room first (a compaction moves the block's position): on failure nothing has changed */
        if (!window_room(r))
            return EDAN_REUSE_NOMEM;
        if (seen) {
            /* every set bit after the block's position is another block's later access */
            const size_t p = *slot_u32(e, SLOT_POS);
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
        *slot_u32(e, SLOT_POS) = (uint32_t)q;
        if (r->wpos % GROUP_BITS == 0) /* its group is complete: into the Fenwick tree */
            fw_add(r, q / GROUP_BITS, r->gcount[q / GROUP_BITS]);
    }
    uint64_t *last = slot_u64(e, SLOT_LAST);
    if (seen) {
        rt = r->now - *last;
        *prev = *last;
    } else {
        *slot_u64(e, SLOT_KEY) = b == UINT64_MAX ? 1 : b + 1;
        r->used += b != UINT64_MAX;
        if (distances)
            *slot_u32(e, SLOT_USER) = 0;
        r->blocks++;
    }
    *last = r->now++;
    *slot = e;
    return rt;
}

static uint64_t access_times(edan_reuse *r, uint64_t b, uint64_t *distance, uint64_t *prev, unsigned char **slot)
{
    return access_body(r, b, distance, prev, slot, false);
}

/*
 * A distance counts set bits with popcounts, which x86-64's baseline lacks
 * (GCC then calls a library routine, a third of the time of an access):
 * the access is compiled twice and the one the CPU can run is chosen once.
 */
#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("popcnt"))) static uint64_t access_popcnt(edan_reuse *r, uint64_t b, uint64_t *distance,
                                                                uint64_t *prev, unsigned char **slot)
{
    return access_body(r, b, distance, prev, slot, true);
}
#endif

static uint64_t access_plain(edan_reuse *r, uint64_t b, uint64_t *distance, uint64_t *prev, unsigned char **slot)
{
    return access_body(r, b, distance, prev, slot, true);
}

uint64_t edan_reuse_access(edan_reuse *r, uint64_t b, uint64_t *distance, uint64_t *prev)
{
    unsigned char *slot;
    if (!r->distances) /* the reuse-time copy inline: no call through the pointer */
        return access_body(r, b, distance, prev, &slot, false);
    return r->access(r, b, distance, prev, &slot);
}

uint64_t edan_reuse_access_user(edan_reuse *r, uint64_t b, uint64_t *distance, uint64_t *prev, uint32_t **user)
{
    unsigned char *slot;
    const uint64_t rt = r->distances ? r->access(r, b, distance, prev, &slot) : EDAN_REUSE_NOMEM;
    *user = r->distances && slot ? slot_u32(slot, SLOT_USER) : NULL;
    return rt;
}

void edan_reuse_final(const edan_reuse *r, void (*fn)(void *ctx, uint64_t b, uint64_t f, uint32_t user), void *ctx)
{
    if (!r->distances)
        return;
    for (size_t i = 0; i <= r->cap; i++) {
        unsigned char *e = slot_at(r, i);
        const uint64_t key = *slot_u64(e, SLOT_KEY);
        if (!key)
            continue;
        /* as for an access: every set bit after the block's position is another block accessed since */
        fn(ctx, i == r->cap ? UINT64_MAX : key - 1, r->blocks - prefix(r, (size_t)*slot_u32(e, SLOT_POS) + 1),
           *slot_u32(e, SLOT_USER));
    }
}

/* The block's home slot's cache line, and the next one, where a probe or a slot across two lines goes on. */
void edan_reuse_prefetch(const edan_reuse *r, uint64_t b)
{
    const unsigned char *e = slot_at(r, slot_of(b, r->cap - 1, r->group));
    __builtin_prefetch(e, 1);
    __builtin_prefetch(e + 64, 1);
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
    uint64_t n = (uint64_t)(r->cap + 1) * r->slot_bytes;
    if (r->distances)
        n += r->wcap / 8 + r->wcap * sizeof(uint32_t) + r->ngroups * (sizeof(uint16_t) + sizeof(uint32_t));
    return n;
}
