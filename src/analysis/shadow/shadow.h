/*
 * shadow.h - shadow memory: for every guest byte and every lane, the state
 * of the last store to it (finish time F and memory depth md) and, when false
 * dependencies are kept, of the reads since then (rF, rmd).
 *
 * Layout: a two-level table over 4 KiB guest pages. Level 1 is indexed by
 * addr >> 28 (48-bit user addresses; anything higher goes to a small
 * overflow map), level 2 by the page within its 256 MiB region; a level-2
 * slot holds the page's handle (below). A full page is an array of 4-byte
 * units; a unit's record holds its state in every lane: F[n_lanes], then
 * (with readers) rF[n_lanes], then md[n_lanes] and (with readers)
 * rmd[n_lanes], padded to 8 bytes (edan_shadow_unit_bytes()). So the lanes
 * of one unit share a cache line and a sweep over configurations updates
 * them together, and one lane's F and md share a line: an access to memory
 * the host cache does not hold misses once, not once per array (the
 * irregular accesses of hydro and the pointer chase wait on these misses).
 * Almost every access is an aligned 4- or 8-byte access, so one state
 * describes all four bytes of a unit and one lane costs 4 bytes per guest
 * byte instead of 12.
 *
 * One lane without readers starts narrow: a record is then 8 bytes, F in
 * 32 bits and md (with the split flag) in 32. It stays narrow while every F
 * fits in 32 bits; the owner calls edan_shadow_widen() before it could
 * store a larger one (edag.c does at the start of a batch, from a bound on
 * the batch's F), which rewrites every page as a full page in the wide
 * layout above: F in 64 bits, md in 32, padded to 16 bytes. The accessors
 * below take the layout (narrow) as a parameter, a constant in the hot loops.
 * They read and write a record's bytes through edan_u32a and edan_u64a
 * (util/alias.h), which alias any object: the same bytes are accessed as
 * both (a narrow record's F and md as 32-bit words, a sparse page's entry
 * as one 64-bit word), which C's effective-type rules leave undefined and
 * GCC miscompiled. Pointers into records keep these types.
 *
 * A narrow shadow's cost follows the bytes written, not the pages spanned
 * (issue 25). Its pages are of four kinds, told by the low two bits of the
 * handle (EDAN_SHADOW_TAG_*; pointers are 8-byte aligned):
 *  - a full page of units (tag 0): 1024 records, 8 KiB;
 *  - a full page of words (tag 2): 512 records, 4 KiB, one per 8-byte word,
 *    whose two units share it. Such a page takes only stores of whole words
 *    (8 bytes at a multiple of 8); any other store first makes it a page of
 *    units (each word's record copied to its two units);
 *  - a sparse page (tag 1, edan_shadow_sparse): a sorted table of the
 *    entries written so far, each a word's record or a unit's, 10 bytes
 *    each; it grows through size classes about 1.25x apart and becomes a
 *    full page (of words when every entry is a word's) when it would need
 *    more than EDAN_SHADOW_SPARSE_MAX entries or after sparse_hot lookups
 *    (a hot page: its accesses then take the analyzer's short paths);
 *  - an inline page (tag 3): the page's one written word, packed with its
 *    state into the level-2 slot itself (edan_shadow_inline_pack()): a word
 *    alone in its page costs the 8 bytes of its slot and nothing else. It
 *    holds md below 2^21 (EDAN_SHADOW_INLINE_MAX_MD); the owner calls
 *    edan_shadow_inline_end() before a batch whose md could pass it (edag.c,
 *    from the lane's memory depth), which makes every inline page sparse.
 *    Any store but one of its whole word makes the page sparse, and so does
 *    every inline_hot-th lookup of an inline page (a hot one then becomes a
 *    full page as a sparse one does). Its handle, which the lookups return,
 *    is the slot's address tagged 3.
 * The short paths of the analyzer take only full pages (untagged or tag 2,
 * edan_shadow_is_fixed()) and hand sparse and inline ones to the general
 * path, which finds a unit's record with edan_shadow_unit_find() and stores
 * whole words with edan_shadow_word_store(). A lookup (edan_shadow_page_access())
 * is told the bytes of the access, and for a store it remakes the page
 * first so the page takes the store as it is: a sparse page with room for
 * its entries (one for a whole word, else one per unit it touches), a page
 * of words or an inline page only for a whole word, its own for an inline
 * one. So records found for one access stay where they are until it is
 * done, and no store allocates.
 *
 * A store that covers only part of a unit "splits" it, in every lane at
 * once (which bytes a store covers does not depend on the lane): lane 0's md
 * gets EDAN_SHADOW_SPLIT and lane 0's F holds the index of a split record,
 * n_lanes per-byte states. A store covering the whole unit joins it again.
 * Only units' records split (never a word's: a partial store makes unit
 * entries or a page of units first). Byte-granular semantics are therefore
 * exact.
 *
 * All-zero means "never written": F = 0 and md = 0 are the identities of the
 * max() the analyzer takes, so reading unwritten memory adds no dependency.
 * Pages come from large mmap'd chunks, which the kernel hands out zeroed.
 * Recently used pages are cached: kernels stream through a few arrays.
 *
 * A page is made only when first written. Until then reads find zero_page,
 * one read-only page of zeros (of units) for all of them: data set up
 * before the traced region (a pointer chase's list, a solver's matrix) is
 * read through a handful of host pages that stay in the TLB and the cache,
 * not through one zero-filled mapping per page, each a TLB miss. So the
 * read and write lookups differ: a lookup returns zero_page for a read of
 * such a page, never for a write.
 */
