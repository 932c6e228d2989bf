/*
 * bigmem.c - zeroed memory for large tables (bigmem.h): below BIG bytes
 * calloc's; from BIG on an anonymous mapping of its own, 2 MiB aligned
 * (mapped 2 MiB larger, the ends unmapped), advised into huge pages; or,
 * for sparse tables, a plain mapping of the rounded size, not advised.
 */
#include "util/bigmem.h"

#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

#define BIG (4u << 20)
#define HUGE_PAGE (2u << 20)

static size_t mapped_size(size_t bytes)
{
    return (bytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
}

void *edan_big_zalloc(size_t bytes)
{
    if (bytes < BIG)
        return calloc(1, bytes);
    const size_t size = mapped_size(bytes);
    if (size < bytes || size + HUGE_PAGE < size)
        return NULL;
    char *m = mmap(NULL, size + HUGE_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return NULL;
    char *p = (char *)(((uintptr_t)m + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
    if (p > m)
        munmap(m, (size_t)(p - m));
    if (p + size < m + size + HUGE_PAGE)
        munmap(p + size, (size_t)(m + size + HUGE_PAGE - (p + size)));
#ifdef MADV_HUGEPAGE
    madvise(p, size, MADV_HUGEPAGE); /* a hint: without it the table works the same */
#endif
    return p;
}

void *edan_big_zalloc_sparse(size_t bytes)
{
    if (bytes < BIG)
        return calloc(1, bytes);
    const size_t size = mapped_size(bytes);
    if (size < bytes)
        return NULL;
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

void edan_big_free(void *p, size_t bytes)
{
    if (!p)
        return;
    if (bytes < BIG)
        free(p);
    else
        munmap(p, mapped_size(bytes));
}
