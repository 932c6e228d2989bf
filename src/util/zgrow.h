/*
 * zgrow.h - arrays indexed by a dense id (util/grow.h's capacities) whose
 * growth neither copies nor zeroes: from ZGROW_MAP bytes on, an array is an
 * anonymous mapping of its own, grown by mremap(), so its pages move instead
 * of being copied, and its new part is zero because the kernel hands out
 * zeroed pages at their first touch. Pages never touched cost nothing.
 *
 * Why: on the hosts edan runs on, a page's first touch costs about 10 µs
 * (docs/benchmarks.md, "Fresh memory"), so realloc()'s copy and the memset()
 * of the new half made the timing model's per-instruction arrays (a few
 * hundred bytes per static instruction, most of them never written for code
 * outside the measured region) a quarter of an analysis's page faults.
 *
 *   void *p = NULL;  size_t cap = 0;
 *   q = edan_zgrow(p, cap * size, new_cap * size);   NULL: out of memory, p unchanged
 *   edan_zgrow_free(p, cap * size);
 *
 * Invariant: an array's representation (heap or mapping) is a function of
 * its size in bytes alone, so edan_zgrow_free() needs only that size, the
 * one the last edan_zgrow() was given.
 */
#ifndef EDAN_UTIL_ZGROW_H
#define EDAN_UTIL_ZGROW_H

#include <stddef.h>

/* From this many bytes an array is a mapping of its own (smaller: the heap, realloc() and memset()). */
#define EDAN_ZGROW_MAP (64u << 10)

/* p (old_bytes, 0 with p NULL) grown to new_bytes >= old_bytes, the new bytes zero; NULL when out of memory. */
void *edan_zgrow(void *p, size_t old_bytes, size_t new_bytes);
/* Release p (NULL: nothing), last grown to bytes. */
void edan_zgrow_free(void *p, size_t bytes);

#endif