#ifndef EDAN_ANALYSIS_SHADOW_H
#define EDAN_ANALYSIS_SHADOW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/alias.h"

#define EDAN_SHADOW_PAGE_BITS 12
#define EDAN_SHADOW_PAGE (1u << EDAN_SHADOW_PAGE_BITS)
#define EDAN_SHADOW_UNIT_BITS 2
#define EDAN_SHADOW_UNIT (1u << EDAN_SHADOW_UNIT_BITS)
#define EDAN_SHADOW_UNITS (EDAN_SHADOW_PAGE >> EDAN_SHADOW_UNIT_BITS)
#define EDAN_SHADOW_WORDS (EDAN_SHADOW_UNITS / 2)
#define EDAN_SHADOW_L2_BITS 16
#define EDAN_SHADOW_L1_BITS 20
#define EDAN_SHADOW_SPLIT 0x80000000u
#define EDAN_SHADOW_RECENT_BITS 12
#define EDAN_SHADOW_RECENT (1 << EDAN_SHADOW_RECENT_BITS)
/* md values must stay below the split flag. */
#define EDAN_SHADOW_MAX_MD 0x7fffffffu

/* Handles: the kind of a narrow page in the low bits of its level-2 slot and of what the lookups return. */
#define EDAN_SHADOW_TAG_SPARSE 1u
#define EDAN_SHADOW_TAG_WORDS 2u
#define EDAN_SHADOW_TAG_INLINE 3u
#define EDAN_SHADOW_TAG_MASK 3u

/* Per-byte state of a split unit. */
typedef struct edan_shadow_split {
    uint64_t F[EDAN_SHADOW_UNIT];
    uint64_t rF[EDAN_SHADOW_UNIT];
    uint32_t md[EDAN_SHADOW_UNIT];
    uint32_t rmd[EDAN_SHADOW_UNIT];
} edan_shadow_split;

/* A full page: its records and nothing else (no header to load before the state). */
typedef struct edan_shadow_page edan_shadow_page;

/*
 * A sparse page (above): cap entries, count of them used, sorted by key:
 * the records (uint64_t rec[cap], narrow) after the header, then the keys
 * (uint16_t key[cap]). A word w's entry has key 4w + 1 and covers its two
 * units; unit u's has key 2u. A word has either one entry of its own, or
 * one for each of its units written, or none.
 */
typedef struct edan_shadow_sparse {
    uint16_t count, cap;
    uint32_t lookups; /* by the page lookups: a hot page is made full */
} edan_shadow_sparse;
/* Entries a sparse page holds at most (2.5 KiB); then it is full. */
#define EDAN_SHADOW_SPARSE_MAX 256
/* Its size classes (slots), about 1.25x apart: a page's slack is a fraction of its entries. */
#define EDAN_SHADOW_SPARSE_CLASSES 20
/*
 * Lookups after which a sparse page is made full: its accesses then take
 * the analyzer's short paths (a hot stack frame or a small global array
 * writes few units but is accessed all the time). A full page costs 4 or
 * 8 KiB, so pages made full this way cost at most 2 bytes per access.
 * (With 16384, cg's small vectors, sparse pages of words, took the general
 * path for a quarter of their accesses: 2.7% more instructions than with
 * pages made full at 192 units; with 4096, 1.9%.)
 */
