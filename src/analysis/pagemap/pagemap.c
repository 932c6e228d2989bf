#include "analysis/pagemap/pagemap.h"

#include <string.h>

int edan_pagemap_init(edan_pagemap *m)
{
    memset(m, 0, sizeof *m);
    return edan_keymap_init(&m->frames, sizeof(uint64_t));
}

void edan_pagemap_free(edan_pagemap *m)
{
    edan_keymap_free(&m->frames);
    memset(m, 0, sizeof *m);
}

uint64_t edan_pagemap_frame(edan_pagemap *m, uint64_t page)
{
    bool created;
    uint64_t *frame = edan_keymap_get(&m->frames, page, 0, &created); /* a page number is below UINT64_MAX */
    if (!frame)
        return UINT64_MAX;
    if (created)
        *frame = m->next++;
    const unsigned i = (unsigned)(page % EDAN_PAGEMAP_MEMO);
    m->memo_page[i] = page + 1;
    m->memo_frame[i] = *frame;
    return *frame;
}
