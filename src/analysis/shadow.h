/*
 * shadow.h - shadow memory: for every guest byte and every lane, the state
 * of the last store to it (finish time F and memory depth md) and, when false
 * dependencies are kept, of the reads since then (rF, rmd).
 *
 * Layout: a two-level table over 4 KiB guest pages. Level 1 is indexed by
 * addr >> 28 (48-bit user addresses; anything higher goes to a small
 * overflow map), level 2 by the page within its 256 MiB region. A page holds
 * one state per 4-byte unit and lane, lane-major within a unit (index
 * u * n_lanes + k), so the lanes of one unit share a cache line and a sweep
 * over configurations updates them together. Almost every access is an
 * aligned 4- or 8-byte access, so one state describes all four bytes of a
 * unit and the shadow costs 3 bytes per guest byte and lane instead of 12.
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
#define EDAN_SHADOW_RECENT 64
/* md values must stay below the split flag. */
#define EDAN_SHADOW_MAX_MD 0x7fffffffu

/* Per-byte state of a split unit. */
typedef struct edan_shadow_split {
    uint64_t F[EDAN_SHADOW_UNIT];
    uint64_t rF[EDAN_SHADOW_UNIT];
    uint32_t md[EDAN_SHADOW_UNIT];
    uint32_t rmd[EDAN_SHADOW_UNIT];
} edan_shadow_split;

/* A page: arrays of EDAN_SHADOW_UNITS * n_lanes entries, index u * n_lanes + k. */
typedef struct edan_shadow_page {
    uint64_t page_no;
    uint64_t *F;
    uint32_t *md;
    uint64_t *rF; /* NULL unless false dependencies are kept */
    uint32_t *rmd;
} edan_shadow_page;

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
    size_t page_bytes;
    uint64_t last_page_no;
    edan_shadow_page *last_page;
    /* Recently used pages, direct-mapped: kernels stream through a few arrays at once. */
    uint64_t recent_no[EDAN_SHADOW_RECENT];
    edan_shadow_page *recent[EDAN_SHADOW_RECENT];
    uint64_t pages;
    /* page arena */
    char *arena;
    size_t arena_left;
    char **arenas;
    size_t n_arenas;
    edan_shadow_pool pool;
    bool out_of_memory;
} edan_shadow;

int edan_shadow_init(edan_shadow *s, int n_lanes, bool with_readers);
void edan_shadow_free(edan_shadow *s);

edan_shadow_page *edan_shadow_page_slow(edan_shadow *s, uint64_t page_no);

static inline edan_shadow_page *edan_shadow_page_of(edan_shadow *s, uint64_t addr)
{
    uint64_t page_no = addr >> EDAN_SHADOW_PAGE_BITS;
    if (page_no == s->last_page_no)
        return s->last_page;
    unsigned slot = (unsigned)(page_no ^ (page_no >> 6)) & (EDAN_SHADOW_RECENT - 1);
    edan_shadow_page *p;
    if (s->recent_no[slot] == page_no) {
        p = s->recent[slot];
    } else {
        p = edan_shadow_page_slow(s, page_no);
        if (!p)
            return NULL;
        s->recent_no[slot] = page_no;
        s->recent[slot] = p;
    }
    s->last_page_no = page_no;
    s->last_page = p;
    return p;
}

/* Split records (n_lanes per-lane states each): allocation may fail (returns UINT64_MAX). */
uint64_t edan_shadow_split_alloc(edan_shadow *s);
void edan_shadow_split_release(edan_shadow *s, uint64_t index);
static inline edan_shadow_split *edan_shadow_split_get(edan_shadow *s, uint64_t index)
{
    return &s->pool.chunks[index >> 10][(index & 1023) * (uint64_t)s->n_lanes];
}

#endif
