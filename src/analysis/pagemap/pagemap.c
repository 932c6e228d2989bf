#include "analysis/pagemap/pagemap.h"

#include <stdlib.h>
#include <string.h>

#include "util/grow.h"

int edan_pagemap_init(edan_pagemap *m)
{
    memset(m, 0, sizeof *m);
    memset(m->memo_page, 0xff, sizeof m->memo_page); /* empty: UINT64_MAX */
    return edan_keymap_init(&m->frames, sizeof(uint64_t));
}

void edan_pagemap_free(edan_pagemap *m)
{
    edan_keymap_free(&m->frames);
    free(m->page);
    memset(m, 0, sizeof *m);
}

uint64_t edan_pagemap_frame(edan_pagemap *m, uint64_t page)
{
    if (m->next == m->cap) { /* room for a new frame's page first: a page in the keymap has its frame */
        const size_t cap = edan_grow_cap((size_t)m->cap, (size_t)m->next);
        uint64_t *p = edan_grow_zeroed(m->page, (size_t)m->cap, cap, sizeof *p);
        if (!p)
            return UINT64_MAX;
        m->page = p;
        m->cap = cap;
    }
    bool created;
    uint64_t *frame = edan_keymap_get(&m->frames, page, 0, &created); /* a page number is below UINT64_MAX */
    if (!frame)
        return UINT64_MAX;
    if (created) {
        m->page[m->next] = page;
        *frame = m->next++;
    }
    const unsigned i = (unsigned)(page % EDAN_PAGEMAP_MEMO);
    m->memo_page[i] = page;
    m->memo_delta[i] = edan_pagemap_frame_addr(*frame, 0) - (page << EDAN_PAGEMAP_SHIFT);
    return *frame;
}

int edan_pagemap_load(edan_pagemap *m, const edan_pagemap_range *r, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (r[i].end > r[i].start)
            for (uint64_t p = r[i].start >> EDAN_PAGEMAP_SHIFT; p <= (r[i].end - 1) >> EDAN_PAGEMAP_SHIFT; p++)
                if (edan_pagemap_frame(m, p) == UINT64_MAX)
                    return -1;
    return 0;
}

uint64_t edan_pagemap_placed(const edan_pagemap *m, uint64_t addr)
{
    const uint64_t page = addr >> EDAN_PAGEMAP_SHIFT, off = addr & ((1u << EDAN_PAGEMAP_SHIFT) - 1);
    const unsigned i = (unsigned)(page % EDAN_PAGEMAP_MEMO);
    if (m->memo_page[i] == page)
        return addr + m->memo_delta[i];
    const uint64_t *frame = edan_keymap_find(&m->frames, page, 0);
    return frame ? edan_pagemap_frame_addr(*frame, off) : UINT64_MAX;
}
