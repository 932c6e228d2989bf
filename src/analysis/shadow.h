/*
 * shadow.h - shadow memory: for every guest byte and every lane, the state
 * of the last store to it (finish time F and memory depth md) and, when false
 * dependencies are kept, of the reads since then (rF, rmd).
 *
 * Layout: a two-level table over 4 KiB guest pages. Level 1 is indexed by
 * addr >> 28 (48-bit user addresses; anything higher goes to a small
 * overflow map), level 2 by the page within its 256 MiB region. A page is
 * an array of 4-byte units; a unit's record holds its state in every lane:
 * F[n_lanes], then (with readers) rF[n_lanes], then md[n_lanes] and (with
 * readers) rmd[n_lanes], padded to 8 bytes (edan_shadow_unit_bytes()). So
 * the lanes of one unit share a cache line and a sweep over configurations
 * updates them together, and one lane's F and md share a line: an access
 * to memory the host cache does not hold misses once, not once per array
 * (the irregular accesses of hydro and the pointer chase wait on these
 * misses). Almost every access is an aligned 4- or 8-byte access, so one
 * state describes all four bytes of a unit and one lane costs 4 bytes per
 * guest byte instead of 12.
 *
 * One lane without readers starts narrow: a unit's record is then 8 bytes,
 * F in 32 bits and md (with the split flag) in 32, so the shadow costs 2
 * bytes per guest byte, not 4. It stays narrow while every F fits in 32
 * bits; the owner calls edan_shadow_widen() before it could store a larger
 * one (edag.c does at the start of a batch, from a bound on the batch's F),
 * which rewrites every page in the wide layout above: F in 64 bits, md in
 * 32, padded to 16 bytes. The accessors below take the layout (narrow) as
 * a parameter, a constant in the hot loops.
 *
 * A narrow shadow makes a page sparse when first written: an open-addressed
 * table of the records of the units written so far (edan_shadow_sparse),
 * grown by doubling and made a full page (8 KiB) when it would hold more
 * than EDAN_SHADOW_SPARSE_MAX units. A program that writes a few words per
 * page (strided, scattered: a hash table, a graph, a sparse matrix's
 * scatter) then costs about 10 bytes per 4-byte unit it wrote, not 8 KiB
 * per page. A sparse page's pointer is tagged (its low bit set) in the page
 * table and the recently used pages; the short paths of the analyzer take
 * only full pages and hand sparse ones to the general path, which finds a
 * unit's record with edan_shadow_unit_find(). A lookup for writing leaves
 * room for three new units (the most one access writes), so records found
 * for one access stay where they are until it is done. Widening makes every
 * page full (wide records are never sparse).
 *
 * A store that covers only part of a unit "splits" it, in every lane at
 * once (which bytes a store covers does not depend on the lane): lane 0's md
 * gets EDAN_SHADOW_SPLIT and lane 0's F holds the index of a split record,
 * n_lanes per-byte states. A store covering the whole unit joins it again.
 * Byte-granular semantics are therefore exact.
 *
 * All-zero means "never written": F = 0 and md = 0 are the identities of the
 * max() the analyzer takes, so reading unwritten memory adds no dependency.
 * Pages come from large mmap'd chunks, which the kernel hands out zeroed.
 * Recently used pages are cached: kernels stream through a few arrays.
 *
 * A page is made only when first written. Until then reads find zero_page,
 * one read-only page of zeros for all of them: data set up before the traced
 * region (a pointer chase's list, a solver's matrix) is read through a
 * handful of host pages that stay in the TLB and the cache, not through one
 * zero-filled mapping per page, each a TLB miss. So the read and write
 * lookups differ: edan_shadow_page_for() returns zero_page for a read of
 * such a page, never for a write.
 */
