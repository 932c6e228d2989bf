#include "analysis/machine/machine.h"

#include <string.h>

edan_cache_config edan_machine_data_caches(const edan_machine *m)
{
    edan_cache_config c;
    memset(&c, 0, sizeof c);
    c.n_levels = m->n_data_levels;
    for (int i = 0; i < m->n_data_levels; i++)
        c.level[i] = m->data[i].geo;
    return c;
}
