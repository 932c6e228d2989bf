/*
 * shadow.h - shadow memory: per guest byte, per lane, the state of the last
 * store to that byte (its finish time F and memory depth md), plus the
 * readers since then when false dependencies are kept.
 *
 * Layout: a two-level table over 4 KiB guest pages. Level 1 is indexed by
 * addr >> 28 (covers 48-bit user addresses; higher addresses go to a small
 * overflow map), level 2 by page within the 256 MiB region. A page is one
 * allocation holding, for every lane, F[4096] then md[4096] (then rF, rmd).
 * All-zero means "never written": F = 0 and md = 0 are the identities of the
 * max() the analyzer takes, so reading unwritten memory adds no dependency.
 * The last page touched is cached, because consecutive accesses almost
 * always fall in the same page.
 */
#ifndef EDAN_ANALYSIS_SHADOW_H
#define EDAN_ANALYSIS_SHADOW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define EDAN_SHADOW_PAGE_BITS 12
#define EDAN_SHADOW_PAGE (1u << EDAN_SHADOW_PAGE_BITS)
#define EDAN_SHADOW_L2_BITS 16
#define EDAN_SHADOW_L1_BITS 20

typedef struct edan_shadow_page edan_shadow_page;

/* Per lane view of a page. */
typedef struct edan_shadow_lane {
    uint64_t *F;   /* finish time of the last writer */
    uint32_t *md;  /* memory depth of the last writer */
    uint64_t *rF;  /* max finish time of readers since the last write (false deps only) */
    uint32_t *rmd;
} edan_shadow_lane;

struct edan_shadow_page {
    uint64_t page_no;
    edan_shadow_lane lane[]; /* n_lanes entries, arrays follow in the same allocation */
};

typedef struct edan_shadow_overflow {
    uint64_t key;            /* addr >> 28, plus one so 0 means empty */
    edan_shadow_page **l2;
} edan_shadow_overflow;

typedef struct edan_shadow {
    edan_shadow_page ***l1;  /* [1 << L1_BITS] -> [1 << L2_BITS] -> page */
    edan_shadow_overflow *ovf;
    size_t ovf_cap, ovf_used;
    int n_lanes;
    bool with_readers;
    uint64_t last_page_no;   /* addr >> PAGE_BITS of last_page, or UINT64_MAX */
    edan_shadow_page *last_page;
    uint64_t pages;          /* pages allocated: the footprint in 4 KiB units */
    bool out_of_memory;
} edan_shadow;

int edan_shadow_init(edan_shadow *s, int n_lanes, bool with_readers);
void edan_shadow_free(edan_shadow *s);

/* Slow path: find or create the page; NULL only when out of memory. */
edan_shadow_page *edan_shadow_page_slow(edan_shadow *s, uint64_t page_no);

static inline edan_shadow_page *edan_shadow_page_of(edan_shadow *s, uint64_t addr)
{
    uint64_t page_no = addr >> EDAN_SHADOW_PAGE_BITS;
    if (page_no == s->last_page_no)
        return s->last_page;
    edan_shadow_page *p = edan_shadow_page_slow(s, page_no);
    if (p) {
        s->last_page_no = page_no;
        s->last_page = p;
    }
    return p;
}

#endif