#ifndef EDAN_ANALYSIS_SHADOW_H
#define EDAN_ANALYSIS_SHADOW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define EDAN_SHADOW_PAGE_BITS 12
#define EDAN_SHADOW_PAGE (1u << EDAN_SHADOW_PAGE_BITS)
#define EDAN_SHADOW_UNIT_BITS 2
#define EDAN_SHADOW_UNIT (1u << EDAN_SHADOW_UNIT_BITS)
#define EDAN_SHADOW_UNITS (EDAN_SHADOW_PAGE >> EDAN_SHADOW_UNIT_BITS)
#define EDAN_SHADOW_L2_BITS 16
#define EDAN_SHADOW_L1_BITS 20
#define EDAN_SHADOW_SPLIT 0x80000000u
#define EDAN_SHADOW_RECENT_BITS 12
#define EDAN_SHADOW_RECENT (1 << EDAN_SHADOW_RECENT_BITS)
/* md values must stay below the split flag. */
#define EDAN_SHADOW_MAX_MD 0x7fffffffu

/* Per-byte state of a split unit. */
typedef struct edan_shadow_split {
    uint64_t F[EDAN_SHADOW_UNIT];
    uint64_t rF[EDAN_SHADOW_UNIT];
    uint32_t md[EDAN_SHADOW_UNIT];
    uint32_t rmd[EDAN_SHADOW_UNIT];
} edan_shadow_split;

/* A page: EDAN_SHADOW_UNITS unit records and nothing else (no header to load before the state). */
typedef struct edan_shadow_page edan_shadow_page;

/*
 * A sparse page (above): mask + 1 slots (a power of two), each a narrow
 * record (uint64_t rec[mask + 1] after the header) and its unit + 1
 * (uint16_t key[mask + 1] after the records; 0: empty). At most 3/4 full.
 */
typedef struct edan_shadow_sparse {
    uint32_t count, mask;
    uint32_t lookups; /* by edan_shadow_page_for(): a hot page is made full */
    uint32_t pad;     /* the records stay 8-byte aligned */
} edan_shadow_sparse;
#define EDAN_SHADOW_SPARSE_MIN 4   /* slots of a new sparse page */
#define EDAN_SHADOW_SPARSE_MAX 192 /* units a sparse page holds at most (256 slots, 2.5 KiB); then it is full */
/*
 * Lookups after which a sparse page is made full: its accesses then take
 * the analyzer's short paths (a hot stack frame or a small global array
 * writes few units but is accessed all the time). A full page costs 8 KiB,
 * so pages made full this way cost at most 0.5 bytes per access.
 */
#define EDAN_SHADOW_SPARSE_HOT 16384

static inline bool edan_shadow_is_sparse(const edan_shadow_page *pg)
{
    return (uintptr_t)pg & 1;
}
static inline edan_shadow_sparse *edan_shadow_sparse_of(const edan_shadow_page *pg)
{
    return (edan_shadow_sparse *)((uintptr_t)pg & ~(uintptr_t)1);
}
static inline uint64_t *edan_shadow_sparse_recs(edan_shadow_sparse *sp)
{
    return (uint64_t *)(sp + 1);
}
static inline uint16_t *edan_shadow_sparse_keys(edan_shadow_sparse *sp)
{
    return (uint16_t *)(edan_shadow_sparse_recs(sp) + sp->mask + 1);
}
/*
 * Whether a lookup may take sp as it is: not yet hot (fewer than hot
 * lookups, counting this one) and, for_write, room for three units.
 */
static inline bool edan_shadow_sparse_take(edan_shadow_sparse *sp, uint32_t hot, bool for_write)
{
    return ++sp->lookups < hot && (!for_write || (sp->count + 3) * 4 <= (sp->mask + 1) * 3);
}
/* Whether n more units fit without growing. */
static inline bool edan_shadow_sparse_room(const edan_shadow_sparse *sp, uint32_t n)
{
    return (sp->count + n) * 4 <= (sp->mask + 1) * 3;
}
static inline uint32_t edan_shadow_sparse_slot(uint32_t u, uint32_t mask)
{
    return (u * 0x9E3779B1u >> 16) & mask;
}

