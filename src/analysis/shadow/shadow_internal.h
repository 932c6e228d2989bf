/*
 * shadow_internal.h - between the shadow's table and pages (shadow.c) and
 * its sparse pages (shadow_sparse.c): making, growing and spreading sparse
 * pages. Not for the shadow's clients.
 */
#ifndef EDAN_ANALYSIS_SHADOW_INTERNAL_H
#define EDAN_ANALYSIS_SHADOW_INTERNAL_H

#include "analysis/shadow/shadow.h"

/*
 * A new sparse page holding the entries of from (a sparse page, then
 * freed) or the word of inline page state v (when from is NULL and v is
 * not 0), with room for need more: NULL when it would need more than
 * EDAN_SHADOW_SPARSE_MAX entries (the page is to be made full; nothing
 * freed) or when out of memory (out_of_memory set).
 */
edan_shadow_sparse *edan_shadow_sparse_make(edan_shadow *s, edan_shadow_sparse *from, uintptr_t v, uint32_t need);
/*
 * For a store of whole word w to sparse page sp: the word's entry, made if
 * absent, its units' entries (split records released) merged into it. The
 * page's lookup left room for it.
 */
char *edan_shadow_sparse_word(edan_shadow *s, edan_shadow_sparse *sp, uint32_t w);
/* Gives a sparse page's memory back to its slab's free list. */
void edan_shadow_sparse_give(edan_shadow *s, edan_shadow_sparse *sp);
/* Whether every entry of sp is a whole word's. */
bool edan_shadow_sparse_all_words(edan_shadow_sparse *sp);
/*
 * Writes sp's records into a full narrow page (zeroed): a page of words
 * (words; every entry a word's) or of units (a word's record to both its
 * units).
 */
void edan_shadow_sparse_spread(edan_shadow_sparse *sp, char *page, bool words);
/* Every slab unmapped: no sparse page is left. */
void edan_shadow_slabs_free(edan_shadow *s);
void *edan_shadow_map_zeroed(size_t bytes);

#endif
