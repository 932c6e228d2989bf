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

uint32_t edan_machine_issue_interval(const edan_machine *m, int cls)
{
    return m->issue_interval[cls] ? m->issue_interval[cls] : m->latency[cls];
}