/* The largest F a narrow record holds. */
#define EDAN_SHADOW_NARROW_MAX_F UINT32_MAX

/*
 * Bytes of one unit's record, with n_lanes lanes and with or without
 * readers' state; narrow (one lane, no readers): 8.
 */
static inline size_t edan_shadow_unit_bytes(int n_lanes, bool with_readers, bool narrow)
{
    size_t k = (size_t)n_lanes;
    return narrow ? 8 : with_readers ? 24 * k : 8 * k + ((4 * k + 7) & ~(size_t)7);
}

/* The record of unit u; its F[k] at byte 0, the rest at the offsets below. */
static inline char *edan_shadow_unit(const edan_shadow_page *pg, int n_lanes, bool with_readers, bool narrow,
                                     uint32_t u)
{
    return (char *)pg + (size_t)u * edan_shadow_unit_bytes(n_lanes, with_readers, narrow);
}
/* F[0..n_lanes) of a wide record, for loops over lanes. */
static inline uint64_t *edan_shadow_unit_F(char *unit)
{
    return (uint64_t *)unit;
}
/* F[k] of a record of either layout, and its update. */
static inline uint64_t edan_shadow_F_get(const char *unit, int k, bool narrow)
{
    return narrow ? *(const uint32_t *)unit : ((const uint64_t *)unit)[k];
}
static inline void edan_shadow_F_set(char *unit, int k, bool narrow, uint64_t F)
{
    if (narrow)
        *(uint32_t *)unit = (uint32_t)F;
    else
        ((uint64_t *)unit)[k] = F;
}
static inline uint64_t *edan_shadow_unit_rF(char *unit, int n_lanes)
{
    return (uint64_t *)unit + n_lanes;
}
static inline uint32_t *edan_shadow_unit_md(char *unit, int n_lanes, bool with_readers, bool narrow)
{
    return (uint32_t *)(unit + (narrow ? 4 : (with_readers ? 16 : 8) * (size_t)n_lanes));
}
static inline uint32_t *edan_shadow_unit_rmd(char *unit, int n_lanes)
{
    return (uint32_t *)(unit + 20 * (size_t)n_lanes);
}

/*
 * The record of unit u of page pg in any layout: on a sparse page, its
 * slot's record, made (zero: never written) if absent and insert, else
 * zero_rec when absent (all zero, never written to).
 */
static inline char *edan_shadow_unit_find(edan_shadow_page *pg, int n_lanes, bool with_readers, bool narrow, uint32_t u,
                                          bool insert, char *zero_rec)
{
    if (!narrow || !edan_shadow_is_sparse(pg))
        return edan_shadow_unit(pg, n_lanes, with_readers, narrow, u);
    edan_shadow_sparse *sp = edan_shadow_sparse_of(pg);
    uint16_t *key = edan_shadow_sparse_keys(sp);
    uint32_t i = edan_shadow_sparse_slot(u, sp->mask);
    while (key[i] && key[i] != u + 1)
        i = (i + 1) & sp->mask;
    if (!key[i]) {
        if (!insert)
            return zero_rec;
        key[i] = (uint16_t)(u + 1); /* a lookup for writing left room (edan_shadow_page_for()) */
        edan_shadow_sparse_recs(sp)[i] = 0;
        sp->count++;
    }
    return (char *)&edan_shadow_sparse_recs(sp)[i];
}

typedef struct edan_shadow_overflow {
    uint64_t key; /* region + 1, so 0 means empty */
    edan_shadow_page **l2;
} edan_shadow_overflow;

/* The pool of split records (n_lanes edan_shadow_split each), with a free list threaded through F[0]. */
typedef struct edan_shadow_pool {
    edan_shadow_split **chunks;
    size_t n_chunks, used, free_head; /* free_head: index + 1, 0 = empty */
} edan_shadow_pool;

