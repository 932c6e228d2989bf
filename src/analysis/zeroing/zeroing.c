#include "analysis/zeroing/zeroing.h"

#include <string.h>

int edan_zeroing_init(edan_zeroing *z)
{
    memset(z->memo, 0xff, sizeof z->memo); /* empty: UINT64_MAX */
    return edan_keymap_init(&z->written, 0);
}

void edan_zeroing_free(edan_zeroing *z)
{
    edan_keymap_free(&z->written);
}

int edan_zeroing_lookup(edan_zeroing *z, uint64_t page)
{
    bool created;
    if (!edan_keymap_get(&z->written, page, 0, &created)) /* a page number is below UINT64_MAX */
        return -1;
    z->memo[page % EDAN_ZEROING_MEMO] = page;
    return created;
}
