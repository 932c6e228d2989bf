/*
 * zgrow.c - growth without copy or zeroing (zgrow.h): the heap below
 * EDAN_ZGROW_MAP bytes, from there a private anonymous mapping of the size
 * rounded up to whole pages, grown by mremap(MREMAP_MAYMOVE).
 */
#include "util/zgrow.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static size_t page_size(void)
{
    static size_t page;
    if (!page) {
        const long p = sysconf(_SC_PAGESIZE);
        page = p > 0 ? (size_t)p : 4096;
    }
    return page;
}

/* bytes rounded up to whole pages; 0 when that overflows */
static size_t mapped(size_t bytes)
{
    const size_t page = page_size();
    return bytes > SIZE_MAX - page ? 0 : (bytes + page - 1) / page * page;
}

void *edan_zgrow(void *p, size_t old_bytes, size_t new_bytes)
{
    if (new_bytes < old_bytes)
        return NULL;
    if (new_bytes < EDAN_ZGROW_MAP) { /* the heap's, as util/grow.h's arrays */
        char *q = realloc(p, new_bytes ? new_bytes : 1);
        if (q)
            memset(q + old_bytes, 0, new_bytes - old_bytes);
        return q;
    }
    const size_t to = mapped(new_bytes);
    if (!to)
        return NULL;
    if (old_bytes >= EDAN_ZGROW_MAP) { /* a mapping already: its pages move, the new ones are the kernel's zeroes */
        const size_t from = mapped(old_bytes);
        if (from == to)
            return p;
        void *q = mremap(p, from, to, MREMAP_MAYMOVE);
        return q == MAP_FAILED ? NULL : q;
    }
    void *q = mmap(NULL, to, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (q == MAP_FAILED)
        return NULL;
    if (old_bytes)
        memcpy(q, p, old_bytes);
    free(p);
    return q;
}

void edan_zgrow_free(void *p, size_t bytes)
{
    if (!p)
        return;
    if (bytes < EDAN_ZGROW_MAP)
        free(p);
    else
        munmap(p, mapped(bytes));
}
