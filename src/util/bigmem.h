/*
 * bigmem.h - zeroed memory for the large tables that are read at random
 * (the hash tables of blocks: util/keymap.h, analysis/locality/reuse.h), in
 * transparent huge pages where the kernel offers them: with 4 KiB pages
 * nearly every lookup in a table of a large footprint would also miss the
 * TLB, and so would the prefetches meant to hide its cache misses. A large
 * table is mapped fresh, so it is zeroed once, by the kernel, when first
 * touched.
 *
 *   void *t = edan_big_zalloc(bytes);   ...   edan_big_free(t, bytes);
 */
#ifndef EDAN_UTIL_BIGMEM_H
#define EDAN_UTIL_BIGMEM_H

#include <stddef.h>

/* bytes of zeroed memory; NULL when out of memory. */
void *edan_big_zalloc(size_t bytes);
/*
 * bytes of zeroed memory for a table a run may touch sparsely (a large
 * cache's tags): from 4 MiB on a mapping in the kernel's usual pages, never
 * advised into huge ones, so memory follows the 4 KiB pages touched (a huge
 * page per touched set would cost 2 MiB each). NULL when out of memory.
 */
void *edan_big_zalloc_sparse(size_t bytes);
/* Release p (NULL: nothing), allocated by edan_big_zalloc(bytes) or edan_big_zalloc_sparse(bytes) with the same bytes.
 */
void edan_big_free(void *p, size_t bytes);

#endif