typedef struct edan_shadow {
    edan_shadow_page ***l1;
    edan_shadow_overflow *ovf;
    size_t ovf_cap, ovf_used;
    int n_lanes;
    bool with_readers;
    bool narrow;         /* the 8-byte layout of one lane (above) */
    uint32_t sparse_hot; /* EDAN_SHADOW_SPARSE_HOT; tests make it smaller */
    size_t page_bytes;
    size_t unit_bytes; /* edan_shadow_unit_bytes(n_lanes, with_readers, narrow) */
    uint64_t last_page_no;
    edan_shadow_page *last_page;
    /*
     * Recently used pages, direct-mapped with a multiplicative hash, number
     * and pointer side by side so a lookup reads one line. 4096 entries
     * (64 KiB, 16 MiB of guest memory) hold the working set of pages of the
     * bundled benchmarks, the pointer chase's 8 MiB list included: with 1024
     * entries half of the chase's lookups missed and took the general path
     * (136 -> 120 instructions per record, docs/benchmarks.md), and a
     * smaller table (or a xor hash, which mapped stream's three arrays onto
     * the same slots) missed on up to a quarter of the lookups of the others.
     */
    struct {
        uint64_t no;
        edan_shadow_page *page;
    } recent[EDAN_SHADOW_RECENT];
    uint64_t pages;
    uint64_t sparse_pages; /* of pages */
    /*
     * Lookups that went past the recently used pages to a written page: the
     * analyzer prefetches shadow state when they are frequent. Misses that
     * find zero_page do not count (prefetching it gains nothing: it is one
     * page, always cached), so a pointer chase over data written before the
     * traced region does not pay for the look-ahead.
     */
    uint64_t recent_misses;
    /*
     * Sparse pages come from slabs of their own (shadow.c), a free list per
     * size (4 to 256 slots), so they cost no allocator header and freeing
     * the shadow needs no walk over its pages.
     */
    void *slab_free[7];
    char *slab_bump;
    size_t slab_left;
    char **slabs;
    size_t n_slabs;
    /* page arena */
    char *arena;
    size_t arena_left;
    char **arenas;
    size_t n_arenas;
    edan_shadow_pool pool;
    bool out_of_memory;
    edan_shadow_page *zero_page; /* mapped read-only */
} edan_shadow;

/* Narrow when n_lanes is 1 without readers: its owner then widens it in time (above). */
int edan_shadow_init(edan_shadow *s, int n_lanes, bool with_readers);
/*
 * Rewrites every page in the wide layout (nothing to do if already wide):
 * page pointers taken before are stale after. Returns 0, or -1 when out of
 * memory (the shadow is then unchanged).
 */
int edan_shadow_widen(edan_shadow *s);
/*
 * The same paged table for a client with records of its own layout (deps.h):
 * every unit's record is unit_bytes (a positive multiple of 8), all-zero
 * until written, read through zero_page until its page is first written.
 * The unit accessors above and the split records are the analyzer's and do
 * not apply (n_lanes is 0); edan_shadow_page_for() and the page count do.
 */
int edan_shadow_init_records(edan_shadow *s, size_t unit_bytes);
void edan_shadow_free(edan_shadow *s);

/*
 * The page of page_no, made if absent (for_write: sparse if narrow, grown
 * or made full when it has no room for three more units) or else zero_page
 * if absent; NULL when out of memory.
 */
edan_shadow_page *edan_shadow_page_slow(edan_shadow *s, uint64_t page_no, bool for_write);

static inline unsigned edan_shadow_recent_slot(uint64_t page_no)
{
    return (unsigned)((page_no * 0x9E3779B97F4A7C15ull) >> (64 - EDAN_SHADOW_RECENT_BITS));
}

/*
 * The page of addr when it is among the recently used (as
 * edan_shadow_page_for() would find it for a read, so maybe zero_page), else NULL.
 */
