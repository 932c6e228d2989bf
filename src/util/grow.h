/*
 * grow.h - arrays indexed by a dense id (static instructions) that grow on
 * demand: the capacity doubles from 1024 until it holds the id, and new
 * elements are zero, so "not seen yet" needs no separate flag.
 */
#ifndef EDAN_UTIL_GROW_H
#define EDAN_UTIL_GROW_H

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* The capacity that holds index i, from the current one (0: none yet). */
static inline size_t edan_grow_cap(size_t cap, size_t i)
{
    cap = cap ? cap : 1024;
    while (cap <= i)
        cap *= 2;
    return cap;
}

/* p (old_cap elements of size bytes) reallocated to new_cap, the new elements zero; NULL (p unchanged) when out of
 * memory. */
static inline void *edan_grow_zeroed(void *p, size_t old_cap, size_t new_cap, size_t size)
{
    char *q = realloc(p, new_cap * size);
    if (q)
        memset(q + old_cap * size, 0, (new_cap - old_cap) * size);
    return q;
}

#endif