#define EDAN_SHADOW_SPARSE_HOT 4096
/*
 * Every this many lookups of inline pages, the one looked up is made
 * sparse: a hot one is soon among them (and then counts its lookups as a
 * sparse page does), while a footprint of many single words pays for a
 * few hundredths of them.
 */
#define EDAN_SHADOW_INLINE_HOT 1024
/* The largest md an inline page holds (21 bits: the slot also holds F, the word and the tag). */
#define EDAN_SHADOW_INLINE_MAX_MD ((1u << 21) - 1)

static inline unsigned edan_shadow_tag(const edan_shadow_page *pg)
{
    return (unsigned)((uintptr_t)pg & EDAN_SHADOW_TAG_MASK);
}
/* Whether pg's records are at fixed places: a full page (of units or of words) or the zero page. */
static inline bool edan_shadow_is_fixed(const edan_shadow_page *pg)
{
    return !((uintptr_t)pg & 1);
}
static inline edan_shadow_sparse *edan_shadow_sparse_of(const edan_shadow_page *pg)
{
    return (edan_shadow_sparse *)((uintptr_t)pg & ~(uintptr_t)EDAN_SHADOW_TAG_MASK);
}
static inline edan_u64a *edan_shadow_sparse_recs(edan_shadow_sparse *sp)
{
    return (edan_u64a *)(sp + 1);
}
static inline edan_u16a *edan_shadow_sparse_keys(edan_shadow_sparse *sp)
{
    return (edan_u16a *)(edan_shadow_sparse_recs(sp) + sp->cap);
}
/* The level-2 slot of an inline page's handle. */
static inline uintptr_t *edan_shadow_inline_slot(const edan_shadow_page *pg)
{
    return (uintptr_t *)((uintptr_t)pg & ~(uintptr_t)EDAN_SHADOW_TAG_MASK);
}
/* An inline page's slot: the tag, word w (9 bits), md (21 bits), F (32 bits). */
static inline uintptr_t edan_shadow_inline_pack(uint32_t w, uint64_t F, uint64_t md)
{
    return EDAN_SHADOW_TAG_INLINE | (uintptr_t)w << 2 | (uintptr_t)md << 11 | (uintptr_t)F << 32;
}
static inline uint32_t edan_shadow_inline_word(uintptr_t v)
{
    return (uint32_t)(v >> 2) & (EDAN_SHADOW_WORDS - 1);
}
/* Its state as a narrow record (F, then md). */
static inline void edan_shadow_inline_rec(uintptr_t v, char *rec)
{
    ((edan_u32a *)rec)[0] = (uint32_t)(v >> 32);
    ((edan_u32a *)rec)[1] = (uint32_t)(v >> 11) & EDAN_SHADOW_INLINE_MAX_MD;
}

/* Whether an access of len bytes at page offset off covers exactly one whole 8-byte word. */
static inline bool edan_shadow_whole_word(uint32_t off, uint32_t len)
{
    return len == 8 && !(off & 7);
}
/*
 * Entries a store of len bytes at off may add to a sparse page: one for a
 * whole word, else one per unit it touches (a word's entry split into its
 * units adds one).
 */