static inline edan_shadow_page *edan_shadow_recent_page(edan_shadow *s, uint64_t addr)
{
    uint64_t page_no = addr >> EDAN_SHADOW_PAGE_BITS;
    if (page_no == s->last_page_no)
        return s->last_page;
    unsigned slot = edan_shadow_recent_slot(page_no);
    if (s->recent[slot].no != page_no)
        return NULL;
    s->last_page_no = page_no;
    s->last_page = s->recent[slot].page;
    return s->last_page;
}

/*
 * The page of addr to read from (maybe zero_page, maybe sparse) or,
 * for_write, to write to (a sparse one with room for three more units); a
 * sparse page that becomes hot is made full first. NULL when out of memory.
 */
static inline edan_shadow_page *edan_shadow_page_for(edan_shadow *s, uint64_t addr, const bool for_write)
{
    edan_shadow_page *p = edan_shadow_recent_page(s, addr);
    if (p && (edan_shadow_is_sparse(p) ? edan_shadow_sparse_take(edan_shadow_sparse_of(p), s->sparse_hot, for_write)
                                       : !for_write || p != s->zero_page))
        return p;
    uint64_t page_no = addr >> EDAN_SHADOW_PAGE_BITS;
    p = edan_shadow_page_slow(s, page_no, for_write);
    if (!p)
        return NULL;
    unsigned slot = edan_shadow_recent_slot(page_no);
    s->recent[slot].no = page_no;
    s->recent[slot].page = p;
    s->last_page_no = page_no;
    s->last_page = p;
    return p;
}

/*
 * Prefetching: the analyzer knows the addresses of the records ahead of the
 * one it works on, and the shadow of irregular accesses (gathers, pointer
 * chases) misses in every cache level. edan_shadow_prefetch_state() finds
 * the page through the two-level table (plain loads: the level-1 entry and
 * the level-2 slot) and prefetches the unit's record (with several lanes
 * its last byte too: the record may span two lines). It allocates nothing
 * and changes no state; a page not yet made is simply not prefetched.
 *
 * always_inline is needed, not a hint: GCC 12 deems a function whose only
 * effect is a prefetch free of side effects and deletes calls to it before
 * it would inline them (the build then has no prefetch instruction at all).
 */
static inline __attribute__((always_inline)) void edan_shadow_prefetch_state(const edan_shadow *s, uint64_t addr)
{
    uint64_t page_no = addr >> EDAN_SHADOW_PAGE_BITS;
    uint64_t region = page_no >> EDAN_SHADOW_L2_BITS;
    if (region >= (1u << EDAN_SHADOW_L1_BITS) || !s->l1[region])
        return;
    const char *pg = (const char *)s->l1[region][page_no & ((1u << EDAN_SHADOW_L2_BITS) - 1)];
    if (!pg || edan_shadow_is_sparse((const edan_shadow_page *)pg))
        return;
    const char *unit = pg + ((addr & (EDAN_SHADOW_PAGE - 1)) >> EDAN_SHADOW_UNIT_BITS) * s->unit_bytes;
    __builtin_prefetch(unit, 1);
    if (s->unit_bytes > 16) /* a one-lane record (16 bytes, 16-aligned) never spans two lines */
        __builtin_prefetch(unit + s->unit_bytes - 1, 1);
}

/*
 * Split records (n_lanes per-lane states each): allocation may fail (returns
 * UINT64_MAX), also when a narrow record could not hold the index.
 */
uint64_t edan_shadow_split_alloc(edan_shadow *s);
void edan_shadow_split_release(edan_shadow *s, uint64_t index);
static inline edan_shadow_split *edan_shadow_split_get(edan_shadow *s, uint64_t index)
{
    return &s->pool.chunks[index >> 10][(index & 1023) * (uint64_t)s->n_lanes];
}

#endif
