/*
 * projection.c - ExaSAT's bound and the traffic of every fully associative
 * cache size (see projection.h).
 */
#include "analysis/projection.h"

#include <math.h>

edan_proj edan_proj_bound(double flops, double weighted_flops, double dram_bytes, double peak_flops, double bandwidth)
{
    edan_proj p;
    p.flops = flops;
    p.weighted_flops = weighted_flops;
    p.dram_bytes = dram_bytes;
    p.bytes_per_flop = weighted_flops > 0 ? dram_bytes / weighted_flops : NAN;
    p.time_compute = weighted_flops / peak_flops;
    p.time_memory = dram_bytes / bandwidth;
    /* ExaSAT: compute bound only when the CPU time is strictly the larger */
    p.memory_bound = !(p.time_compute > p.time_memory);
    p.time = p.memory_bound ? p.time_memory : p.time_compute;
    return p;
}

edan_proj edan_proj_evaluate(const edan_opmix *mix, double dram_bytes, const edan_proj_machine *m)
{
    return edan_proj_bound((double)edan_opmix_flops(mix), edan_opmix_weighted_flops(mix, &m->weights), dram_bytes,
                           m->peak_flops, m->bandwidth);
}

uint64_t edan_lru_reads(const edan_lru_traffic *t, unsigned k)
{
    /* a reuse at distance d hits 2^k blocks when d < 2^k, i.e. its bin is <= k */
    uint64_t n = t->cold;
    for (unsigned b = k + 1; b < EDAN_LRU_SIZES; b++)
        n += t->reuse[b];
    return n;
}

uint64_t edan_lru_writebacks(const edan_lru_traffic *t, unsigned k)
{
    int64_t n = 0;
    for (unsigned j = 0; j <= k && j <= EDAN_LRU_SIZES; j++)
        n += t->wb_diff[j];
    return n > 0 ? (uint64_t)n : 0;
}

uint64_t edan_lru_dirty_at_end(const edan_lru_traffic *t, unsigned k)
{
    int64_t n = 0;
    for (unsigned j = 0; j <= k && j <= EDAN_LRU_SIZES; j++)
        n += t->end_diff[j];
    return n > 0 ? (uint64_t)n : 0;
}

unsigned edan_lru_working_set(const edan_lru_traffic *t)
{
    unsigned k = 0;
    for (unsigned b = 0; b < EDAN_LRU_SIZES; b++)
        if (t->reuse[b])
            k = b;
    return k;
}

void edan_lru_merge(edan_lru_traffic *to, const edan_lru_traffic *from)
{
    to->accesses += from->accesses;
    to->cold += from->cold;
    for (unsigned b = 0; b < EDAN_LRU_SIZES; b++)
        to->reuse[b] += from->reuse[b];
    for (unsigned b = 0; b <= EDAN_LRU_SIZES; b++) {
        to->wb_diff[b] += from->wb_diff[b];
        to->end_diff[b] += from->end_diff[b];
    }
}
