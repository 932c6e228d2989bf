/*
 * ref_pages.h - the naive reference of the timing model's page maps
 * (pagemap_test.c: frames by first touch; zeroing_test.c: the pages written):
 * the 4 KiB pages seen, in the order first seen, searched linearly.
 */
#ifndef EDAN_TESTS_REF_PAGES_H
#define EDAN_TESTS_REF_PAGES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "timing_check.h"

#define REF_PAGE 4096u

typedef struct ref_pages {
    uint64_t page[MAXN];
    size_t n;
} ref_pages;

/* The index of addr's page among those seen, in first-seen order; a page not seen is added (*fresh true then). */
static inline size_t ref_page_index(ref_pages *r, uint64_t addr, bool *fresh)
{
    const uint64_t p = addr / REF_PAGE;
    size_t i = 0;
    while (i < r->n && r->page[i] != p)
        i++;
    *fresh = i == r->n;
    if (*fresh)
        r->page[r->n++] = p;
    return i;
}

#endif
