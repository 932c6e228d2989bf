/*
 * zgrow_test.c - arrays grown without copy or zeroing (util/zgrow.h)
 * against a naive copy: random growth sequences from empty, across the
 * heap-to-mapping threshold and within one page, random writes between
 * growths; after each growth the old bytes are kept and the new ones are
 * zero; the array is freed by its last size.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "random_trace.h"
#include "util/zgrow.h"

int main(void)
{
    rt_seed(20261203);
    for (int round = 0; round < 40; round++) {
        unsigned char *p = NULL, *ref = NULL;
        size_t bytes = 0;
        for (int step = 0; step < 12; step++) {
            /* growths of a byte to a few mappings' worth, some within the page the mapping already has */
            const size_t add = rt_below(4) == 0 ? rt_below(64) : rt_below(3 * EDAN_ZGROW_MAP);
            const size_t to = bytes + add;
            unsigned char *q = edan_zgrow(p, bytes, to);
            CHECK(q != NULL, "round %d step %d: %zu -> %zu bytes", round, step, bytes, to);
            unsigned char *r = realloc(ref, to ? to : 1);
            if (!q || !r)
                return check_summary();
            p = q;
            ref = r;
            memset(ref + bytes, 0, to - bytes);
            CHECK(!memcmp(p, ref, to), "round %d step %d: %zu -> %zu bytes: kept and zeroed", round, step, bytes, to);
            for (int w = 0; to && w < 200; w++) { /* writes, the new part's included */
                const size_t at = rt_below(to);
                p[at] = ref[at] = (unsigned char)rt_below(256);
            }
            bytes = to;
        }
        CHECK(!memcmp(p, ref, bytes), "round %d: the last writes", round);
        CHECK(edan_zgrow(p, bytes, bytes - (bytes > 0)) == NULL || bytes == 0, "round %d: shrinking is refused", round);
        edan_zgrow_free(p, bytes);
        free(ref);
    }
    edan_zgrow_free(NULL, 0);
    edan_zgrow_free(NULL, EDAN_ZGROW_MAP);
    return check_summary();
}