static inline uint32_t edan_shadow_store_room(uint32_t off, uint32_t len)
{
    return edan_shadow_whole_word(off, len)
               ? 1
               : ((off + len - 1) >> EDAN_SHADOW_UNIT_BITS) - (off >> EDAN_SHADOW_UNIT_BITS) + 1;
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

/* The record of unit u of a full page of units; its F[k] at byte 0, the rest at the offsets below. */
static inline char *edan_shadow_unit(const edan_shadow_page *pg, int n_lanes, bool with_readers, bool narrow,
                                     uint32_t u)
{
    return (char *)pg + (size_t)u * edan_shadow_unit_bytes(n_lanes, with_readers, narrow);
}
/* F[0..n_lanes) of a wide record, for loops over lanes. */
static inline edan_u64a *edan_shadow_unit_F(char *unit)
{
    return (edan_u64a *)unit;
}
/* F[k] of a record of either layout, and its update. */
static inline uint64_t edan_shadow_F_get(const char *unit, int k, bool narrow)
{
    return narrow ? *(const edan_u32a *)unit : ((const edan_u64a *)unit)[k];
}
static inline void edan_shadow_F_set(char *unit, int k, bool narrow, uint64_t F)
{
    if (narrow)
        *(edan_u32a *)unit = (uint32_t)F;
    else
        ((edan_u64a *)unit)[k] = F;
}
static inline edan_u64a *edan_shadow_unit_rF(char *unit, int n_lanes)
{
    return (edan_u64a *)unit + n_lanes;
}
static inline edan_u32a *edan_shadow_unit_md(char *unit, int n_lanes, bool with_readers, bool narrow)
{
    return (edan_u32a *)(unit + (narrow ? 4 : (with_readers ? 16 : 8) * (size_t)n_lanes));
}
static inline edan_u32a *edan_shadow_unit_rmd(char *unit, int n_lanes)
{
    return (edan_u32a *)(unit + 20 * (size_t)n_lanes);
}

/* A sparse page's record of unit u (its word's or its own), NULL if absent. */
char *edan_shadow_sparse_find(edan_shadow_sparse *sp, uint32_t u);
/*
 * For a store to (part of) unit u of a sparse page: unit u's own entry,
 * made (zero: never written) if absent, its word's entry split into the
 * two units' first. The page's lookup left room for it.
 */
char *edan_shadow_sparse_unit(edan_shadow_sparse *sp, uint32_t u);

/*
 * The record of unit u of page pg in any layout. On a page of words its
 * word's; on a sparse page, with insert (for a store to part or all of the
 * unit) its own entry made if absent (edan_shadow_sparse_unit()), without
 * it its word's or its own, or scratch zeroed when absent (never written);
 * on an inline page (reads only) its word's state copied to scratch, or
 * scratch zeroed for another unit. Stores to a page of words or an inline
 * page are whole words: edan_shadow_word_store().
 */
static inline char *edan_shadow_unit_find(const edan_shadow_page *pg, int n_lanes, bool with_readers, bool narrow,
                                          uint32_t u, bool insert, edan_u64a *scratch)
{
    if (!narrow)
        return edan_shadow_unit(pg, n_lanes, with_readers, narrow, u);
    const uintptr_t p = (uintptr_t)pg & ~(uintptr_t)EDAN_SHADOW_TAG_MASK;
    switch (edan_shadow_tag(pg)) {
    case 0:
        return (char *)p + (size_t)u * 8;
    case EDAN_SHADOW_TAG_WORDS:
        return (char *)p + (size_t)(u >> 1) * 8;
    case EDAN_SHADOW_TAG_SPARSE: {
        char *rec = insert ? edan_shadow_sparse_unit((edan_shadow_sparse *)p, u)
                           : edan_shadow_sparse_find((edan_shadow_sparse *)p, u);
        if (rec)
            return rec;
        break;
    }
    default: {
        const uintptr_t v = *(const uintptr_t *)p;
        if (edan_shadow_inline_word(v) == u >> 1) {
            edan_shadow_inline_rec(v, (char *)scratch);
            return (char *)scratch;
        }
    }
    }
    *scratch = 0;
    return (char *)scratch;
}

typedef struct edan_shadow_overflow {
    uint64_t key; /* region + 1, so 0 means empty */
    uintptr_t *l2;
} edan_shadow_overflow;

/* The pool of split records (n_lanes edan_shadow_split each), with a free list threaded through F[0]. */
typedef struct edan_shadow_pool {
    edan_shadow_split **chunks;
    size_t n_chunks, used, free_head; /* free_head: index + 1, 0 = empty */
} edan_shadow_pool;

/* Pages made of each kind, and remade (edan_shadow.made). */
typedef struct edan_shadow_made_counts {
    uint64_t inline_made, sparse_made, words_made, units_made; /* narrow pages made full: of words, of units */
    uint64_t inline_spilled, words_split, inline_ended;        /* inline to sparse; words to units */
    uint64_t widened[4];                                       /* narrow pages widened, by tag */
} edan_shadow_made_counts;

typedef struct edan_shadow {
    uintptr_t **l1;    /* level-2 tables of handles (an inline page's slot holds its state) */
    uint32_t *l1_used; /* the indices of l1's level-2 tables, in the order made: walks visit only these */
    size_t l1_n, l1_cap;
    edan_shadow_overflow *ovf;
    size_t ovf_cap, ovf_used;
    int n_lanes;
    bool with_readers;
    bool narrow;         /* the 8-byte layout of one lane (above) */
    bool inline_on;      /* narrow, and until edan_shadow_inline_end(): new pages of one word are inline */
    uint32_t sparse_hot; /* EDAN_SHADOW_SPARSE_HOT; tests make it smaller */
    uint32_t inline_hot; /* EDAN_SHADOW_INLINE_HOT; tests make it smaller */
    uint32_t
        inline_max_md; /* EDAN_SHADOW_INLINE_MAX_MD: inline pages keep md's low bits (a mask); tests make it smaller */
    uint32_t inline_left; /* lookups of inline pages until the next is made sparse */
    size_t page_bytes;
    size_t unit_bytes; /* edan_shadow_unit_bytes(n_lanes, with_readers, narrow) */
    uint64_t last_page_no;
    edan_shadow_page *last_page;
    /*
     * Recently used pages, direct-mapped with a multiplicative hash, number
     * and handle side by side so a lookup reads one line. 4096 entries
     * (64 KiB, 16 MiB of guest memory) hold the working set of pages of the
     * bundled benchmarks, the pointer chase's 8 MiB list included: with 1024
     * entries half of the chase's lookups missed and took the general path
     * (136 -> 120 instructions per record, docs/benchmarks.md), and a
     * smaller table (or a xor hash, which mapped stream's three arrays onto
     * the same slots) missed on up to a quarter of the lookups of the others.
     * Every entry (and last_page) is its page's current handle: only the
     * lookups remake pages, and they update both.
     */
    struct {
        uint64_t no;
        edan_shadow_page *page;
    } recent[EDAN_SHADOW_RECENT];
    /*
     * The handles' generation: changed whenever a page's handle is made,
     * remade or forgotten (every one of them goes through the lookups, the
     * widening or the end of inline pages), never 0. A handle a client kept
     * with the generation it was found in is its page's current handle while
     * the generation is the same (the analyzer keeps one per static
     * instruction, edag_one_lane.c).
     */
    uint64_t gen;
    uint64_t pages;
    /*
     * Pages made of each kind, and remade: for the tests, which check that
     * random traces go through every layout.
     */
    edan_shadow_made_counts made;
    uint64_t units_ahead; /* pages made full pages of units for the stores ahead (edan_shadow_page_units()) */
    /*
     * Lookups that went past the recently used pages to a written page: the
     * analyzer prefetches shadow state when they are frequent. Misses that
     * find zero_page do not count (prefetching it gains nothing: it is one
     * page, always cached), so a pointer chase over data written before the
     * traced region does not pay for the look-ahead.
     */
    uint64_t recent_misses;
    /*
     * Sparse pages come from slabs of their own (shadow_sparse.c), a free
     * list per size class, so they cost no allocator header and freeing the
     * shadow needs no walk over its pages.
     */
    void *slab_free[EDAN_SHADOW_SPARSE_CLASSES];
    char *slab_bump;
    size_t slab_left;
    char **slabs;
    size_t n_slabs;
    /* page arena; pages of words given back (a page of words made one of units) are reused, their memory released */
    char *arena;
    size_t arena_left;
    char **arenas;
    size_t n_arenas;
    char **free_words;
    size_t n_free_words, cap_free_words;
    edan_shadow_pool pool;
    bool out_of_memory;
    edan_shadow_page *zero_page; /* mapped read-only */
} edan_shadow;

/* Narrow when n_lanes is 1 without readers: its owner then widens it, and ends inline pages, in time (above). */
int edan_shadow_init(edan_shadow *s, int n_lanes, bool with_readers);
/*
 * Rewrites every page as a full page in the wide layout (nothing to do if
 * already wide): handles taken before are stale after. Returns 0, or -1
 * when out of memory (the shadow is then unchanged).
 */
int edan_shadow_widen(edan_shadow *s);
/*
 * Makes every inline page sparse, and no new one inline: the owner calls it
 * before an md above inline_max_md could be stored. Handles taken before
 * are stale after. Returns 0, or -1 when out of memory (then some pages
 * are still inline, and inline_on is still set).
 */
int edan_shadow_inline_end(edan_shadow *s);
/*
 * The same paged table for a client with records of its own layout (deps.h):
 * every unit's record is unit_bytes (a positive multiple of 8), all-zero
 * until written, read through zero_page until its page is first written.
 * Its pages are full pages of units, untagged. The unit accessors above and
 * the split records are the analyzer's and do not apply (n_lanes is 0);
 * edan_shadow_page_for() and the page count do.
 */
int edan_shadow_init_records(edan_shadow *s, size_t unit_bytes);
void edan_shadow_free(edan_shadow *s);

static inline unsigned edan_shadow_recent_slot(uint64_t page_no)
{
    return (unsigned)((page_no * 0x9E3779B97F4A7C15ull) >> (64 - EDAN_SHADOW_RECENT_BITS));
}

/*
 * The handle of addr's page when it is among the recently used (as a read
 * lookup would find it, so maybe zero_page), else NULL.
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
 * The general lookup: the page of an access of len bytes at addr when the
 * recently used handle of its page (recent, maybe NULL) is not a full page
 * that takes it (edan_shadow_page_access()).
 */
edan_shadow_page *edan_shadow_page_lookup(edan_shadow *s, uint64_t addr, uint32_t len, bool for_write,
                                          edan_shadow_page *recent);

/*
 * The page of an access of len bytes (1 to 8, or EDAN_SHADOW_ANY_LEN) at
 * addr, all in that page: to read from (maybe zero_page, sparse or inline)
 * or, for_write, to write to, a page that takes the store as it is, remade
 * if need be: any page for a read; for a store, a page that is not the
 * zero page, a whole word for a page of words, room for its entries on a
 * sparse page (edan_shadow_store_room()), the inline word itself, whole,
 * on an inline page. The lookups of sparse and inline pages are counted
 * (hot pages). NULL when out of memory.
 */
static inline edan_shadow_page *edan_shadow_page_access(edan_shadow *s, uint64_t addr, uint32_t len,
                                                        const bool for_write)
{
    edan_shadow_page *p = edan_shadow_recent_page(s, addr);
    if (p) {
        const unsigned tag = edan_shadow_tag(p);
        if (tag == 0 ? !for_write || p != s->zero_page
                     : tag == EDAN_SHADOW_TAG_WORDS &&
                           (!for_write || edan_shadow_whole_word((uint32_t)(addr & (EDAN_SHADOW_PAGE - 1)), len)))
            return p;
    }
    return edan_shadow_page_lookup(s, addr, len, for_write, p);
}
/* An access of up to 8 bytes of unknown length: as if of 9 bytes (room for three units, never a whole word). */
#define EDAN_SHADOW_ANY_LEN 9u
/* The page of an access at addr of a shadow whose pages are all full ones (records of its own, or wide). */
static inline edan_shadow_page *edan_shadow_page_for(edan_shadow *s, uint64_t addr, const bool for_write)
{
    return edan_shadow_page_access(s, addr, EDAN_SHADOW_ANY_LEN, for_write);
}

/*
 * The page of addr (narrow shadows) made a full page of units now, its
 * state kept, as edan_shadow_page_lookup() would return it. For a writer
 * that knows it is about to store to more than EDAN_SHADOW_SPARSE_MAX of
 * the page's units (the rep string run of edag_bytes.c, looking ahead in
 * its batch), which would make the page one of units anyway: the stores
 * before that then skip the sparse page's lookups, inserts and growth.
 * NULL when out of memory.
 */
edan_shadow_page *edan_shadow_page_units(edan_shadow *s, uint64_t addr);

/*
 * Stores the state of the whole word w (F and md, one lane) in a narrow
 * page that is not a full page of units: a page of words, a sparse page
 * (its units' entries, split records released, become the word's) or an
 * inline page of that word (a lookup for this store made it so).
 */
void edan_shadow_word_store(edan_shadow *s, edan_shadow_page *pg, uint32_t w, uint64_t F, uint64_t md);

/*
 * Prefetching: the analyzer knows the addresses of the records ahead of the
 * one it works on, and the shadow of irregular accesses (gathers, pointer
 * chases) misses in every cache level. edan_shadow_prefetch_state() finds
 * the page through the two-level table (plain loads: the level-1 entry and
 * the level-2 slot) and prefetches the unit's record (with several lanes
 * its last byte too: the record may span two lines). It allocates nothing
 * and changes no state; a page not yet made, sparse or inline is simply
 * not prefetched.
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
    const uintptr_t pg = s->l1[region][page_no & ((1u << EDAN_SHADOW_L2_BITS) - 1)];
    if (!pg || (pg & 1))
        return;
    const uint32_t off = (uint32_t)(addr & (EDAN_SHADOW_PAGE - 1)), words = (pg >> 1) & 1;
    const char *unit = (const char *)(pg & ~(uintptr_t)EDAN_SHADOW_TAG_MASK) +
                       (size_t)(off >> (EDAN_SHADOW_UNIT_BITS + words)) * s->unit_bytes;
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
