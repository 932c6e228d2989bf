#include "analysis/machine/machine.h"

#include <stdio.h>
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

int edan_machine_dtlb_caches(const edan_machine *m, edan_cache_config *out, edan_error *err)
{
    if (m->dtlb.l2_entries < m->dtlb.entries) {
        edan_error_set(err, "the second level has fewer entries than the first");
        return -1;
    }
    char spec[160];
    snprintf(spec, sizeof spec, "%llu,line=4096,ways=%u+%llu,line=4096,ways=%u",
             (unsigned long long)m->dtlb.entries * 4096, m->dtlb.ways, (unsigned long long)m->dtlb.l2_entries * 4096,
             m->dtlb.l2_ways);
    return edan_cache_config_parse(spec, out, err);
}
